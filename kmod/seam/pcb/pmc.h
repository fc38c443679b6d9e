/* SPDX-License-Identifier: MIT */
/*
 * Per-call counter reads, kernel side (harness/seam/pcb/pmc.h is the
 * userspace one): none. The harness refuses counters.per_call for the
 * kernel backend, whose workers leave struct pcb_dbg's pmc NULL; the
 * reads compile to nothing.
 */
#ifndef PCB_SEAM_PMC_H
#define PCB_SEAM_PMC_H

#include "pcb/base.h"

/* perf events read around a timed call: the size of struct pcb_dbg's sums */
#define PCB_MAX_EVENTS		8

struct pcb_counters;

static __always_inline void pcb_pmc_begin(const struct pcb_counters *pmc, uint64_t *c0)
{
	(void)pmc;
	(void)c0;
}

static __always_inline void pcb_pmc_end(const struct pcb_counters *pmc, int n, uint64_t *sum,
					const uint64_t *c0)
{
	(void)pmc;
	(void)n;
	(void)sum;
	(void)c0;
}

#endif
