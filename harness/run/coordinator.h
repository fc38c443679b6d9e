/* SPDX-License-Identifier: MIT */
/*
 * The coordinator: a thread on a housekeeping CPU that calls the model's
 * drain (drain_all_stock(), drain_all_pages()) at a rate (periodic or Poisson arrivals, in bursts) or
 * a fixed number of times, timing each call and, for work-based designs,
 * the completion: until every CPU it queued work on has drained.
 *
 * A drain walks more CPUs than there are workers (seed 000's machine):
 * idle virtual CPUs placed on nodes as real CPUs' would be, some holding
 * charges, some isolated. Helper threads on other cores stand in for them:
 * each refills its share of their caches before each drain and runs the
 * work queued to them, which wakes them by a store: after the timed call,
 * or within it, the helpers in parallel while the drainer waits, where the
 * drain flushes its work. Helpers that could only share a worker's CPU
 * refill, and never run inside a timed drain: a flushing drain runs the
 * idle CPUs' work itself, one after another.
 */
#ifndef PCB_COORDINATOR_H
#define PCB_COORDINATOR_H

#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>

#include "../machine/topo.h"
#include "../measure/stats.h"
#include "pcb/model.h"
#include "cpu_area.h"
#include "work.h"

/* how long a drain's queued work may take to run before it counts as incomplete */
#define PCB_DRAIN_COMPLETION_TIMEOUT_S	1.5

struct pcb_coord;

/* a thread on another core standing in for virtual CPUs index, index + nr_helpers, ... */
struct pcb_helper {
	pthread_t tid;
	struct pcb_coord *c;
	int index, cpu;			/* its share, and the machine's CPU it is pinned to */
	int started;
};

struct pcb_coord {
	const struct pcb_model *model;
	struct pcb_model_ops ops;	/* the model's, each default filled in */
	const struct pcb_design *d;
	const struct pcb_variant *v;
	void *shared;			/* the model's state of this design's runs */
	double tsc_hz;
	uint64_t deadline;		/* the run's end: no drain waits past it */
	struct pcb_cpu *self;		/* the coordinator's own CPU area */
	struct pcb_stock_place place;	/* where each CPU's stock sits */
	size_t area_size;
	struct pcb_cpu **cpus;		/* the other online CPUs: the workers', then virtual ones */
	int nr_cpus, nr_workers;
	/* what a drain walks: cpus[] and self, in for_each_online_cpu() order (pcb_drain_walk()) */
	struct pcb_cpu **walk;
	int nr_online;
	bool self_charged;		/* self refilled before each drain, as the charged ones */
	void *target;			/* what the model's drain is asked to drain */
	/* virtual CPUs: nr_virtual walked, the first nr_charged refilled before each drain */
	int nr_virtual, nr_charged;
	/* the threads on other cores that stand in for them; none: the coordinator does */
	const struct pcb_topo *topo;
	struct pcb_helper *helper;	/* [nr_helpers], started */
	int nr_helpers;
	int helpers_share;		/* on workers' CPUs: refills only, never in a timed drain */
	int helpers_serve;		/* a flushing drain's idle work runs on them, in parallel */
	int ipi_home[PCB_MAX_HELPERS];	/* where IPIs to their virtual CPUs land, -1: the drainer's */
	pthread_mutex_t dirt_lock;
	pthread_cond_t dirt_cond;
	unsigned int dirt_gen;		/* bumped by each request */
	int dirt_request, dirt_done, dirt_stop;
	atomic_int serving;		/* the helpers are to watch their CPUs' wake words */
	atomic_int watching;		/* helpers watching them now */
	atomic_ulong helper_ran;	/* idle CPUs' work they ran inside timed drains */
	atomic_ulong ran_after;		/* ... and after them (the rest: the drainer's) */
	/* figures, reset per run */
	struct pcb_stat drain;		/* ticks inside the model's drain */
	uint64_t walk_sum, wake_sum;	/* ticks: walking empty caches, waking real workers */
	uint64_t nr_drains, wake_n;	/* drains, and those whose wakes were timed */
	struct pcb_hist completion;	/* ticks until all queued work ran */
	uint64_t completed, incomplete;
	uint64_t stranded_sum, stranded_max, stranded_n;	/* pages left on isolated CPUs */
	/* drains whose contended waits passed preempt_ticks: the holder was off its CPU */
	uint64_t waited_preempted, preempt_ticks;
	double overhead;
};

struct pcb_coord_plan {
	double rate_hz;			/* arrivals per second; 0 with count */
	int poisson;
	int burst;			/* drains per arrival */
	long count;			/* > 0: exactly this many per run, evenly spread */
};

/* the shape of the machine a drain walks (seed 000, 2.2: charges on some of 128 online CPUs) */
struct pcb_coord_shape {
	int stocks;			/* caches holding charges, workers' included (0: workers') */
	int online;			/* caches walked, the drainer's own included (0: as stocks) */
	int isolated_pct;		/* percent of the virtual CPUs that are isolated */
	/* the machine's CPUs of the helpers (none: the coordinator does their part) */
	int helper_cpu[PCB_MAX_HELPERS];
	int nr_helpers;
	int helpers_share;		/* they are workers' CPUs */
};

/*
 * The caches a drain walks, the drainer's own among them as curcpu is
 * among drain_all_stock()'s online CPUs: shape's online, at least its
 * stocks, at least the workers' and the drainer's
 */
static inline int pcb_coord_online(int stocks, int online, int nr_workers)
{
	int least = stocks > nr_workers ? stocks : nr_workers + 1;

	return online > least ? online : least;
}

/*
 * Of them, the idle virtual CPUs': all but the workers' and the
 * drainer's; the first *charged of them hold charges, and the drainer's
 * too where stocks asks for every cache walked (*self_charged)
 */
static inline int pcb_coord_idle(int stocks, int online, int nr_workers, int *charged,
				 bool *self_charged)
{
	int idle = pcb_coord_online(stocks, online, nr_workers) - nr_workers - 1;
	int extra = stocks > nr_workers ? stocks - nr_workers : 0;

	*charged = extra < idle ? extra : idle;
	*self_charged = extra > idle;
	return idle;
}

/* what the coordinator drains, and the machine it walks */
struct pcb_coord_args {
	const struct pcb_model *model;
	const struct pcb_design *d;
	const struct pcb_variant *v;
	void *shared;			/* the model's setup() for this design's runs */
	const struct pcb_topo *topo;
	double tsc_hz;
	struct pcb_cpu *const *workers;	/* the workers' CPUs, set up */
	int nr_workers;
	struct pcb_coord_shape shape;
	/* a contended wait in a drain longer than this (an interruption's threshold): a preempted holder */
	uint64_t preempt_ticks;
};

/*
 * Set up the coordinator's CPU and the virtual CPUs beyond the workers'.
 * Called on the coordinator's thread, pinned. 0 or -1 with err.
 */
int pcb_coord_setup(struct pcb_coord *c, const struct pcb_coord_args *a, char *err,
		    size_t errlen);
void pcb_coord_teardown(struct pcb_coord *c);
void pcb_coord_reset(struct pcb_coord *c);
/* one drain, timed, with its completion and stranded pages */
void pcb_coord_drain_once(struct pcb_coord *c);
/*
 * drains by plan until the TSC deadline (or count), Poisson arrivals drawn
 * from rng (nonzero: pcb_seq_drain_rng()); returns drains fired
 */
uint64_t pcb_coord_run(struct pcb_coord *c, const struct pcb_coord_plan *p,
		       uint64_t start, uint64_t deadline, uint64_t rng);

#endif
