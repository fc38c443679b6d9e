/* SPDX-License-Identifier: MIT */
/*
 * Per-call counter reads (the model interface, base.h): the perf events
 * open on a worker's CPU, read around every timed call where
 * counters.per_call asks for it, their deltas summed per row (timed.h).
 *
 * The userspace definition: the harness's counters (measure/counters.c),
 * read by rdpmc where it can be. A kernel build has no per-call reads
 * (the harness refuses counters.per_call there) and its own pcb/pmc.h.
 */
#ifndef PCB_SEAM_PMC_H
#define PCB_SEAM_PMC_H

#include "pcb/base.h"

/* perf events read around a timed call */
#define PCB_MAX_EVENTS		8

struct pcb_counters;
/* the current counts, for per-call deltas (rdpmc or read()) */
void pcb_counters_snap(const struct pcb_counters *c, uint64_t *v);

static inline void pcb_pmc_begin(const struct pcb_counters *pmc, uint64_t *c0)
{
	if (__builtin_expect(pmc != NULL, 0))
		pcb_counters_snap(pmc, c0);
}

/* n events' deltas since c0 added to sum[] */
static inline void pcb_pmc_end(const struct pcb_counters *pmc, int n, uint64_t *sum,
			       const uint64_t *c0)
{
	uint64_t c1[PCB_MAX_EVENTS];

	if (__builtin_expect(pmc == NULL, 1))
		return;
	pcb_counters_snap(pmc, c1);
	for (int i = 0; i < n; i++)
		sum[i] += c1[i] - c0[i];
}

#endif
