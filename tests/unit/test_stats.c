/* SPDX-License-Identifier: MIT */
/* Statistics against hand-computed values. */
#include <math.h>
#include <string.h>

#include "testing.h"
#include "../../harness/measure/stats.h"
#include "../../harness/measure/tsc.h"

static struct pcb_stat st;

/* every value lands in a bucket whose bounds contain it */
static void hist_buckets(void)
{
	for (uint64_t v = 0; v < 200000; v++) {
		unsigned int i = pcb_hist_index(v);

		if (pcb_hist_lower(i) > v || (i + 1 < PCB_HIST_BUCKETS && pcb_hist_lower(i + 1) <= v)) {
			CHECK(0, "value %lu in bucket %u [%lu, %lu)", (unsigned long)v, i,
			      (unsigned long)pcb_hist_lower(i), (unsigned long)pcb_hist_lower(i + 1));
			break;
		}
	}
	for (uint64_t v = 0; v < 32; v++)
		CHECK(pcb_hist_lower(pcb_hist_index(v)) == v, "small values are exact: %lu",
		      (unsigned long)v);
	/* buckets are at most 1/16 of their value wide */
	CHECK(pcb_hist_lower(pcb_hist_index(1000)) == 992, "1000 -> %lu",
	      (unsigned long)pcb_hist_lower(pcb_hist_index(1000)));
	CHECK(pcb_hist_index(UINT64_MAX) == PCB_HIST_BUCKETS - 1, "overflow bucket");
}

/* 1..100 once each: the 50th value is 50, the 99th 99 (bucket [96,100)), the 100th 100 */
static void hist_quantiles(void)
{
	memset(&st, 0, sizeof(st));
	for (uint64_t v = 1; v <= 100; v++)
		st.hist.count[pcb_hist_index(v)]++;
	CHECK(pcb_hist_total(&st.hist) == 100, "total");
	CHECK(pcb_hist_quantile(&st.hist, 0.50) == 50, "p50 %lu", (unsigned long)pcb_hist_quantile(&st.hist, 0.50));
	CHECK(pcb_hist_quantile(&st.hist, 0.99) == 96, "p99 %lu", (unsigned long)pcb_hist_quantile(&st.hist, 0.99));
	CHECK(pcb_hist_quantile(&st.hist, 0.999) == 100, "p99.9 %lu", (unsigned long)pcb_hist_quantile(&st.hist, 0.999));
	CHECK(pcb_hist_quantile(&st.hist, 0.01) == 1, "p1");
}

/* a batch of 64 calls that read 130 ticks with an empty region of 30 */
static void batch_record(void)
{
	memset(&st, 0, sizeof(st));
	pcb_stat_record(&st, 130, 30, 64, PCB_NO_LIMIT);
	pcb_stat_record(&st, 158, 30, 64, PCB_NO_LIMIT);
	CHECK(st.samples == 2 && st.calls == 128 && st.sum_raw == 288, "sums");
	CHECK_NEAR(pcb_stat_mean(&st, 30.0), (288.0 - 60.0) / 128.0, 1e-12);
	CHECK(st.max == 2, "max per call %lu", (unsigned long)st.max);
	CHECK(st.hist.count[1] == 1 && st.hist.count[2] == 1, "per-call histogram");
	/* a region shorter than the overhead counts as 0, not as a huge unsigned value */
	pcb_stat_record(&st, 20, 30, 1, PCB_NO_LIMIT);
	CHECK(st.hist.count[0] == 1, "clamped at 0");
}

/*
 * A call-timed stream on a TSC that steps by 21 with a 42-tick empty
 * region: 1000 calls read 42 (less than a step), 500 read 63, and two
 * straddle a 15 M-tick preemption. The two are set aside and counted;
 * the mean, the histogram and the percentiles are the others' alone.
 */
