/* SPDX-License-Identifier: MIT */
/*
 * Time-stamp counter reads as the kernel's rdtsc_ordered() does them
 * (arch/x86/include/asm/msr.h), and the clock's own calibration.
 */
#ifndef PCB_TSC_H
#define PCB_TSC_H

#include <stdint.h>

/* start of a timed region: lfence; rdtsc (rdtsc_ordered()) */
static inline uint64_t pcb_tsc_start(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* end of a timed region: rdtscp; lfence */
static inline uint64_t pcb_tsc_end(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* an unordered read, for deadlines */
static inline uint64_t pcb_tsc_now(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

enum pcb_timing {
	PCB_TIMING_CALL,	/* every call timed by its own pair of reads */
	PCB_TIMING_BATCH,	/* N calls between two reads, divided by N */
};

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

/* calibrate: ms of calibration against CLOCK_MONOTONIC_RAW */
void pcb_clock_calibrate(struct pcb_clock *clk, int ms);
/* the empty region's median, measured on the calling CPU */
double pcb_clock_overhead(enum pcb_timing mode);
double pcb_clock_ns(const struct pcb_clock *clk, double ticks);
const char *pcb_timing_name(enum pcb_timing mode);

#endif
