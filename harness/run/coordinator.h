/* SPDX-License-Identifier: MIT */
/*
 * The coordinator: a thread on a housekeeping CPU that calls the model's
 * drain (drain_all_stock(), drain_all_pages()) at a rate (periodic or Poisson arrivals, in bursts) or
 * a fixed number of times, timing each call and, for work-based designs,
 * the completion: until every CPU it queued work on has drained.
 *
 * Stocks may exist for more CPUs than there are workers: virtual CPUs,
 * placed on nodes as real CPUs' would be, refilled before each drain and
 * otherwise idle, like isolated CPUs holding charges. Their drain work (for
 * work-based designs) runs on helper threads, and the results say so.
 */
#ifndef PCB_COORDINATOR_H
#define PCB_COORDINATOR_H

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
	void *self_area;
	size_t area_size;
	struct pcb_cpu **cpus;		/* online CPUs: the workers', then virtual ones */
	int nr_cpus, nr_workers;
	void *target;			/* what the model's drain is asked to drain */
	/* virtual CPUs */
	int nr_virtual;
	void **varea;
	struct pcb_workq *vwq;
	/* figures, reset per run */
	struct pcb_stat drain;		/* ticks inside drain_all_stock() */
	struct pcb_hist completion;	/* ticks until all queued work ran */
	uint64_t completed, incomplete;
	uint64_t stranded_sum, stranded_max, stranded_n;	/* pages left on isolated CPUs */
	double overhead;
};

struct pcb_coord_plan {
	double rate_hz;			/* arrivals per second; 0 with count */
	int poisson;
	int burst;			/* drains per arrival */
	long count;			/* > 0: exactly this many per run, evenly spread */
};

/*
 * Set up the coordinator's CPU and stocks beyond the workers' (stocks total,
 * 0 for none). Called on the coordinator's thread, pinned. 0 or -1 with err.
 */
int pcb_coord_setup(struct pcb_coord *c, const struct pcb_model *m, const struct pcb_design *d,
		    const struct pcb_variant *v, void *shared, const struct pcb_topo *topo,
		    double tsc_hz, struct pcb_cpu *const *workers, int nr_workers, int stocks,
		    char *err, size_t errlen);
void pcb_coord_teardown(struct pcb_coord *c);
void pcb_coord_reset(struct pcb_coord *c);
/* one drain, timed, with its completion and stranded pages */
void pcb_coord_drain_once(struct pcb_coord *c);
/* drains by plan until the TSC deadline (or count); returns drains fired */
uint64_t pcb_coord_run(struct pcb_coord *c, const struct pcb_coord_plan *p, double tsc_hz,
		       uint64_t start, uint64_t deadline, uint64_t seed);

#endif
