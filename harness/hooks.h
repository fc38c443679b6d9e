/* SPDX-License-Identifier: MIT */
/*
 * The harness as a model calls it while it measures: one of the four seam
 * headers (cpu.h, hooks.h, model.h, model_output.h), the only headers of
 * the harness a model's folder includes. It gives a model
 *
 *  - the clock and the statistics of a timed region (measure/),
 *  - the generic part of a worker (struct pcb_worker), which a model's own
 *    worker embeds first, and what a worker loop needs around it,
 *  - the modeled CPU (cpu.h), which it includes.
 *
 * Nothing here names a model's types.
 */
#ifndef PCB_HOOKS_H
#define PCB_HOOKS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"
#include "measure/counters.h"
#include "measure/interrupts.h"
#include "measure/stats.h"
#include "measure/tsc.h"

/* function rows a model can time */
#define PCB_MAX_FN		8

/* operations between two looks at the clock */
#define PCB_CHUNK		256

/* empty regions a worker times between two chunks of operations */
#define PCB_EMPTY_PER_CHUNK	8
/* their lengths are counted exactly below this many ticks */
#define PCB_EMPTY_MAX_TICKS	1024

/* per-CPU instrumentation, as the cover letter's percpu struct dbg */
struct pcb_dbg {
	uint64_t overhead;		/* empty-region ticks, rounded, for histograms */
	uint64_t limit;			/* a region longer than this was interrupted */
	/* empty regions timed during the run, in the loop's own conditions */
	uint32_t empty[PCB_EMPTY_MAX_TICKS];
	uint64_t empty_n, empty_over;
	const struct pcb_counters *pmc;	/* per-call counter reads, NULL when off */
	uint32_t half;			/* per row: the next batch region is the short one */
	uint32_t differenced;		/* per row: its batch regions alternate in length */
	struct pcb_stat stat[PCB_MAX_FN];
	uint64_t ctr[PCB_MAX_FN][PCB_MAX_EVENTS];	/* per-call counter sums */
};

/* a timed region of `calls` calls of row fn; regions of a burst pass PCB_NO_LIMIT */
static inline void pcb_dbg_record(struct pcb_dbg *d, int fn, uint64_t raw, uint64_t calls)
{
	pcb_stat_record(&d->stat[fn], raw, d->overhead, calls, d->limit);
}

/* row fn's batch regions vary in length with another row's: difference it too */
static inline void pcb_batch_differenced(struct pcb_dbg *d, int fn)
{
	d->differenced |= 1u << fn;
}

/*
 * The calls row fn's next batch region holds: n and n/2 in turn, so that
 * the row's cost per call is the difference of the two (pcb_stat_line()),
 * with the timer's fixed cost and the calls' overlap with it both gone. A
 * model's loop asks this for every region of a row it wants differenced
 * and makes up the calls a short region leaves out, untimed. n below 2
 * cannot be halved: such a row keeps the empty region subtracted.
 */
static inline unsigned int pcb_batch_calls(struct pcb_dbg *d, int fn, unsigned int n)
{
	if (n < 2)
		return n;
	pcb_batch_differenced(d, fn);
	d->half ^= 1u << fn;
	return d->half & 1u << fn ? n / 2 : n;
}

/*
 * Between two chunks of operations: a few empty timed regions, so that the
 * region subtracted is measured in the run, under the loop's own cache,
 * frequency and TSC phase, not only before it.
 */
static inline void pcb_dbg_time_empty(struct pcb_dbg *d)
{
	for (int i = 0; i < PCB_EMPTY_PER_CHUNK; i++) {
		uint64_t t0 = pcb_tsc_start();
		uint64_t t1 = pcb_tsc_end();
		uint64_t e = t1 - t0;

		if (e < PCB_EMPTY_MAX_TICKS)
			d->empty[e]++;
		else
			d->empty_over++;
	}
	d->empty_n += PCB_EMPTY_PER_CHUNK;
}

/* around a timed call, outside its TSC reads */
static inline void pcb_dbg_pmc_begin(const struct pcb_dbg *d, uint64_t *c0)
{
	if (__builtin_expect(d->pmc != NULL, 0))
		pcb_counters_snap(d->pmc, c0);
}

static inline void pcb_dbg_pmc_end(struct pcb_dbg *d, int fn, const uint64_t *c0)
{
	uint64_t c1[PCB_MAX_EVENTS];

	if (__builtin_expect(d->pmc == NULL, 1))
		return;
	pcb_counters_snap(d->pmc, c1);
	for (int i = 0; i < d->pmc->n; i++)
		d->ctr[fn][i] += c1[i] - c0[i];
}

/*
 * PCB_TIMED(dbg, fn, expr) / PCB_TIMED_VOID(dbg, fn, stmt): one call between
 * its own pair of TSC reads, summed under row fn, as the cover letter's
 * instrumentation did.
 */
#define PCB_TIMED(dbg, fn, expr) ({					\
	uint64_t c0_[PCB_MAX_EVENTS];					\
	pcb_dbg_pmc_begin((dbg), c0_);					\
	uint64_t t0_ = pcb_tsc_start();					\
	__typeof__(expr) r_ = (expr);					\
	uint64_t t1_ = pcb_tsc_end();					\
	pcb_dbg_record((dbg), (fn), t1_ - t0_, 1);			\
	pcb_dbg_pmc_end((dbg), (fn), c0_);				\
	r_; })

#define PCB_TIMED_VOID(dbg, fn, stmt) do {				\
	uint64_t c0_[PCB_MAX_EVENTS];					\
	pcb_dbg_pmc_begin((dbg), c0_);					\
	uint64_t t0_ = pcb_tsc_start();					\
	stmt;								\
	uint64_t t1_ = pcb_tsc_end();					\
	pcb_dbg_record((dbg), (fn), t1_ - t0_, 1);			\
	pcb_dbg_pmc_end((dbg), (fn), c0_);				\
} while (0)

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
	double tsc_hz;			/* to turn a model's ns into ticks */

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

/* set once by a first SIGINT or SIGTERM: the run in progress ends at the next chunk */
extern atomic_int pcb_stop_now;

static inline int pcb_loop_done(const struct pcb_worker *w)
{
	if (atomic_load_explicit(&pcb_stop_now, memory_order_relaxed))
		return 1;
	if (w->ops_limit)
		return w->ops >= w->ops_limit;
	return pcb_tsc_now() >= w->deadline;
}

#endif
