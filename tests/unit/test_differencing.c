/* SPDX-License-Identifier: MIT */
/*
 * Batch timing's differencing on a scripted timer: regions whose ticks are
 * a known fixed cost plus a known cost per call, in the lengths a model's
 * loop asks pcb_batch_calls() for. The line recovers both exactly, where
 * subtracting an empty region that is not the region's fixed cost does not.
 * And the TSC's step from a histogram of increments.
 */
#include <math.h>
#include <string.h>

#include "testing.h"
#include "../../harness/measure/stats.h"
#include "../../harness/measure/tsc.h"
#include "pcb/timed.h"

atomic_int pcb_stop_now;

static struct pcb_dbg dbg;

/* regions of row fn as a loop times them: fixed + per_call ticks a call, plus jitter */
static void scripted(int fn, unsigned int n, int regions, uint64_t fixed, uint64_t per_call,
		     const int *jitter, int njitter)
{
	for (int r = 0; r < regions; r++) {
		unsigned int k = pcb_batch_calls(&dbg, fn, n);
		uint64_t raw = fixed + per_call * k + (uint64_t)(njitter ? jitter[r % njitter] : 0);

		pcb_dbg_record(&dbg, fn, raw, k);
	}
}

/* n/2 and n in turn */
static void batch_lengths(void)
{
	CHECK(pcb_batch_calls(&dbg, 1, 64) == 32, "a row starts short");
	CHECK(pcb_batch_calls(&dbg, 1, 64) == 64, "then long");
	CHECK(pcb_batch_calls(&dbg, 2, 64) == 32, "rows alternate each on their own");
	CHECK(pcb_batch_calls(&dbg, 1, 64) == 32, "and short again");
	CHECK(pcb_batch_calls(&dbg, 3, 1) == 1, "one call cannot be halved");
	CHECK(!(dbg.differenced & 1u << 3), "a row of one call is not differenced");
	CHECK(dbg.differenced == (1u << 1 | 1u << 2), "rows asked for are: %#x", dbg.differenced);
}

/* 31 ticks fixed, 2 a call: t(64) - t(32) = 64 ticks over 32 calls */
static void fixed_and_per_call(void)
{
	double slope, a;

	scripted(0, 64, 1000, 31, 2, NULL, 0);
	CHECK(pcb_stat_line(&dbg.stat[0], &slope, &a) == 1, "a line");
	CHECK_NEAR(slope, 2.0, 1e-12);
	CHECK_NEAR(a, 31.0, 1e-9);
	/* the subtraction charges the calls with the empty region's 9 extra ticks */
	CHECK_NEAR(pcb_stat_mean(&dbg.stat[0], 40), 2.0 - 9.0 / 48, 1e-12);
}

/* jitter that hits both lengths alike moves the fixed cost, not the slope */
static void jitter_alike(void)
{
	static const int jitter[] = { 0, 0, 3, 3 };	/* as much on either length */
	double slope, a;

	memset(dbg.stat, 0, sizeof(dbg.stat));
	scripted(0, 64, 1000, 31, 5, jitter, 4);
	CHECK(pcb_stat_line(&dbg.stat[0], &slope, &a) == 1, "a line");
	CHECK_NEAR(slope, 5.0, 1e-12);
	CHECK_NEAR(a, 32.5, 1e-9);
}

/* uneven lengths (pft's last region of a mapping is shorter): still exact */
static void uneven_lengths(void)
{
	double slope, a;

	memset(dbg.stat, 0, sizeof(dbg.stat));
	for (unsigned int k = 1; k <= 64; k++)
		pcb_dbg_record(&dbg, 0, 17 + 3 * (uint64_t)k, k);
	CHECK(pcb_stat_line(&dbg.stat[0], &slope, &a) == 1, "a line");
	CHECK_NEAR(slope, 3.0, 1e-12);
	CHECK_NEAR(a, 17.0, 1e-9);
}