static void call_stream(void)
{
	memset(&st, 0, sizeof(st));
	for (int i = 0; i < 1500; i++)
		pcb_stat_record(&st, i % 3 == 2 ? 63 : 42, 42, 1, 5000);
	pcb_stat_record(&st, 15000000, 42, 1, 5000);
	pcb_stat_record(&st, 15000063, 42, 1, 5000);
	CHECK(st.samples == 1500 && st.calls == 1500, "%lu regions kept",
	      (unsigned long)st.samples);
	CHECK(st.interrupted == 2 && st.interrupted_calls == 2, "%lu set aside",
	      (unsigned long)st.interrupted);
	CHECK_NEAR(pcb_stat_mean(&st, 42.0), 500.0 * 21 / 1500, 1e-12);
	CHECK(pcb_hist_quantile(&st.hist, 0.5) == 0 && pcb_hist_quantile(&st.hist, 0.99) == 21,
	      "p50 %lu p99 %lu", (unsigned long)pcb_hist_quantile(&st.hist, 0.5),
	      (unsigned long)pcb_hist_quantile(&st.hist, 0.99));
	CHECK(st.max == 21, "max %lu: no interrupted sample in it", (unsigned long)st.max);
	/* every raw sample at or above the empty region: the mean cannot be below zero */
	CHECK(pcb_stat_mean(&st, 42.0) >= 0, "mean %.3f", pcb_stat_mean(&st, 42.0));
}

/*
 * A noisy calibration on a TSC that steps by 21: 9990 empty regions read
 * as 42 or 63 ticks by their phase, and ten VM exits of 350 ticks and
 * more. A plain mean moves by the exits; the median (42) is a step off
 * the regions' cost; what is subtracted is the mean of the regions no
 * longer than twice the median.
 */
static void noisy_calibration(void)
{
	static uint32_t counts[PCB_OVERHEAD_MAX_TICKS];
	struct pcb_overhead o;
	double sum = 0;

	for (int i = 0; i < 9990; i++) {
		counts[i % 10 == 0 ? 63 : 42]++;
		sum += i % 10 == 0 ? 63 : 42;
	}
	for (int i = 0; i < 9; i++) {
		counts[350 + i]++;
		sum += 350 + i;
	}
	sum += 1e7;	/* and one past the counted range */
	pcb_overhead_from_counts(&o, counts, PCB_OVERHEAD_MAX_TICKS, 10000, 1);
	CHECK(o.median == 42, "median %.1f", o.median);
	CHECK_NEAR(o.trimmed, (8991.0 * 42 + 999.0 * 63) / 9990, 1e-9);
	CHECK(o.set_aside == 10, "%lu set aside", (unsigned long)o.set_aside);
	CHECK(o.lo == 42 && o.hi == 63, "p5 %.1f p95 %.1f", o.lo, o.hi);
	CHECK(sum / 10000 > 1000, "the mean would have subtracted %.1f", sum / 10000);
	CHECK(o.samples == 10000 && o.outliers == 1, "outliers");
}

/* merge */
static void merge(void)
{
	struct pcb_stat a = { 0 }, b = { 0 };

	pcb_stat_record(&a, 10, 0, 1, PCB_NO_LIMIT);
	pcb_stat_record(&b, 40, 0, 1, PCB_NO_LIMIT);
	pcb_stat_merge(&a, &b);
	CHECK(a.samples == 2 && a.sum_raw == 50 && a.max == 40, "merge");
}

/* mean and sample standard deviation */
static void mean_stddev(void)
{
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	CHECK_NEAR(pcb_mean(v, 8), 5.0, 1e-12);
	CHECK_NEAR(pcb_stddev(v, 8), sqrt(32.0 / 7.0), 1e-12);
	CHECK_NEAR(pcb_stddev(v, 1), 0.0, 0);
}

/* Welch: a 5-cycle shift over a spread of 0.1 is significant; noise is not */
static void welch(void)
{
	double a[] = { 10.0, 10.1, 9.9, 10.0, 10.05, 9.95 };
	double b[] = { 15.0, 15.1, 14.9, 15.0, 15.05, 14.95 };
	double c[] = { 10.05, 9.95, 10.1, 9.9, 10.0, 10.0 };
	double d[] = { 1, 2 };

	CHECK(pcb_welch_significant(a, 6, b, 6), "shifted");
	CHECK(!pcb_welch_significant(a, 6, c, 6), "same distribution");
	CHECK(!pcb_welch_significant(a, 6, d, 1), "one run says nothing");
}

