/* SPDX-License-Identifier: MIT */
/*
 * The gap watch (the model interface, base.h): interruptions, as rt-tests'
 * oslat sees them. Each worker looks at the TSC after every operation (or
 * batch); a gap above the threshold is an interruption, attributed to a
 * drain when the last drain's window on that CPU (cpu->win, read only
 * then) overlaps it. The rest is the machine's own noise, and stays
 * visible as such. The harness sets the threshold and reads the figures
 * (measure/interrupts.h).
 */
#ifndef PCB_SEAM_GAPS_H
#define PCB_SEAM_GAPS_H

#include "pcb/base.h"
#include "pcb/cpu.h"
#include "pcb/stat.h"

struct pcb_gaps {
	uint64_t threshold;		/* ticks */
	uint64_t period;		/* an operation's usual span, ticks */
	uint64_t last;			/* TSC at the end of the last operation */
	uint64_t checks;		/* operations (or batches) watched */
	uint64_t count, attributed;
	uint64_t stolen;		/* ticks beyond the usual span */
	uint64_t max;
	struct pcb_hist hist;		/* gap lengths, ticks */
};

/*
 * Did a drain's window [open, close] overlap the gap (from, to]? Only the
 * last window is kept: one still open when it is read (close below open)
 * overlaps if it began by the gap's end; a closed one if it ended after
 * the gap began. Pure, so a scripted timeline can test it.
 */
static inline bool pcb_gap_drained(uint64_t open, uint64_t close, uint64_t from, uint64_t to)
{
	return open <= to && (close < open || close > from);
}

/* one gap past the threshold */
static inline void pcb_gap_record(struct pcb_gaps *g, uint64_t gap, bool drained)
{
	g->count++;
	if (drained)
		g->attributed++;
	g->stolen += gap > g->period ? gap - g->period : 0;
	if (gap > g->max)
		g->max = gap;
	g->hist.count[pcb_hist_index(gap)]++;
}

/* a gap seen: the CPU's drain window read now, and only now */
static __attribute__((__noinline__, __cold__, unused)) void
pcb_gap_seen(struct pcb_gaps *g, const struct pcb_drain_window *win, uint64_t now)
{
	uint64_t close = atomic_load_explicit(&win->close, memory_order_acquire);
	uint64_t open = atomic_load_explicit(&win->open, memory_order_relaxed);

	pcb_gap_record(g, now - g->last, pcb_gap_drained(open, close, g->last, now));
}

/* after each operation: the worker's own TSC and nothing shared */
static inline void pcb_gap_watch(struct pcb_gaps *g, const struct pcb_drain_window *win, uint64_t now)
{
	g->checks++;
	if (__builtin_expect(now - g->last > g->threshold, 0) && g->last)
		pcb_gap_seen(g, win, now);
	g->last = now;
}

#endif