/* two workers merged, as a run's total: the same line */
static void merged_workers(void)
{
	struct pcb_stat total;
	double slope, a;

	memset(&total, 0, sizeof(total));
	memset(dbg.stat, 0, sizeof(dbg.stat));
	scripted(0, 64, 500, 31, 2, NULL, 0);
	scripted(1, 64, 700, 31, 2, NULL, 0);
	pcb_stat_merge(&total, &dbg.stat[0]);
	pcb_stat_merge(&total, &dbg.stat[1]);
	CHECK(pcb_stat_line(&total, &slope, &a) == 1, "a line");
	CHECK_NEAR(slope, 2.0, 1e-12);
	CHECK_NEAR(a, 31.0, 1e-9);
}

/* an interrupted region is set aside before it reaches the line */
static void interrupted(void)
{
	double slope, a;

	memset(dbg.stat, 0, sizeof(dbg.stat));
	dbg.limit = 1000;
	scripted(0, 64, 100, 31, 2, NULL, 0);
	pcb_dbg_record(&dbg, 0, 50000, 64);
	CHECK(dbg.stat[0].interrupted == 1, "set aside");
	CHECK(pcb_stat_line(&dbg.stat[0], &slope, &a) == 1, "a line");
	CHECK_NEAR(slope, 2.0, 1e-12);
}

/* regions of one length give no line: the row keeps the subtraction */
static void one_length(void)
{
	double slope, a;

	memset(dbg.stat, 0, sizeof(dbg.stat));
	for (int r = 0; r < 100; r++)
		pcb_dbg_record(&dbg, 0, 31 + 2 * 64, 64);
	CHECK(pcb_stat_line(&dbg.stat[0], &slope, &a) == 0, "no line from one length");
	memset(dbg.stat, 0, sizeof(dbg.stat));
	pcb_dbg_record(&dbg, 0, 31 + 2 * 64, 64);
	CHECK(pcb_stat_line(&dbg.stat[0], &slope, &a) == 0, "no line from one region");
}

/* a long run's sums: 2^26 regions of 64 and 32 calls, 10^4 ticks each */
static void long_run(void)
{
	struct pcb_stat *s = &dbg.stat[0];
	uint64_t half = 1ull << 25;
	double slope, a;

	memset(dbg.stat, 0, sizeof(dbg.stat));
	dbg.limit = PCB_NO_LIMIT;
	s->samples = 2 * half;
	s->calls = half * 96;
	s->calls_sq = half * (64 * 64 + 32 * 32);
	s->sum_raw = half * (10031 + 10031 + 3 * 96);
	s->calls_raw = half * (64 * (10031 + 3 * 64) + 32 * (10031 + 3 * 32));
	CHECK(pcb_stat_line(s, &slope, &a) == 1, "a line");
	CHECK_NEAR(slope, 3.0, 1e-6);
	CHECK_NEAR(a, 10031.0, 1e-3);
}

/* the TSC's step: a host's 21-tick counter with rare 1-tick catch-ups, and a 1-tick one */
static void tsc_step(void)
{
	static uint32_t seen[4097];

	memset(seen, 0, sizeof(seen));
	seen[21] = 150000;
	seen[42] = 49967;
	seen[1] = 33;
	CHECK(pcb_tsc_step_of(seen, 4096, 200000) == 21, "rare catch-ups: %lu",
	      (unsigned long)pcb_tsc_step_of(seen, 4096, 200000));
	seen[1] = 400;
	CHECK(pcb_tsc_step_of(seen, 4096, 200367) == 1, "a common 1-tick increment");
	memset(seen, 0, sizeof(seen));
	for (int d = 38; d < 70; d++)
		seen[d] = 6250;
	CHECK(pcb_tsc_step_of(seen, 4096, 200000) == 1, "every phase: step 1");
	memset(seen, 0, sizeof(seen));
	CHECK(pcb_tsc_step_of(seen, 4096, 0) == 1, "no reads: step 1");
}

int main(void)
{
	memset(&dbg, 0, sizeof(dbg));
	dbg.limit = PCB_NO_LIMIT;
	dbg.overhead = 40;	/* the empty region: more than the region's fixed cost */
	batch_lengths();
	fixed_and_per_call();
	jitter_alike();
	uneven_lengths();
	merged_workers();
	interrupted();
	one_length();
	long_run();
	tsc_step();
	return check_summary();
}
