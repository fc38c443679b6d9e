/* SPDX-License-Identifier: MIT */
/*
 * Statistics: the per-function figures a timed region records (struct
 * pcb_stat, pcb_stat_record(): the model interface's pcb/stat.h) merged
 * and read, and the tests and intervals the tables print.
 */
#ifndef PCB_STATS_H
#define PCB_STATS_H

#include "pcb/stat.h"

uint64_t pcb_hist_lower(unsigned int index);
/* smallest bucket lower bound with at least q of the samples at or below it */
uint64_t pcb_hist_quantile(const struct pcb_hist *h, double q);
uint64_t pcb_hist_total(const struct pcb_hist *h);
void pcb_hist_merge(struct pcb_hist *into, const struct pcb_hist *from);
void pcb_stat_merge(struct pcb_stat *into, const struct pcb_stat *from);
/* mean per call, the timed regions' overhead subtracted */
double pcb_stat_mean(const struct pcb_stat *s, double overhead);
/*
 * The cost per call by differencing, as nanoBench removes a region's fixed
 * cost: the least-squares line through each region's (calls, ticks). With
 * regions of N and 2N calls in equal numbers its slope is
 * (t(2N) - t(N)) / N, the timer and the loop's set-up gone without an
 * empty region subtracted; its intercept is that fixed cost, per region.
 * 0 when the regions do not differ in length (no line), else 1.
 */
int pcb_stat_line(const struct pcb_stat *s, double *per_call, double *fixed);

/* qsort()'s and bsearch()'s comparison of two doubles */
int pcb_cmp_double(const void *a, const void *b);
/* mean and sample standard deviation (n - 1) of n values */
double pcb_mean(const double *v, int n);
double pcb_stddev(const double *v, int n);
/* Welch's two-sided t-test at 95%: do the means of a and b differ? */
int pcb_welch_significant(const double *a, int na, const double *b, int nb);
/* Student's t at 97.5% for df degrees of freedom, df rounded down (conservative) */
double pcb_t975(double df);
/* two-sided p-value of Student's t with df degrees of freedom (df > 0, not rounded) */
double pcb_t_p_value(double t, double df);
/* Welch's two-sided p-value for the means of a and b: 1 where fewer than 2 runs */
double pcb_welch_p(const double *a, int na, const double *b, int nb);
/* the two-sided p-value of a standard normal |z| (Mann-Whitney's approximation) */
double pcb_normal_p(double z);

/* coefficient of variation of n values: sample stddev over |mean|, 0 with a zero mean */
double pcb_cv(const double *v, int n);
/* the 95% confidence half-width of the mean of n values (Student's t, n - 1 df) */
double pcb_ci95_half(const double *v, int n);

/*
 * The 95% interval of 100 * (mean(a) / mean(b) - 1), a Diff %: Welch's
 * interval on the run means, the ratio's standard error by the delta
 * method (first-order Taylor expansion of mean(a) / mean(b)) and its
 * degrees of freedom by Welch-Satterthwaite over the two terms. 0, or -1
 * where it has none (fewer than 2 runs, mean(b) <= 0).
 */
int pcb_ratio_ci95(const double *a, int na, const double *b, int nb, double *lo, double *hi);
/*
 * Holm-Bonferroni: the n p-values adjusted for being n tests of one
 * family (adj[i] <= alpha rejects the same hypotheses as Holm's step-down
 * at alpha). p and adj may be the same array.
 */
void pcb_holm_adjust(const double *p, int n, double *adj);
/* geometric mean of n positive values; 0 where n is 0 */
double pcb_geomean(const double *v, int n);

/*
 * run.runs = auto, as the Phoronix Test Suite adds runs while a result's
 * spread is too wide: after min_runs, another run until every row's 95%
 * confidence half-width is within ci_target percent of its mean, at most
 * max_runs.
 */
struct pcb_runs_rule {
	int min_runs, max_runs;
	double ci_target;		/* percent of the mean */
};

enum pcb_runs_verdict {
	PCB_RUNS_MORE,			/* another run */
	PCB_RUNS_MET,			/* every row within the target */
	PCB_RUNS_BOUND,			/* max_runs done, some row not within it */
};

/* does the row of n run means v meet the rule's target? */
int pcb_ci_within(const double *v, int n, double ci_target);
/* rows[r][0..n) the run means of nr_rows rows after n runs: what the rule says */
enum pcb_runs_verdict pcb_runs_verdict(const struct pcb_runs_rule *rule,
				       const double *const *rows, int nr_rows, int n);
/*
 * The exact 95% interval of a Poisson mean from k events (Garwood's):
 * for a count of rare events, as contended lock acquisitions are
 */
void pcb_poisson_interval(uint64_t k, double *lo, double *hi);

/* runs each result needs before compare uses Mann-Whitney U, as Google Benchmark's compare.py */
#define PCB_MWU_MIN_RUNS 9
/*
 * Mann-Whitney U, two-sided, by the normal approximation with the tie
 * correction and a continuity correction of 1/2 (scipy.stats.mannwhitneyu's
 * asymptotic method, which Google Benchmark's compare.py calls): |z|, 0
 * where every value is the same.
 */
double pcb_mann_whitney_z(const double *a, int na, const double *b, int nb);
/* do a and b differ at 95% (|z| > 1.96)? */
int pcb_mann_whitney_significant(const double *a, int na, const double *b, int nb);

#endif
