/* SPDX-License-Identifier: MIT */
/*
 * reproduce, inside cli/: what the command (cmd_reproduce.c), the
 * judging of a claim (reproduce_judge.c) and its table
 * (reproduce_table.c) share.
 */
#ifndef PCB_CLI_REPRODUCE_H
#define PCB_CLI_REPRODUCE_H

#include <limits.h>
#include <stdio.h>

#include "../measure/realop.h"
#include "../output/read/interval.h"
#include "../scenario/claims.h"
#include "../session/groups.h"

/* a scenario the claims name, loaded once, and where its result went */
struct repro_scn {
	const char *name;
	struct scn_group g;
	char result[PATH_MAX];
	json_t *json;
	/* why it does not run on the backend asked for (a refusal as printed), "" if it runs */
	char refused[1024];
};

/* run means a claim's test reads of one row */
#define PCB_MAX_RUN_MEANS 1000

/* a claim's outcome */
struct outcome {
	double here;
	int ok;			/* the figure exists */
	int agrees;
	int tested;		/* a test applies: Welch's over run means, or a count's interval */
	int significant;
	/* Welch's test of a's run means against b's, marked with the other claims' (welch) */
	int welch;
	struct pcb_diff_fig f;
	char why[1024];		/* what is missing when !ok */
	char mechanism[768];	/* the claim's, filled in from the result; "" for none */
};

/* what reproduce holds from reading the claims to writing the table */
struct repro {
	struct pcb_claims cl;
	struct repro_scn *s;		/* the scenarios the claims name, ns of them */
	int ns;
	struct outcome *res;		/* a claim's outcome */
	const char **dirs;		/* and the result it came from, NULL for none */
	struct run_opts o;
	const char *sets[17];		/* o's: --backend's, as a --set, and --set's */
	char backend[64];
	/* a claim's design or scenario the backend does not run: why (as refused), else NULL */
	char **skip;
	struct pcb_topo topo;
	double estimate;		/* seconds, all scenarios */
	json_t *context;		/* the first result's machine */
	const char *with;		/* --with: an earlier reproduce's results, merged into these */
	char note[128];			/* what the table says first, "" for nothing */
	/* the real operations the shares are of, timed here after the scenarios */
	struct pcb_realop_result real[PCB_REALOPS];
	char real_err[PCB_REALOPS][256];	/* why one was not timed, "" if it was */
	int real_want[PCB_REALOPS];
};

/* claim c's figure from its scenario's result (NULL: none) into o */
void reproduce_evaluate(const struct pcb_claim *c, json_t *result, const struct repro *rp,
			struct outcome *o);
/*
 * the claims Welch's test applies to, marked together as the tables' Diff
 * rows are (read/interval.h): each one's significant set
 */
void reproduce_mark(struct repro *rp);
/* the table: this machine, the real operations, a line a claim, the legend */
void reproduce_print_table(FILE *f, const struct repro *rp);
/* DIR/reproduce-<ts>/ with reproduce.txt and reproduce.csv, renamed into place: 0 or -1 */
int reproduce_write_table(const char *out, const struct repro *rp, char *path, size_t len);

#endif
