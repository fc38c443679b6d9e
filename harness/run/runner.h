/* SPDX-License-Identifier: MIT */
/*
 * Runs one configuration of a scenario for one design: pinned workers, one
 * start barrier per run, warm-up, R runs, a coordinator firing drains, and
 * the model's invariant checked after every run. The figures land in a
 * struct pcb_design_result, one part per concern.
 */
#ifndef PCB_RUNNER_H
#define PCB_RUNNER_H

#include <stdint.h>

#include "../machine/topo.h"
#include "../measure/counters.h"
#include "../measure/interrupts.h"
#include "../measure/stats.h"
#include "../measure/tsc.h"
#include "../scenario/scenario.h"
#include "cpu_area.h"
#include "pcb/model.h"
#include "pcb/worker.h"

/* one table row: a function's run means and its statistics over all runs */
enum pcb_fn_method {
	PCB_METHOD_CALL,		/* call timing: a region a call, the empty one subtracted */
	PCB_METHOD_SUBTRACTED,		/* batch regions of one length, the empty one subtracted */
	PCB_METHOD_DIFFERENCED,		/* batch regions of N and N/2 calls, differenced */
};

/* "call", "subtracted", "differenced": result.json's functions[].method */
const char *pcb_fn_method_name(enum pcb_fn_method m);

struct pcb_fn_result {
	double *run_mean;		/* [runs], cycles per call by the row's method */
	double *run_sub_mean;		/* [runs], the same with the empty region subtracted */
	double *run_fixed;		/* [runs], differenced: a region's fixed ticks, else 0 */
	double *run_raw_mean;		/* [runs], cycles per call as read, timer included */
	enum pcb_fn_method method;
	uint64_t *run_calls;		/* [runs] */
	uint64_t *run_interrupted;	/* [runs], regions set aside as interrupted */
	struct pcb_stat total;		/* every run and worker merged */
};

/*
 * The empty region of one worker's run: before it, during it (between
 * chunks of operations, in the loop's own conditions) and after it. What is
 * subtracted is the one measured during the run where it has enough
 * regions, else the one before.
 */
struct pcb_run_overhead {
	double start, in_run, end;	/* trimmed means, ticks */
	double subtracted;
	double lo, hi;			/* the 5th and 95th percentiles of what was subtracted */
	uint64_t in_run_regions;
};

/* regions timed during a run that make its own estimate */
#define PCB_EMPTY_MIN_REGIONS	256

struct pcb_worker_info {
	unsigned int cpu;
	int node;			/* node the stock was placed on */
	int cache_node;			/* node the kernel reports for its page, -1 unknown */
	bool isolated;			/* cpu_is_isolated() in this configuration */
};

/* perf counters of the workers and the coordinator */
struct pcb_counter_result {
	int nr_events;
	struct pcb_counter_value *ctr;	/* [worker * PCB_MAX_EVENTS + event], summed over runs */
	uint64_t ctr_fn[PCB_MAX_FN][PCB_MAX_EVENTS];	/* per-call sums */
	struct pcb_counter_value coord[PCB_MAX_EVENTS];	/* the coordinator's, summed */
	int per_call, rdpmc, kernel_dropped;
};

/* the coordinator's drains */
struct pcb_drain_result {
	int active;			/* a coordinator ran */
	int cpu, shares_cpu;		/* its CPU, and whether a worker is on it */
	int nr_virtual, nr_caches;	/* idle CPUs; CPUs holding charges */
	int nr_online;			/* caches walked */
	/* the helpers standing in for the virtual CPUs (none: the drainer) */
	int nr_helpers, helper_cpu[PCB_MAX_HELPERS];
	int helpers_share;		/* ... on a worker's CPU: refills alone */
	int helpers_flush;		/* ... running a flushing drain's idle work, in parallel */
	uint64_t helper_ran;		/* ... so many work items, inside the timed drains */
	uint64_t walk_sum, wake_sum;	/* ticks over all drains, the sampled drains' wakes */
	uint64_t wake_n;		/* drains whose wakes were timed */
	uint64_t count;			/* drains fired */
	uint64_t remote;		/* stocks drained from the coordinator's CPU */
	double *run_mean;		/* [runs], cycles inside the drain */
	double *run_line;		/* [runs], ticks a line takes from the first worker, -1 none */
	double *run_wake;		/* [runs], cycles a drain spent waking real workers, NaN unsampled */
	struct pcb_stat total;
	struct pcb_hist completion;	/* queued work: ticks until it all ran */
	uint64_t completed, incomplete;
	uint64_t waited_preempted;	/* drains that waited on a preempted lock holder */
	uint64_t stranded_sum, stranded_n, stranded_max;	/* left on isolated CPUs */
	uint64_t work_queued, work_ran, work_deferred;
	/* the kernel backend: where the work ran, its stock's CPU or another (the last such) */
	uint64_t work_ran_here, work_ran_elsewhere;
	int work_elsewhere_cpu;
};

