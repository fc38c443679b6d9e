/* SPDX-License-Identifier: MIT */
/*
 * Interruptions, as rt-tests' oslat sees them: each worker looks at the TSC
 * after every operation (or batch); a gap above the threshold is an
 * interruption, attributed to a drain when a drain's window on that CPU
 * (cpu->drain_seq odd, or changed) overlaps it. The rest is the machine's
 * own noise, and stays visible as such.
 */
#ifndef PCB_INTERRUPTS_H
#define PCB_INTERRUPTS_H

#include <stdatomic.h>
#include <stdint.h>

#include "stats.h"

/* the default threshold: this long, or this many operations' usual span, whichever is longer */
#define PCB_GAP_FLOOR_NS	2000
#define PCB_GAP_PERIODS		20

struct pcb_gaps {
	uint64_t threshold;		/* ticks */
	uint64_t period;		/* an operation's usual span, ticks */
	uint64_t last;			/* TSC at the end of the last operation */
	unsigned int seq;		/* the CPU's drain_seq then */
	uint64_t checks;		/* operations (or batches) watched */
	uint64_t count, attributed;
	uint64_t stolen;		/* ticks beyond the usual span */
	uint64_t max;
	struct pcb_hist hist;		/* gap lengths, ticks */
};

/* one gap past the threshold: pure, so a scripted timeline can test it */
static inline void pcb_gap_record(struct pcb_gaps *g, uint64_t gap, unsigned int seq_before,
				  unsigned int seq_after)
{
	g->count++;
	if (seq_before != seq_after || (seq_after & 1))
		g->attributed++;
	g->stolen += gap > g->period ? gap - g->period : 0;
	if (gap > g->max)
		g->max = gap;
	g->hist.count[pcb_hist_index(gap)]++;
}

/* after each operation */
static inline void pcb_gap_watch(struct pcb_gaps *g, const atomic_uint *drain_seq, uint64_t now)
{
	unsigned int seq = atomic_load_explicit(drain_seq, memory_order_relaxed);

	g->checks++;
	if (__builtin_expect(now - g->last > g->threshold, 0) && g->last)
		pcb_gap_record(g, now - g->last, g->seq, seq);
	g->last = now;
	g->seq = seq;
}

/* one run's gaps into a sum over runs */
static inline void pcb_gaps_merge(struct pcb_gaps *into, const struct pcb_gaps *from)
{
	into->threshold = from->threshold;
	into->period = from->period;
	into->checks += from->checks;
	into->count += from->count;
	into->attributed += from->attributed;
	into->stolen += from->stolen;
	if (from->max > into->max)
		into->max = from->max;
	pcb_hist_merge(&into->hist, &from->hist);
}

#endif
