/* SPDX-License-Identifier: MIT */
/* Statistics against hand-computed values. */
#include <math.h>
#include <string.h>

#include "testing.h"
#include "../harness/measure/stats.h"
#include "../harness/measure/tsc.h"

static struct pcb_stat st;

int main(void)
{
	/* every value lands in a bucket whose bounds contain it */
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

	/* 1..100 once each: the 50th value is 50, the 99th 99 (bucket [96,100)), the 100th 100 */
	memset(&st, 0, sizeof(st));
	for (uint64_t v = 1; v <= 100; v++)
		st.hist.count[pcb_hist_index(v)]++;
	CHECK(pcb_hist_total(&st.hist) == 100, "total");
	CHECK(pcb_hist_quantile(&st.hist, 0.50) == 50, "p50 %lu", (unsigned long)pcb_hist_quantile(&st.hist, 0.50));
	CHECK(pcb_hist_quantile(&st.hist, 0.99) == 96, "p99 %lu", (unsigned long)pcb_hist_quantile(&st.hist, 0.99));
	CHECK(pcb_hist_quantile(&st.hist, 0.999) == 100, "p99.9 %lu", (unsigned long)pcb_hist_quantile(&st.hist, 0.999));
	CHECK(pcb_hist_quantile(&st.hist, 0.01) == 1, "p1");

	/* a batch of 64 calls that read 130 ticks with an empty region of 30 */
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

	/*
	 * A call-timed stream on a TSC that steps by 21 with a 42-tick empty
	 * region: 1000 calls read 42 (less than a step), 500 read 63, and two
	 * straddle a 15 M-tick preemption. The two are set aside and counted;
	 * the mean, the histogram and the percentiles are the others' alone.
	 */
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

	/*
	 * A noisy calibration on a TSC that steps by 21: 9990 empty regions read
	 * as 42 or 63 ticks by their phase, and ten VM exits of 350 ticks and
	 * more. A plain mean moves by the exits; the median (42) is a step off
	 * the regions' cost; what is subtracted is the mean of the regions no
	 * longer than twice the median.
	 */
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
	{
		struct pcb_stat a = { 0 }, b = { 0 };

		pcb_stat_record(&a, 10, 0, 1, PCB_NO_LIMIT);
		pcb_stat_record(&b, 40, 0, 1, PCB_NO_LIMIT);
		pcb_stat_merge(&a, &b);
		CHECK(a.samples == 2 && a.sum_raw == 50 && a.max == 40, "merge");
	}

	/* mean and sample standard deviation */
	{
		double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

		CHECK_NEAR(pcb_mean(v, 8), 5.0, 1e-12);
		CHECK_NEAR(pcb_stddev(v, 8), sqrt(32.0 / 7.0), 1e-12);
		CHECK_NEAR(pcb_stddev(v, 1), 0.0, 0);
	}

	/* Welch: a 5-cycle shift over a spread of 0.1 is significant; noise is not */
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
return check_summary();
}
