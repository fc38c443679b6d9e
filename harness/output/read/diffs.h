/* SPDX-License-Identifier: MIT */
/*
 * The differences a result's figures are read for, computed in one place:
 * each design against its baseline at the same configuration (or, for one
 * design over a sweep, each configuration against the sweep's first), a
 * row a function both have, with Welch's p over the run means corrected
 * together (Holm-Bonferroni) and the 95% interval of the Diff %; and the
 * test compare makes between two results' run means.
 */
#ifndef PCB_OUTPUT_READ_DIFFS_H
#define PCB_OUTPUT_READ_DIFFS_H

#include <stddef.h>

#include <jansson.h>

/* a function of a design and the same function of its baseline */
struct pcb_diff_row {
	json_t *fj, *bf;
	double p;			/* Welch's two-sided p, Holm-adjusted over every row */
};

/* a design against its baseline: rows [from, to) */
struct pcb_diff_block {
	json_t *dj, *base;
	size_t from, to;
};

/* a result's differences, in the order of its designs */
struct pcb_diffs {
	struct pcb_diff_row *row;
	size_t n;
	struct pcb_diff_block *block;
	size_t nblocks;
};

/* every difference of a result, of raw or net means: 0, or -1 out of memory (none then) */
int pcb_result_diffs(json_t *result, int raw, struct pcb_diffs *d);
void pcb_diffs_free(struct pcb_diffs *d);

/* the 95% interval of fj's Diff % over bf's run means (pcb_ratio_ci95()): 0, or -1 if none */
int pcb_diff_ci(json_t *fj, json_t *bf, int raw, double *lo, double *hi);

/*
 * The configuration a sweep row is compared with: the same design with the
 * first swept key at its first value and the others as they are; NULL for
 * that row itself or where there is none
 */
json_t *pcb_config_baseline(json_t *designs, json_t *dj);

/* compare's test of run means x against a baseline's */
struct pcb_diff_test {
	double p;			/* two-sided, not corrected */
	int mwu;			/* Mann-Whitney U (PCB_MWU_MIN_RUNS runs), else Welch */
	int has_ci;
	double lo, hi;			/* the 95% interval of the Diff %, when has_ci */
};

void pcb_diff_test(const double *x, int nx, const double *base, int nbase,
		   struct pcb_diff_test *t);

#endif
