/* SPDX-License-Identifier: MIT */
/* Statistics against hand-computed values. */
#include <math.h>
#include <string.h>

#include "testing.h"
#include "../harness/measure/stats.h"

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
	pcb_stat_record(&st, 130, 30, 64);
	pcb_stat_record(&st, 158, 30, 64);
	CHECK(st.samples == 2 && st.calls == 128 && st.sum_raw == 288, "sums");
	CHECK_NEAR(pcb_stat_mean(&st, 30.0), (288.0 - 60.0) / 128.0, 1e-12);
	CHECK(st.max == 2, "max per call %lu", (unsigned long)st.max);
	CHECK(st.hist.count[1] == 1 && st.hist.count[2] == 1, "per-call histogram");
	/* a region shorter than the overhead counts as 0, not as a huge unsigned value */
	pcb_stat_record(&st, 20, 30, 1);
	CHECK(st.hist.count[0] == 1, "clamped at 0");

	/* merge */
	{
		struct pcb_stat a = { 0 }, b = { 0 };

		pcb_stat_record(&a, 10, 0, 1);
		pcb_stat_record(&b, 40, 0, 1);
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
	return check_summary();
}