/*
 * Mann-Whitney U, worked by hand. 1..9 against 10..18: U = 0, mean 40.5,
 * variance 9 * 9 / 12 * 19 = 128.25, z = (40.5 - 0.5) / sqrt(128.25).
 * 1..9 against 5..13: 5..9 tie in pairs (ranks 5.5, 7.5, .. 13.5), so
 * R1 = 10 + 47.5, U = 12.5, tie term 5 * (2^3 - 2) = 30, variance
 * 6.75 * (19 - 30 / 306), z = 27.5 / sqrt(127.588235..) = 2.4346 (p 0.015).
 * Odd against even numbers 1..18: U = 36, z = (4.5 - 0.5) / sqrt(128.25), not
 * significant; all values equal: no variance, z = 0.
 */
static void mann_whitney(void)
{
	double lo[9], hi[9], mid[9], odd[9], even[9], same[9];

	for (int i = 0; i < 9; i++) {
		lo[i] = i + 1;
		hi[i] = i + 10;
		mid[i] = i + 5;
		odd[i] = 2 * i + 1;
		even[i] = 2 * i + 2;
		same[i] = 7;
	}
	CHECK_NEAR(pcb_mann_whitney_z(lo, 9, hi, 9), 40.0 / sqrt(128.25), 1e-9);
	CHECK_NEAR(pcb_mann_whitney_z(hi, 9, lo, 9), 40.0 / sqrt(128.25), 1e-9);
	CHECK_NEAR(pcb_mann_whitney_z(lo, 9, mid, 9), 27.5 / sqrt(6.75 * (19 - 30.0 / 306)),
		   1e-9);
	CHECK_NEAR(pcb_mann_whitney_z(lo, 9, mid, 9), 2.434599, 1e-6);
	CHECK(pcb_mann_whitney_significant(lo, 9, hi, 9), "disjoint");
	CHECK(pcb_mann_whitney_significant(lo, 9, mid, 9), "shifted by 4 of 9");
	CHECK_NEAR(pcb_mann_whitney_z(odd, 9, even, 9), 4.0 / sqrt(128.25), 1e-9);
	CHECK(!pcb_mann_whitney_significant(odd, 9, even, 9), "interleaved");
	CHECK(pcb_mann_whitney_z(same, 9, same, 9) == 0, "identical");
	CHECK(!pcb_mann_whitney_significant(same, 9, same, 9), "identical");
}

/* Garwood's exact 95% intervals, as tables give them */
static void garwood(void)
{
	static const struct { uint64_t k; double lo, hi; } g[] = {
		{ 0, 0, 3.689 }, { 1, 0.0253, 5.572 }, { 3, 0.619, 8.767 },
		{ 10, 4.795, 18.390 }, { 100, 81.364, 121.627 },
	};

	for (size_t j = 0; j < sizeof(g) / sizeof(g[0]); j++) {
		double lo, hi;

		pcb_poisson_interval(g[j].k, &lo, &hi);
		CHECK(fabs(lo - g[j].lo) < 2e-3 * (1 + g[j].lo) &&
		      fabs(hi - g[j].hi) < 2e-3 * g[j].hi, "k=%llu: [%.4f, %.4f], not "
		      "[%.4f, %.4f]", (unsigned long long)g[j].k, lo, hi, g[j].lo, g[j].hi);
	}
}

/*
 * p-values of Student's t against closed forms: df 1 (Cauchy),
 * P(|T| > 1) = 1 - 2 atan(1) / pi = 0.5; df 2, P(|T| > 3) = 1 - 3 /
 * sqrt(11). Welch on 9, 10, 11 against 11, 12, 13: t = 2 / sqrt(2/3) =
 * sqrt(6), 4 df, p = 0.070484 (the density integrated by Simpson's rule
 * in python3); the normal's at 1.96 is 0.05.
 */