/* contention, per function and side */
#define PCB_MAX_CC_ROWS 16
struct pcb_contention_row {
	char fn[48];
	int coordinator;
	struct pcb_tally wait;		/* contended acquisitions */
	struct pcb_tally held;		/* where the model timed the lock's hold */
};

struct pcb_design_result {
	const struct pcb_design *design;
	const struct pcb_variant *variant;
	const struct pcb_scenario *sc;	/* this configuration */
	char label[PCB_LABEL_LEN + 32];	/* design and configuration, as the tables name it */
	char model_note[256];		/* what the model's setup said of itself */
	char run_note[1024];		/* what the runner had to change, for the notes */
	int delivery;			/* the work delivery in force, -1 where none ran */
	int runs;			/* runs planned (run.runs = auto: so far) */
	int runs_done;			/* runs that finished */
	int runs_met;			/* run.runs = auto: every row within run.ci_target */
	int nr_workers;
	struct pcb_worker_info *worker;
	int workers_node;		/* the node of every worker, -1 where they span several */
	int target_node;		/* node the kernel reports for the drain target's page, -1 unknown */
	struct pcb_run_overhead *ovh;	/* [run * nr_workers + worker] */
	uint64_t tsc_step;		/* the timer's resolution, ticks */
	struct pcb_fn_result fn[PCB_MAX_FN];
	double overhead;		/* mean empty-region ticks subtracted */
	uint64_t ops, failed, misses;
	double run_seconds;		/* mean measured span of a run */
	int nonoverlap;			/* runs whose workers did not all overlap */
	int check_failed;
	char check[256];		/* "ok" or the first discrepancy */
	uint64_t ev[PCB_MAX_EV];	/* the model's per-CPU events, summed */

	struct pcb_counter_result counters;
	struct pcb_drain_result drain;
	struct pcb_contention_row cc[PCB_MAX_CC_ROWS];
	int nr_cc;
	struct pcb_gaps *gaps;		/* interruptions, per worker, over all runs */
};

void pcb_merge_contention(struct pcb_design_result *res, const struct pcb_contention *cc,
			  int coordinator);

/* an empty result for sc's runs of design d; 0 or -1 (out of memory) */
int pcb_design_result_init(struct pcb_design_result *res, const struct pcb_scenario *sc,
			   const struct pcb_design *d, const struct pcb_clock *clk);
/*
 * Run number `run` of res's design and configuration (pcb_design_result_init())
 * into res: threads set up, warmed up, timed, checked and torn down, so that
 * runs of different designs can alternate. 0, or -1 with a message (a
 * runtime failure, exit 1).
 */
/* the runs a result of sc has room for: run.max_runs where run.runs = auto */
int pcb_runs_room(const struct pcb_scenario *sc);
/* room made for one more run of res (run.runs = auto): 0, or -1 where there is none */
int pcb_design_result_more(struct pcb_design_result *res);
/* end the run in progress at its next chunk, its figures dropped: async-signal-safe */
void pcb_run_stop(void);

int pcb_run_design(const struct pcb_topo *topo, const struct pcb_clock *clk,
		   struct pcb_design_result *res, int run, char *err, size_t errlen);
void pcb_design_result_free(struct pcb_design_result *res);

#endif
