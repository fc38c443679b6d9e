/* SPDX-License-Identifier: MIT */
/*
 * What every command shares: the look for --help, and the topology every
 * command that places CPUs loads (the program's name and the usage
 * error are the session's, session/exit.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* whether argv has opt before any "--" */
static int has_option(int argc, char **argv, const char *opt)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], opt))
			return 1;
	}
	return 0;
}

int asks_help(int argc, char **argv)
{
	return has_option(argc, argv, "-h") || has_option(argc, argv, "--help");
}

int wants_help(int argc, char **argv, const char *usage)
{
	if (!asks_help(argc, argv))
		return 0;
	fputs(usage, stdout);
	return 1;
}

void load_topology(struct pcb_topo *topo, const char *spec)
{
	char err[512];

	if (pcb_topo_load(topo, spec, err, sizeof(err)) < 0)
		die_usage("%s", err);
}