static void student_p(void)
{
	double a[] = { 9, 10, 11 }, b[] = { 11, 12, 13 }, one[] = { 10 };
	double same[] = { 5, 5, 5 };

	CHECK_NEAR(pcb_t_p_value(1, 1), 0.5, 1e-9);
	CHECK_NEAR(pcb_t_p_value(3, 2), 1 - 3 / sqrt(11), 1e-9);
	CHECK_NEAR(pcb_t_p_value(2, 2.5), 0.157391, 1e-5);
	CHECK_NEAR(pcb_welch_p(a, 3, b, 3), 0.070484, 1e-5);
	CHECK_NEAR(pcb_welch_p(b, 3, a, 3), 0.070484, 1e-5);
	CHECK(pcb_welch_p(a, 3, one, 1) == 1, "one run: no evidence");
	CHECK(pcb_welch_p(same, 3, same, 3) == 1, "no spread, same mean");
	CHECK_NEAR(pcb_normal_p(1.959964), 0.05, 1e-6);
	CHECK_NEAR(pcb_t975(4), 2.776, 0);
	CHECK_NEAR(pcb_t975(3.87), 3.182, 0);
	CHECK_NEAR(pcb_t975(0.4), 12.706, 0);
}

/* CV and the mean's 95% half-width: 9, 10, 11 spread by 1 around 10 */
static void cv_ci(void)
{
	double v[] = { 9, 10, 11 }, z[] = { 0, 0, 0 };

	CHECK_NEAR(pcb_cv(v, 3), 0.1, 1e-12);
	CHECK_NEAR(pcb_cv(z, 3), 0, 0);
	CHECK_NEAR(pcb_ci95_half(v, 3), 4.303 / sqrt(3), 1e-12);
	CHECK(isinf(pcb_ci95_half(v, 1)), "one run has no interval");
}

/*
 * The Diff % interval, worked by hand: 11, 12, 13 against 9, 10, 11.
 * R = 1.2; Var(R) = (1/3) / 100 + 144 (1/3) / 10^4 = 0.0081333, se
 * 0.0901850; Welch-Satterthwaite df = 0.0081333^2 / ((0.0033333^2 +
 * 0.0048^2) / 2) = 3.874, t(3) = 3.182: 20% +- 28.697%.
 */
static void ratio_ci(void)
{
	double a[] = { 11, 12, 13 }, b[] = { 9, 10, 11 }, c[] = { 10, 10, 10 };
	double z[] = { 0, 0, 0 }, lo, hi;

	CHECK(pcb_ratio_ci95(a, 3, b, 3, &lo, &hi) == 0, "an interval");
	CHECK_NEAR(lo, -8.696865, 1e-5);
	CHECK_NEAR(hi, 48.696865, 1e-5);
	CHECK(pcb_ratio_ci95(c, 3, c, 3, &lo, &hi) == 0 && lo == 0 && hi == 0,
	      "no spread: [%g, %g]", lo, hi);
	CHECK(pcb_ratio_ci95(a, 3, z, 3, &lo, &hi) < 0, "no ratio over zero");
	CHECK(pcb_ratio_ci95(a, 1, b, 3, &lo, &hi) < 0, "one run");
}

/*
 * Holm-Bonferroni on 0.01, 0.04, 0.03, 0.005: sorted, 0.005 x 4 = 0.02,
 * 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04, kept monotone 0.06;
 * at 5% the first and the last are rejected. Twenty rows at p = 0.04
 * each: a 5% test marks all, Holm none.
 */
static void holm(void)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, adj[4], many[20];

	pcb_holm_adjust(p, 4, adj);
	CHECK_NEAR(adj[0], 0.03, 1e-12);
	CHECK_NEAR(adj[1], 0.06, 1e-12);
	CHECK_NEAR(adj[2], 0.06, 1e-12);
	CHECK_NEAR(adj[3], 0.02, 1e-12);
	for (int i = 0; i < 20; i++)
		many[i] = 0.04;
	pcb_holm_adjust(many, 20, many);
	for (int i = 0; i < 20; i++)
		CHECK(many[i] > 0.05, "row %d adjusted to %g", i, many[i]);
	pcb_holm_adjust(p, 1, adj);
	CHECK_NEAR(adj[0], 0.01, 1e-12);
}

