/* SPDX-License-Identifier: MIT */
/*
 * The clock's harness side: the timer its sites are rewritten for, and
 * its own calibration. The reads themselves, as the kernel's
 * rdtsc_ordered() does them, are the model interface's (pcb/clock.h).
 */
#ifndef PCB_TSC_H
#define PCB_TSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pcb/clock.h"
#include "pcb/text.h"

/*
 * The timer (run.timer): which instructions the clock's sites
 * (pcb/clock.h) hold, rewritten by pcb_timer_set() between runs:
 *
 *  harness  lfence; rdtsc at the start, rdtscp; lfence at the end: no load
 *           or store of the region leaks out at either end (the padding
 *           nop comes before the start's read, outside the region)
 *  kernel   rdtsc_ordered() (arch/x86/include/asm/msr.h) at both ends, the
 *           alternative the kernel picks on this CPU: rdtscp where CPUID
 *           has RDTSCP, else lfence; rdtsc (X86_FEATURE_LFENCE_RDTSC),
 *           padded after with a nop as the alternative is. Seed 000's
 *           instrument; its figures are raw: the timer is in them.
 */
enum pcb_timer {
	PCB_TIMER_HARNESS,
	PCB_TIMER_KERNEL,
};

/*
 * rewrite every timer site for mode: 0, or -errno with why (the text
 * cannot be written), every site then left in the mode it had
 */
int pcb_timer_set(enum pcb_timer mode, char *why, size_t len);
enum pcb_timer pcb_timer_get(void);
const char *pcb_timer_name(enum pcb_timer mode);
/* the instructions of a mode's start and end reads on this CPU, for the tables */
const char *pcb_timer_insns(enum pcb_timer mode);

/* the figures pcpbench prints about its own clock */
struct pcb_clock {
	double tsc_hz;			/* calibrated against CLOCK_MONOTONIC_RAW */
	double kernel_tsc_hz;		/* the kernel's figure, 0 if unknown */
	const char *kernel_tsc_source;	/* where it was read */
	uint64_t step;			/* gcd of observed TSC increments */
	uint64_t read_min;		/* shortest back-to-back read, ticks */
	double overhead[2];		/* empty timed region, per enum pcb_timing */
	double residual[2];		/* a second empty region, overhead subtracted */
	double residual_stddev[2];	/* its standard error */
};

/*
 * The cost of an empty timed region: the mean of the regions no longer than
 * twice the median. One VM exit or preemption among the samples moves a
 * plain mean by hundreds of ticks; the median resists it but, on a TSC that
 * advances in steps of many ticks, is off by up to a step, since a region
 * reads as one step or the next by its phase.
 */
#define PCB_OVERHEAD_MAX_TICKS	4096	/* counted exactly below this */
#define PCB_OVERHEAD_SAMPLES	50000	/* a worker's burst before and after each run */

struct pcb_overhead {
	double trimmed;			/* what is subtracted: the mean without interrupted regions */
	uint64_t set_aside;		/* regions longer than twice the median */
	double median;
	double lo, hi;			/* 5th and 95th percentiles: the spread */
	uint64_t samples, outliers;	/* outliers: regions past the counted range */
};

void pcb_overhead_measure(struct pcb_overhead *o, int samples);
/* the same from counts[max] of samples regions, outliers past the range */
void pcb_overhead_from_counts(struct pcb_overhead *o, const uint32_t *counts, uint64_t max,
			      uint64_t samples, uint64_t outliers);

/*
 * The step of a counter whose increments between reads were seen[d] times
 * d ticks (d in 1..max, n in all): the gcd of those seen in at least one
 * read in a thousand, 1 where none is
 */
uint64_t pcb_tsc_step_of(const uint32_t *seen, uint64_t max, uint64_t n);

/* calibrate: ms of calibration against CLOCK_MONOTONIC_RAW */
void pcb_clock_calibrate(struct pcb_clock *clk, int ms);
/* the empty region's median, measured on the calling CPU */
double pcb_clock_overhead(enum pcb_timing mode);
double pcb_clock_ns(const struct pcb_clock *clk, double ticks);
const char *pcb_timing_name(enum pcb_timing mode);

#endif
