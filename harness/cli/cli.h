/* SPDX-License-Identifier: MIT */
/*
 * The command line: the table of commands and the dispatch (main.c), one
 * file a command (cmd_*.c), their usage texts (usage.c) and what they
 * share (cli.c).
 */
#ifndef PCB_CLI_H
#define PCB_CLI_H

#include <stdio.h>

#include "../machine/topo.h"
#include "../session/exit.h"

/* ms of TSC calibration against CLOCK_MONOTONIC_RAW before a run */
#define CALIBRATE_MS 200

extern const char run_usage[], report_usage[], info_usage[], list_usage[], cpus_usage[],
	compare_usage[], reproduce_usage[], check_usage[];
/* the usages that name what the models declare */
void main_help(FILE *out);
void plot_help(FILE *out);
void calibrate_help(FILE *out);

/* whether argv asks for help (-h, --help before any "--") */
int asks_help(int argc, char **argv);
/* prints usage and returns 1 when argv asks for help */
int wants_help(int argc, char **argv, const char *usage);
void load_topology(struct pcb_topo *topo, const char *spec);

/* what main() gives every command beside its arguments */
struct cli_ctx {
	const char *topo_spec;		/* --topology, or NULL: this machine */
	const char *command;		/* the whole command line, for a result's context */
};

/* a command: perf bench's table, a row a command (main.c's cli_cmds[]) */
struct cli_cmd {
	const char *name;
	const char *args;		/* its arguments, as pcpbench --help shows them */
	/* pcpbench --help's line; a %s is the calibrated function's kernel name */
	const char *summary;
	unsigned int flags;
	int (*fn)(int argc, char **argv, const struct cli_ctx *ctx);
};

/*
 * a command that measures: main() hands the re-exec without address
 * randomization its command line (pcb_aslr_command()), and the command
 * re-executes once its options are read (pcb_aslr_reexec())
 */
#define CLI_MEASURES	0x1

/* the commands, in pcpbench --help's order; a NULL name ends them */
extern const struct cli_cmd cli_cmds[];

int cmd_run(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_report(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_compare(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_plot(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_reproduce(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_info(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_list(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_calibrate(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_cpus(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_check(int argc, char **argv, const struct cli_ctx *ctx);

/* plot --compare FILE.csv [--out DIR] (plot_compare.c): the exit status */
int plot_compare(const char *file, const char *out);

#endif
