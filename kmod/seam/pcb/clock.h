/* SPDX-License-Identifier: MIT */
/*
 * The clock a model times with, kernel side (harness/seam/pcb/clock.h is
 * the userspace one): the kernel's own rdtsc_ordered() at both ends of a
 * region (arch/x86/include/asm/msr.h: rdtscp, or lfence; rdtsc, as the
 * alternatives patched at boot chose for this CPU), as seed 000's
 * instrumentation read it, and rdtsc() for deadlines.
 */
#ifndef PCB_SEAM_CLOCK_H
#define PCB_SEAM_CLOCK_H

#include "pcb/base.h"

enum pcb_timing {
	PCB_TIMING_CALL,	/* every call timed by its own pair of reads */
	PCB_TIMING_BATCH,	/* N calls between two reads, divided by N */
};

/*
 * start of a timed region: rdtsc_ordered(), then barrier(), which emits
 * nothing: rdtsc_ordered() has no memory clobber, so without it the
 * compiler may hoist the region's loads and stores above the read (out of
 * a worker's loop, say) where the seed's instrument, at a function's entry,
 * had nothing to hoist them out of (tests/model_regions.py checks)
 */
static __always_inline uint64_t pcb_tsc_start(void)
{
	uint64_t t = rdtsc_ordered();

	barrier();
	return t;
}

/* end of a timed region: barrier(), then rdtsc_ordered() */
static __always_inline uint64_t pcb_tsc_end(void)
{
	barrier();
	return rdtsc_ordered();
}

/* an unordered read, for deadlines */
static __always_inline uint64_t pcb_tsc_now(void)
{
	return rdtsc();
}

#endif
