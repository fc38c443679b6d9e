/* SPDX-License-Identifier: MIT */
/*
 * Interruptions, as rt-tests' oslat sees them: the gap watch each worker
 * keeps (struct pcb_gaps, pcb_gap_watch(): the model interface's
 * pcb/gaps.h), its threshold's default, and its figures summed over runs.
 */
#ifndef PCB_INTERRUPTS_H
#define PCB_INTERRUPTS_H

#include "pcb/gaps.h"
#include "stats.h"

/* the default threshold: this long, or this many operations' usual span, whichever is longer */
#define PCB_GAP_FLOOR_NS	2000
#define PCB_GAP_PERIODS		20

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
