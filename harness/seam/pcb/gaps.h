/* SPDX-License-Identifier: MIT */
/*
 * The gap watch (the model interface, base.h): interruptions, as rt-tests'
 * oslat sees them. Each worker looks at the TSC after every operation (or
 * batch); a gap above the threshold is an interruption, attributed to a
 * drain when a drain's window on that CPU (cpu->h.drain_seq odd, or
 * changed) overlaps it. The rest is the machine's own noise, and stays
 * visible as such. The harness sets the threshold and reads the figures
 * (measure/interrupts.h).
 */
#ifndef PCB_SEAM_GAPS_H
#define PCB_SEAM_GAPS_H

#include "pcb/base.h"
#include "pcb/stat.h"

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

#endif
