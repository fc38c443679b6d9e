/* SPDX-License-Identifier: MIT */
/*
 * Timed calls (the model interface, base.h): the per-CPU instrumentation a
 * model's loop records into, as the cover letter's percpu struct dbg, and
 * PCB_TIMED(), one call between its own pair of clock reads. The harness
 * sets each CPU's up and reads it after a run (run/).
 */
#ifndef PCB_SEAM_TIMED_H
#define PCB_SEAM_TIMED_H

#include "pcb/base.h"
#include "pcb/clock.h"
#include "pcb/pmc.h"
#include "pcb/stat.h"

/* function rows a model can time */
#define PCB_MAX_FN		9

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
	int pmc_n;			/* pmc's events */
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

/*
 * around a timed call, outside its TSC reads: the counters, where per-call
 * reads are on. The pointer is read anew before each region (READ_ONCE()),
 * not kept from the last region's end in a register a call of the model
 * clobbers and then reloaded on that path, a reload the compiler charges to
 * the model's line (tests/model_regions.py would see a load of the model
 * outside its region).
 */
static inline void pcb_dbg_pmc_begin(const struct pcb_dbg *d, uint64_t *c0)
{
	pcb_pmc_begin(__atomic_load_n(&d->pmc, __ATOMIC_RELAXED), c0);
}

static inline void pcb_dbg_pmc_end(struct pcb_dbg *d, int fn, const uint64_t *c0)
{
	pcb_pmc_end(d->pmc, d->pmc_n, d->ctr[fn], c0);
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

#endif
