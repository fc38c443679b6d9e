/* SPDX-License-Identifier: MIT */
/*
 * A worker and its loop (the model interface, base.h): the generic part of
 * a worker, which a model's own worker embeds first, and what a worker
 * loop needs around its operations: the sequence it draws them from and
 * when to stop. With it come the hot path's other headers: the modeled
 * CPU, its preempt count, the clock, timed calls and the gap watch.
 */
#ifndef PCB_SEAM_WORKER_H
#define PCB_SEAM_WORKER_H

#include "pcb/base.h"
#include "pcb/clock.h"
#include "pcb/cpu.h"
#include "pcb/gaps.h"
#include "pcb/preempt.h"
#include "pcb/timed.h"

/* operations between two looks at the clock */
#define PCB_CHUNK		256

/*
 * A worker: one thread pinned to one CPU running one design's loop. A
 * model's worker embeds this first; everything it writes while measuring is
 * its own, allocated on its node.
 */
struct pcb_worker {
	/* set up by the harness */
	struct pcb_cpu *cpu;
	enum pcb_timing timing;
	uint64_t ops_limit;		/* 0: run until the deadline */
	uint64_t deadline;		/* TSC value to stop at */
	uint64_t rng;			/* the worker's sequence, carried between runs */
	uint64_t tsc_khz;		/* to turn a model's ns into ticks (pcb_ns_ticks()) */

	/* one run's figures */
	uint64_t failed;		/* operations that found no room */
	uint64_t misses;		/* batch mode: hits that missed (the cache was drained) */
	uint64_t ops;			/* workload operations */
	uint64_t tsc_start, tsc_end;
	struct pcb_gaps gaps;		/* interruptions of this run */
	struct pcb_dbg dbg;
} __attribute__((aligned(PCB_CACHE_LINE)));

static inline uint64_t pcb_rng_next(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/*
 * Set once by a first SIGINT or SIGTERM: the run in progress ends at the
 * next chunk (defined by the harness, run/runner.c)
 */
extern atomic_int pcb_stop_now;

/* ns of a worker's own time, in its clock's ticks */
static inline uint64_t pcb_ns_ticks(const struct pcb_worker *w, uint64_t ns)
{
	return ns * w->tsc_khz / 1000000;
}

/* between two chunks: stop, or go on; where the worker may yield its CPU */
static inline int pcb_loop_done(const struct pcb_worker *w)
{
	pcb_cond_resched();
	if (atomic_load_explicit(&pcb_stop_now, memory_order_relaxed))
		return 1;
	if (w->ops_limit)
		return w->ops >= w->ops_limit;
	return pcb_tsc_now() >= w->deadline;
}

#endif
