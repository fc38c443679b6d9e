/* SPDX-License-Identifier: MIT */
/*
 * What the runner shares with its worker and coordinator threads while one
 * design runs (internal to run/).
 */
#ifndef PCB_RUN_THREADS_H
#define PCB_RUN_THREADS_H

#include <pthread.h>

#include "coordinator.h"
#include "pcb/sequence.h"
#include "runner.h"
#include "work.h"

struct run_shared {
	const struct pcb_scenario *sc;
	const struct pcb_model *model;
	struct pcb_model_ops ops;	/* the model's, each default filled in */
	const struct pcb_design *d;
	const struct pcb_variant *v;
	const struct pcb_topo *topo;
	void *model_shared;		/* the model's setup() */
	struct pcb_stock_place place;	/* where each CPU's stock sits */
	int run;			/* which run of the design this is */
	int delivery;			/* enum pcb_delivery in force; -1: no work delivered */
	struct pcb_seq seq;		/* the workers' sequence (pcb/sequence.h) */
	int stop;			/* set by the main thread before the last barrier */
	pthread_barrier_t bar;
	/* the coordinator */
	int coord_cpu;			/* -1: none */
	struct pcb_coord_shape shape;	/* its helpers' CPUs (the rest is the scenario's) */
	struct pcb_coord coord;
	struct pcb_cpu **cpus;		/* the workers' CPUs, filled after set up */
	int nr;
	uint64_t fired;			/* drains in the last run */
	struct pcb_counters coord_pmc;	/* the coordinator's perf events */
	struct pcb_counter_value coord_ctr[PCB_MAX_EVENTS];	/* its last run's counts */
	char coord_err[256];
	int coord_failed;
	double tsc_hz;
	/* the main thread's */
	const struct pcb_clock *clk;
	struct pcb_design_result *res;	/* where the figures land */
	struct thread_ctx *t;		/* [nr], one per worker */
	struct pcb_worker **ws;		/* [nr], the workers, filled after set up */
	pthread_t coord_tid;
};

struct thread_ctx {
	pthread_t tid;
	unsigned int cpu;
	int node;
	struct run_shared *shared;
	struct pcb_worker *w;		/* the model's worker, node-local, allocated by the thread */
	size_t w_size;
	void *area;			/* the CPU's area, node-local */
	size_t area_size;
	double overhead;		/* this run's empty region, ticks: what is subtracted */
	struct pcb_overhead ovh_start, ovh_end;	/* measured before and after the run */
	int error;			/* -errno of pinning or allocation */
	char errmsg[256];
	struct pcb_counters pmc;	/* this thread's perf events */
	struct pcb_workq *wq;		/* schedule_work_on() to this CPU, node-local; NULL without */
	struct pcb_counter_value ctr[PCB_MAX_EVENTS];	/* this run's counts */
};

/* the coordinator's CPU: a housekeeping one without a worker, if any (coordinator.c) */
int pcb_pick_coord_cpu(const struct pcb_topo *topo, const struct pcb_scenario *sc,
		       struct pcb_design_result *res);
/* a run of res's design in the kernel backend's module (kernel.c), as pcb_run_design() */
int pcb_kernel_run_design(const struct pcb_topo *topo, const struct pcb_clock *clk,
			  struct pcb_design_result *res, int run, char *err, size_t errlen);
/* a run of the booted kernel's own functions under its instrument (instrumented.c), as pcb_run_design() */
int pcb_instrumented_run_design(const struct pcb_topo *topo, const struct pcb_clock *clk,
				struct pcb_design_result *res, int run, char *err, size_t errlen);

/* the thread bodies (worker.c, coordinator.c) */
void *pcb_worker_main(void *arg);
void *pcb_coord_main(void *arg);

/* a finished run's figures into its design's result: the workers', the coordinator's (collect.c) */
void pcb_collect_run(struct pcb_design_result *res, struct thread_ctx *t, int nr, int run,
		     const struct pcb_clock *clk);
void pcb_collect_coord(struct pcb_design_result *res, struct run_shared *s, int run);

#endif
