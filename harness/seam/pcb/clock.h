/* SPDX-License-Identifier: MIT */
/*
 * The clock a model times with (the model interface, base.h): reads of the
 * time-stamp counter as the kernel's rdtsc_ordered() does them
 * (arch/x86/include/asm/msr.h), and the two timing modes.
 *
 * The userspace definition: every ordered read is a 6-byte site listed in
 * the pcb_tsc_sites section, which the harness rewrites between runs for
 * run.timer (measure/tsc.c), as the kernel's alternatives rewrite
 * rdtsc_ordered() at boot. A kernel build reads with rdtsc_ordered() itself.
 */
#ifndef PCB_SEAM_CLOCK_H
#define PCB_SEAM_CLOCK_H

#include "pcb/base.h"

enum pcb_timing {
	PCB_TIMING_CALL,	/* every call timed by its own pair of reads */
	PCB_TIMING_BATCH,	/* N calls between two reads, divided by N */
};

#define PCB_TSC_SITE_BYTES	6
#define PCB_TSC_SITE_START	0
#define PCB_TSC_SITE_END	1

/* an entry of the pcb_tsc_sites section */
struct pcb_tsc_site {
	unsigned long code;		/* the 6-byte site */
	unsigned long kind;		/* PCB_TSC_SITE_START or _END */
};

#define PCB_TSC_SITE(kind, insns)					\
	"1:\n\t" insns "\n\t"						\
	".pushsection pcb_tsc_sites, \"aw\"\n\t"				\
	".balign 8\n\t"							\
	".quad 1b, " #kind "\n\t"						\
	".popsection"

/*
 * start of a timed region: the read's constraints are the kernel's
 * rdtsc_ordered()'s (the counter in %eax:%edx, %ecx clobbered, no memory
 * clobber), then a compiler barrier, which emits nothing: no load or store
 * of the region is moved above the read, as the kernel build's is not
 * (kmod/seam/pcb/clock.h; tests/model_regions.py checks both)
 */
static inline uint64_t pcb_tsc_start(void)
{
	uint32_t lo, hi;

	/* nop; lfence; rdtsc */
	__asm__ __volatile__(PCB_TSC_SITE(0, ".byte 0x90, 0x0f, 0xae, 0xe8, 0x0f, 0x31")
			     : "=a"(lo), "=d"(hi) :: "ecx");
	__asm__ __volatile__("" ::: "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* end of a timed region: a compiler barrier, then the read */
static inline uint64_t pcb_tsc_end(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("" ::: "memory");
	/* rdtscp; lfence */
	__asm__ __volatile__(PCB_TSC_SITE(1, ".byte 0x0f, 0x01, 0xf9, 0x0f, 0xae, 0xe8")
			     : "=a"(lo), "=d"(hi) :: "ecx");
	return ((uint64_t)hi << 32) | lo;
}

/* an unordered read, for deadlines */
static inline uint64_t pcb_tsc_now(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

#endif
