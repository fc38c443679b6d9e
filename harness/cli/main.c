/* SPDX-License-Identifier: MIT */
/*
 * pcpbench: what a per-CPU cache's lock design costs on the hot path.
 * The table of commands (cmd_*.c), and the options before one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../machine/aslr.h"
#include "../output/write/textout.h"
#include "cli.h"
#include "config.h"

const struct cli_cmd cli_cmds[] = {
	{ "run", "[SCENARIO.scn ...]", "run scenarios (default scenarios/default.scn)",
	  CLI_MEASURES, cmd_run },
	{ "reproduce", "[--quick]", "every seed's claim on this machine, in one table",
	  CLI_MEASURES, cmd_reproduce },
	{ "report", "RESULT.json", "print a saved result's tables again", 0, cmd_report },
	{ "compare", "A B [C ...]", "saved results side by side, each against the first", 0,
	  cmd_compare },
	{ "plot", "[RESULT ...]", "draw every result's figures with gnuplot", 0, cmd_plot },
	{ "info", "[--json]", "the machine, as a cover letter's Test System", 0, cmd_info },
	{ "list", "", "models, designs, workloads and scenario keys", 0, cmd_list },
	{ "calibrate", "", "a bare %s loop beside the harness figure", CLI_MEASURES,
	  cmd_calibrate },
	{ "cpus", "EXPR ...", "resolve CPU-set expressions on this topology", 0, cmd_cpus },
	{ "check", "[--cpus EXPR]", "the machine's state that moves figures, judged", 0,
	  cmd_check },
	{ NULL, NULL, NULL, 0, NULL },
};

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

static const struct cli_cmd *find_cmd(const char *name)
{
	for (const struct cli_cmd *c = cli_cmds; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* the options before the command, --topology into *topo_spec: the command's index */
static int main_options(int argc, char **argv, const char **topo_spec)
{
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			main_help(stdout);
			exit(0);
		}
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			printf("pcpbench %s\n", PCB_VERSION);
			exit(0);
		}
		if (!strcmp(argv[i], "--topology")) {
			if (i + 1 >= argc)
				die_usage("--topology needs an hwloc XML file or synthetic description");
			*topo_spec = argv[i + 1];
			i += 2;
			continue;
		}
		if (!strncmp(argv[i], "--topology=", 11)) {
			*topo_spec = argv[i] + 11;
			i++;
			continue;
		}
		die_usage("unknown option '%s' (see pcpbench --help)", argv[i]);
	}
	return i;
}

int main(int argc, char **argv)
{
	struct cli_ctx ctx = { NULL, NULL };
	const struct cli_cmd *cmd;
	int i = main_options(argc, argv, &ctx.topo_spec), rc;
	char *command;

	if (i >= argc) {
		main_help(stderr);
		return EXIT_USAGE;
	}
	cmd = find_cmd(argv[i]);
	if (!cmd)
		die_usage("unknown command '%s' (see pcpbench --help)", argv[i]);
	/* getopt_long() permutes argv: the re-exec gets it as given */
	if (cmd->flags & CLI_MEASURES)
		pcb_aslr_command(argc, argv);
	/* the whole command line, for result.json's context */
	command = join_args(argc, argv);
	ctx.command = command;
	rc = cmd->fn(argc - i, argv + i, &ctx);
	free(command);
	return rc;
}
