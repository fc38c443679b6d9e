/* SPDX-License-Identifier: MIT */
/*
 * The one procedure every difference of two rows' run means is read by,
 * the tables', the cover letter's, compare's and reproduce's alike:
 *
 * - Welch's t-test on the difference of the means, its two-sided p;
 * - over a family of differences (a result's, a compare's, reproduce's
 *   claims), Holm's step-down: the differences in order of p, the k-th of
 *   n tested at alpha / (n - k + 1) while every one before it was
 *   rejected; from the first that is not, every later one at that first
 *   one's level;
 * - each difference's interval, Welch's on the difference in cycles, at
 *   the level its row was tested at (1 - alpha / (n - k + 1)), and the
 *   Diff %'s, Fieller's for the ratio of the means at the same level and
 *   with the same degrees of freedom;
 * - the mark exactly where that interval excludes zero.
 *
 * Fieller's set holds a ratio of 1 exactly when Welch's t is within the
 * same quantile, so the Diff %'s interval excludes 0 where the cycles' one
 * does, and the marked rows are exactly the rows Holm's procedure rejects
 * (adjusted p <= alpha). The intervals are those the marks are read by, not
 * simultaneous intervals (Holm's procedure has none of a simple form).
 */
#ifndef PCB_OUTPUT_READ_INTERVAL_H
#define PCB_OUTPUT_READ_INTERVAL_H

/* the family-wise error rate the marks keep: 5%, 95% confidence */
#define PCB_DIFF_ALPHA 0.05

/* a difference of means x against a baseline's y, as every output prints it */
struct pcb_diff_fig {
	double x, y;			/* the two means */
	double diff;			/* x - y */
	int tested;			/* two runs a side or more: a test and an interval */
	double p;			/* Welch's two-sided p, 1 where untested */
	double p_holm;			/* Holm-adjusted over the family */
	double level;			/* the interval's confidence (0.95 for one alone) */
	double lo, hi;			/* Welch's interval of diff at level */
	int has_pct;			/* y > 0: a Diff % */
	double pct;			/* 100 (x / y - 1) */
	int pct_bounded;		/* Fieller's interval is one bounded interval */
	double pct_lo, pct_hi;		/* its Diff % ends */
	int significant;		/* the interval excludes 0 */
	/* what the family needs of the test: the standard errors, the degrees of freedom */
	double se2_x, se2_y, df;
};

/* a row's run means, and its mean as the result gives it (the mean of the run means) */
struct pcb_runs {
	const double *v;
	int n;
	double mean;
};

/* f's means and Welch's test of a's run means (x's) against b's (y's) */
void pcb_diff_fig_test(struct pcb_diff_fig *f, const struct pcb_runs *a,
		       const struct pcb_runs *b);
/*
 * Holm's step-down over the n differences f[0..n), then each one's
 * interval at its level and its mark; -1 out of memory (then each at
 * Bonferroni's level, alpha / n, which Holm's never goes below)
 */
int pcb_diff_family(struct pcb_diff_fig *f, int n);

/* Student's t with df degrees of freedom: the t whose two-sided p is alpha */
double pcb_t_quantile(double alpha, double df);

#endif
