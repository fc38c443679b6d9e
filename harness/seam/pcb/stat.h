/* SPDX-License-Identifier: MIT */
/*
 * What a timed region records (the model interface, base.h): per-function
 * statistics, kept by each worker for itself (no sharing): raw tick sums,
 * call and sample counts, and a log-linear histogram. The harness merges
 * and reads them (measure/stats.h).
 *
 * Histogram: values below 2^(PCB_HIST_SUB_BITS+1) have a bucket each; above,
 * every power of two is split into 2^PCB_HIST_SUB_BITS buckets, so a bucket
 * is at most 1/16 of its value wide. A value is reported as its bucket's
 * lower bound.
 */
#ifndef PCB_SEAM_STAT_H
#define PCB_SEAM_STAT_H

#include "pcb/base.h"

#define PCB_HIST_SUB_BITS	4
#define PCB_HIST_SUB		(1u << PCB_HIST_SUB_BITS)
#define PCB_HIST_MAX_BITS	44	/* values up to 2^44 ticks (~2 h at 2.6 GHz) */
#define PCB_HIST_BUCKETS	((PCB_HIST_MAX_BITS - PCB_HIST_SUB_BITS) * PCB_HIST_SUB + 2 * PCB_HIST_SUB)

struct pcb_hist {
	uint64_t count[PCB_HIST_BUCKETS];
};

struct pcb_stat {
	uint64_t sum_raw;	/* ticks as read, overhead included */
	uint64_t samples;	/* timed regions (calls in call mode, batches in batch mode) */
	uint64_t calls;		/* function calls covered by those regions */
	uint64_t calls_sq;	/* the sum of each region's calls squared */
	uint64_t calls_raw;	/* the sum of each region's calls times its ticks */
	uint64_t max;		/* largest per-call value, overhead subtracted */
	uint64_t min_raw;	/* shortest region as read, 0 if none */
	uint64_t interrupted;	/* regions longer than the limit: set aside, counted here */
	uint64_t interrupted_calls;	/* the calls they covered */
	struct pcb_hist hist;	/* per-call values, overhead subtracted */
};

static inline unsigned int pcb_hist_index(uint64_t v)
{
	unsigned int e;

	if (v < 2 * PCB_HIST_SUB)
		return (unsigned int)v;
	e = 63u - (unsigned int)__builtin_clzll(v);
	if (e >= PCB_HIST_MAX_BITS)
		return PCB_HIST_BUCKETS - 1;
	return (e - PCB_HIST_SUB_BITS) * PCB_HIST_SUB + (unsigned int)(v >> (e - PCB_HIST_SUB_BITS));
}

/* no region is too long: bursts and drains, whose length is the figure */
#define PCB_NO_LIMIT UINT64_MAX

/*
 * One timed region of `calls` calls that read `raw` ticks. A region longer
 * than limit straddled an interruption (the same threshold the
 * interruptions table uses): it is counted as interrupted and kept out of
 * the sums, the mean and the histogram, where one preemption would
 * otherwise outweigh millions of calls.
 */
static inline void pcb_stat_record(struct pcb_stat *s, uint64_t raw, uint64_t overhead,
				   uint64_t calls, uint64_t limit)
{
	uint64_t per_call = raw > overhead ? (raw - overhead) / calls : 0;

	if (__builtin_expect(raw > limit, 0)) {
		s->interrupted++;
		s->interrupted_calls += calls;
		return;
	}

	s->sum_raw += raw;
	if (!s->samples || raw < s->min_raw)
		s->min_raw = raw;
	s->samples++;
	s->calls += calls;
	s->calls_sq += calls * calls;
	s->calls_raw += calls * raw;
	if (per_call > s->max)
		s->max = per_call;
	s->hist.count[pcb_hist_index(per_call)]++;
}

#endif
