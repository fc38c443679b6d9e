/* SPDX-License-Identifier: MIT */
/*
 * Runs one scenario's designs: pinned workers, one start barrier per run,
 * warm-up, R runs, and the charge invariant checked after every run.
 */
#ifndef PCB_RUNNER_H
#define PCB_RUNNER_H

#include <stdint.h>

#include "../kernels/percpu.h"
#include "counters.h"
#include "interrupts.h"
#include "design.h"
#include "scenario.h"
#include "stats.h"
#include "topo.h"
#include "tsc.h"

struct pcb_fn_result {
	double *run_mean;		/* [runs], cycles per call */
	uint64_t *run_calls;		/* [runs] */
	struct pcb_stat total;		/* every run and worker merged */
};

struct pcb_worker_info {
	unsigned int cpu;
	int node;			/* node the stock was placed on */
	int stock_node;			/* node the kernel reports for its page, -1 unknown */
};

struct pcb_design_result {
	const struct pcb_design *design;
	const struct pcb_variant *variant;
	const struct pcb_scenario *sc;	/* this configuration */
	char label[192];		/* design and configuration, as the tables name it */
	char accounting_impl[256];
	int runs;
	int nr_workers;
	struct pcb_worker_info *worker;
	struct pcb_fn_result fn[PCB_FN_NR];
	double overhead;		/* mean empty-region ticks subtracted */
	uint64_t ops, failed, misses;
	double run_seconds;		/* mean measured span of a run */
	int nonoverlap;			/* runs whose workers did not all overlap */
	int check_failed;
	char check[256];		/* "ok" or the first discrepancy */

	/* perf counters: [worker * PCB_MAX_EVENTS + event], summed over runs */
	int nr_events;
	struct pcb_counter_value *ctr;
	uint64_t ctr_fn[PCB_FN_NR][PCB_MAX_EVENTS];	/* per-call sums */
	int per_call, rdpmc, kernel_dropped;

	uint64_t ev[PCB_NR_EV];		/* stock hits and misses, page_counter calls */

	/* the coordinator's drains */
	int coordinator, coord_cpu, coord_shares_cpu;
	int nr_virtual, nr_stocks;
	uint64_t drains;
	uint64_t remote_drains;		/* stocks drained from the coordinator's CPU */
	struct pcb_counter_value coord_ctr[PCB_MAX_EVENTS];	/* its perf events, summed */
	double *drain_run_mean;		/* [runs], cycles inside drain_all_stock() */
	struct pcb_stat drain_total;
	struct pcb_hist completion;
	uint64_t completed, incomplete;
	uint64_t stranded_sum, stranded_n, stranded_max;

	/* contention, per function and side */
#define PCB_MAX_CC_ROWS 16
	struct pcb_contention_row {
		char fn[48];
		int coordinator;
		uint64_t contended, wait_sum, wait_max;
	} cc[PCB_MAX_CC_ROWS];
	int nr_cc;

	/* interruptions, per worker, over all runs */
	struct pcb_gaps *gaps;
	uint64_t work_queued, work_ran, work_deferred;
};

struct pcb_cpu;
struct pcb_contention;
void pcb_merge_contention(struct pcb_design_result *res, const struct pcb_contention *cc,
			  int coordinator);
/* one CPU's area: struct pcb_cpu, its stock and (QSBR) a spare stock */
size_t pcb_cpu_area_size(const struct pcb_variant *v);
struct pcb_cpu *pcb_cpu_area_init(void *area, const struct pcb_variant *v, unsigned int os,
				  int node);

typedef void (*pcb_progress_fn)(void *ctx, const struct pcb_design *d, int run, int runs);

/* 0, or -1 with a message (a runtime failure, exit 1) */
int pcb_run_design(const struct pcb_topo *topo, const struct pcb_scenario *sc,
		   const struct pcb_design *d, const struct pcb_clock *clk,
		   struct pcb_design_result *res, pcb_progress_fn progress, void *ctx,
		   char *err, size_t errlen);
void pcb_design_result_free(struct pcb_design_result *res);

#endif
