/* SPDX-License-Identifier: MIT */
/*
 * pcpbench: what a per-CPU cache's lock design costs on the hot path.
 * Subcommands: info, list, run, reproduce, report, compare, plot, calibrate,
 * cpus, check (cmd_*.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../machine/aslr.h"
#include "../output/write/textout.h"
#include "cli.h"
#include "config.h"

/* a word the shell takes as it is; anything else is single-quoted */
static int shell_plain(const char *a)
{
	return *a && a[strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_./=:,+@%-")] == 0;
}

/*
 * the command line as a shell command that gives the same argv: a word
 * with any other character (a blank, '!', '*', a quote, ...) or an empty
 * one in single quotes, an embedded ' written '\''; a word holding a
 * control character (a line break, an escape) in bash's $'...', that byte,
 * the backslash and the quote as \xNN, so that the command printed holds
 * none of them and still pastes back as the same argv
 */
static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s, *p;

	for (int i = 0; i < argc; i++)
		len += 4 * strlen(argv[i]) + 4;
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	for (int i = 0; i < argc; i++) {
		const char *c = argv[i];
		int ansi = 0, quote = !shell_plain(c);

		for (; *c && !ansi; c++)
			ansi = pcb_control_bytes(c);
		if (i)
			*p++ = ' ';
		if (ansi)
			*p++ = '$';
		if (quote)
			*p++ = '\'';
		for (c = argv[i]; *c; c++)
			if (ansi && pcb_control_bytes(c) == 2)
				p += sprintf(p, "\\x%02x\\x%02x", (unsigned char)c[0],
					     (unsigned char)c[1]), c++;
			else if (ansi && (pcb_control_bytes(c) || *c == '\\' || *c == '\''))
				p += sprintf(p, "\\x%02x", (unsigned char)*c);
			else if (*c == '\'')
				p += sprintf(p, "'\\''");
			else
				*p++ = *c;
		if (quote)
			*p++ = '\'';
	}
	*p = 0;
	return s;
}

int main(int argc, char **argv)
{
	const char *topo_spec = NULL;
	int all_argc = argc, i = 1, rc;
	char **all_argv = argv;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			main_help(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			printf("pcpbench %s\n", PCB_VERSION);
			return 0;
		}
		if (!strcmp(argv[i], "--topology")) {
			if (i + 1 >= argc)
				die_usage("--topology needs an hwloc XML file or synthetic description");
			topo_spec = argv[i + 1];
			i += 2;
			continue;
		}
		if (!strncmp(argv[i], "--topology=", 11)) {
			topo_spec = argv[i] + 11;
			i++;
			continue;
		}
		die_usage("unknown option '%s' (see pcpbench --help)", argv[i]);
	}
	if (i >= argc) {
		main_help(stderr);
		return EXIT_USAGE;
	}
	argc -= i;
	argv += i;
	pcb_aslr_command(all_argc, all_argv);
	if (!strcmp(argv[0], "run")) {
		/* the whole command line, for result.json's context */
		char *command = join_args(all_argc, all_argv);

		rc = cmd_run(argc, argv, topo_spec, command);
		free(command);
	} else if (!strcmp(argv[0], "reproduce")) {
		char *command = join_args(all_argc, all_argv);

		rc = cmd_reproduce(argc, argv, topo_spec, command);
		free(command);
	} else if (!strcmp(argv[0], "report"))
		rc = cmd_report(argc, argv);
	else if (!strcmp(argv[0], "compare"))
		rc = cmd_compare(argc, argv);
	else if (!strcmp(argv[0], "plot"))
		rc = cmd_plot(argc, argv);
	else if (!strcmp(argv[0], "info"))
		rc = cmd_info(argc, argv, topo_spec);
	else if (!strcmp(argv[0], "list"))
		rc = cmd_list(argc, argv);
	else if (!strcmp(argv[0], "calibrate"))
		rc = cmd_calibrate(argc, argv, topo_spec);
	else if (!strcmp(argv[0], "cpus"))
		rc = cmd_cpus(argc, argv, topo_spec);
	else if (!strcmp(argv[0], "check"))
		rc = cmd_check(argc, argv, topo_spec);
	else
		die_usage("unknown command '%s' (see pcpbench --help)", argv[0]);
	return rc;
}
