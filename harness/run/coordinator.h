/* SPDX-License-Identifier: MIT */
/*
 * The coordinator: a thread on a housekeeping CPU that calls the model's
 * drain (drain_all_stock(), drain_all_pages()) at a rate (periodic or Poisson arrivals, in bursts) or
 * a fixed number of times, timing each call and, for work-based designs,
 * the completion: until every CPU it queued work on has drained.
 *
 * A drain walks more CPUs than there are workers (seed 000's machine):
 * idle virtual CPUs placed on nodes as real CPUs' would be, some holding
 * charges refilled on another core before each drain, some isolated. Work
 * queued to them wakes them by a store and runs on that other core after
 * the timed call (within it where the drain flushes its work).
 */
#ifndef PCB_COORDINATOR_H
#define PCB_COORDINATOR_H

#include <pthread.h>
#include <stdint.h>

#include "../machine/topo.h"
#include "../measure/stats.h"
#include "../model.h"
#include "work.h"

/* how long a drain's queued work may take to run before it counts as incomplete */
#define PCB_DRAIN_COMPLETION_TIMEOUT_S	1.5

struct pcb_coord {
	const struct pcb_model *model;
	const struct pcb_design *d;
	const struct pcb_variant *v;
	void *shared;			/* the model's state of this design's runs */
	double tsc_hz;
	uint64_t deadline;		/* the run's end: no drain waits past it */
	struct pcb_cpu *self;		/* the coordinator's own CPU area */
	size_t area_size;
	struct pcb_cpu **cpus;		/* online CPUs: the workers', then virtual ones */
	int nr_cpus, nr_workers;
	void *target;			/* what the model's drain is asked to drain */
	/* virtual CPUs: nr_virtual walked, the first nr_charged refilled before each drain */
	int nr_virtual, nr_charged;
	/* the thread on another core that refills the virtual CPUs' caches */
	const struct pcb_topo *topo;
	pthread_t dirtier;
	int dirtier_cpu;		/* -1: none, the coordinator refills them */
	int ipi_home;			/* where IPIs to virtual CPUs land, -1: the drainer's CPU */
	int dirtier_started;
	pthread_mutex_t dirt_lock;
	pthread_cond_t dirt_cond;
	int dirt_request, dirt_done, dirt_stop;
	/* figures, reset per run */
	struct pcb_stat drain;		/* ticks inside the model's drain */
	uint64_t walk_sum, wake_sum;	/* ticks: walking empty caches, waking real workers */
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
	int online;			/* caches walked, as for_each_online_cpu() (0: as stocks) */
	int isolated_pct;		/* percent of the virtual CPUs that are isolated */
	int dirtier_cpu;		/* where the virtual caches are refilled, -1: here */
};

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
/* drains by plan until the TSC deadline (or count); returns drains fired */
uint64_t pcb_coord_run(struct pcb_coord *c, const struct pcb_coord_plan *p,
		       uint64_t start, uint64_t deadline, uint64_t seed);

#endif
