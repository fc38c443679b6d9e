/* SPDX-License-Identifier: MIT */
/*
 * A worker: one thread pinned to one CPU, running one design's loop.
 * Everything it writes while measuring is its own, allocated on its node.
 */
#ifndef PCB_WORKER_H
#define PCB_WORKER_H

#include <stdint.h>

#include "counters.h"
#include "design.h"
#include "interrupts.h"
#include "stats.h"
#include "tsc.h"

struct pcb_cpu;
struct mem_cgroup;

/* per-CPU instrumentation, as the cover letter's percpu struct dbg */
struct pcb_dbg {
	uint64_t overhead;		/* empty-region ticks, rounded, for histograms */
	const struct pcb_counters *pmc;	/* per-call counter reads, NULL when off */
	struct pcb_stat stat[PCB_FN_NR];
	uint64_t ctr[PCB_FN_NR][PCB_MAX_EVENTS];	/* per-call counter sums */
};

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

/* memcgs a worker can charge (multi_memcg), indexed by css id */
#define PCB_WORKER_MEMCGS 64

struct pcb_worker {
	/* set up by the runner */
	struct pcb_cpu *cpu;
	struct mem_cgroup *memcg[PCB_WORKER_MEMCGS];	/* the memcgs it charges, in turn */
	int nr_memcgs;
	struct pglist_data *pgdat;	/* its node */
	enum pcb_timing timing;
	enum pcb_workload workload;
	unsigned int nr_pages;
	long hold;			/* most pages (or objects) held per memcg */
	int uncharge_refill;		/* percent of page uncharges through the stock */
	int obj_share;			/* mixed: percent of operations on objects */
	unsigned int obj_size;		/* obj_full_size(): object + its objcg pointer */
	uint64_t burst;			/* batch kmalloc: allocations a burst */
	int accounting;			/* enum pcb_accounting */
	int key_patched;		/* the jump label can be rewritten here */
	uint64_t ops_limit;		/* 0: run until the deadline */
	uint64_t deadline;		/* TSC value to stop at */

	/* state carried between runs, per css id */
	int next;			/* the memcg charged next */
	uint64_t rng;
	long held[PCB_WORKER_MEMCGS];		/* pages charged, not yet uncharged */
	long css_held[PCB_WORKER_MEMCGS];	/* css references those charges hold */
	long objs[PCB_WORKER_MEMCGS];		/* objects allocated, not yet freed */

	/* one run's figures */
	uint64_t charged, uncharged;	/* pages, over the run */
	uint64_t failed;		/* charges that found no room */
	uint64_t misses;		/* batch mode: consume_stock() that missed */
	uint64_t ops;			/* workload operations */
	uint64_t tsc_start, tsc_end;
	struct pcb_gaps gaps;		/* interruptions of this run */
	struct pcb_dbg dbg;
} __attribute__((aligned(64)));

/* a worker's statistics stay small enough to live in its L2 */
_Static_assert(sizeof(struct pcb_worker) <= 65536, "worker statistics within 64 KiB");

#endif