/* geometric mean: of 2 and 8 is 4; of 1.1 and 1/1.1 is 1 */
static void geomean(void)
{
	double v[] = { 2, 8 }, w[] = { 1.1, 1 / 1.1 };

	CHECK_NEAR(pcb_geomean(v, 2), 4, 1e-12);
	CHECK_NEAR(pcb_geomean(w, 2), 1, 1e-12);
	CHECK(pcb_geomean(v, 0) == 0, "no rows");
}

/*
 * run.runs = auto on a scripted sequence of run means: 10.0, 10.6, 9.5,
 * 10.2, 9.9, 10.1, 9.95, 10.05, 10.0, 10.02, ... The half-width in
 * percent of the mean after n runs (python3): 3: 13.64, 4: 7.22, 5:
 * 4.99, 6: 3.78, 7: 3.06, 8: 2.57, 9: 2.21, 10: 1.94. A target of 2%
 * stops at 10 runs, 5% at 5; a bound of 8 stops short of 2%; a second
 * row that never spreads does not hold the first back, one that spreads
 * does.
 */
static void runs_auto(void)
{
	double seq[] = { 10.0, 10.6, 9.5, 10.2, 9.9, 10.1, 9.95, 10.05, 10.0, 10.02,
			 9.98, 10.01 };
	double flat[12], wide[12];
	const double *rows[2] = { seq, flat };
	struct pcb_runs_rule rule = { .min_runs = 3, .max_runs = 12, .ci_target = 2 };
	int n;

	for (int i = 0; i < 12; i++) {
		flat[i] = 3;
		wide[i] = i % 2 ? 5 : 15;
	}
	for (n = 1; pcb_runs_verdict(&rule, rows, 1, n) == PCB_RUNS_MORE; n++)
		;
	CHECK(n == 10 && pcb_runs_verdict(&rule, rows, 1, n) == PCB_RUNS_MET,
	      "2%%: stopped after %d runs", n);
	for (n = 1; pcb_runs_verdict(&rule, rows, 2, n) == PCB_RUNS_MORE; n++)
		;
	CHECK(n == 10, "a flat second row: stopped after %d runs", n);
	rule.ci_target = 5;
	for (n = 1; pcb_runs_verdict(&rule, rows, 1, n) == PCB_RUNS_MORE; n++)
		;
	CHECK(n == 5, "5%%: stopped after %d runs", n);
	rule.ci_target = 2;
	rule.max_runs = 8;
	for (n = 1; pcb_runs_verdict(&rule, rows, 1, n) == PCB_RUNS_MORE; n++)
		;
	CHECK(n == 8 && pcb_runs_verdict(&rule, rows, 1, n) == PCB_RUNS_BOUND,
	      "bound: stopped after %d runs", n);
	rows[1] = wide;
	rule.max_runs = 12;
	for (n = 1; pcb_runs_verdict(&rule, rows, 2, n) == PCB_RUNS_MORE; n++)
		;
	CHECK(n == 12 && pcb_runs_verdict(&rule, rows, 2, n) == PCB_RUNS_BOUND,
	      "a wide second row: %d runs", n);
	/* a flat row meets any target at 2 runs, but min_runs comes first */
	rows[0] = flat;
	CHECK(pcb_runs_verdict(&rule, rows, 1, 2) == PCB_RUNS_MORE, "min_runs");
	CHECK(pcb_runs_verdict(&rule, rows, 1, 3) == PCB_RUNS_MET, "flat");
}

int main(void)
{
	hist_buckets();
	hist_quantiles();
	batch_record();
	call_stream();
	noisy_calibration();
	merge();
	mean_stddev();
	welch();
	mann_whitney();
	garwood();
	student_p();
	cv_ci();
	ratio_ci();
	holm();
	geomean();
	runs_auto();
	return check_summary();
}
