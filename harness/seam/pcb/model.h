/* SPDX-License-Identifier: MIT */
/*
 * What a model registers (the model interface, base.h): a model is one
 * folder that defines one struct pcb_model; the harness knows it only
 * through this header. A model's designs are one header each, built once
 * per variant (the model's build parameters, for example one stock slot or
 * seven), and the run picks one variant's loop once, so no operation makes
 * an indirect call.
 *
 * struct pcb_model says what the model is (its rows, events, designs,
 * workloads and names), then one part a concern: its configuration, its
 * run-time operations, its output (model_output.h) and its calibration.
 * The last two are optional, and each operation that can have a default
 * has one: a model that adds nothing to the output and has no bare loop
 * to calibrate fills in its names, its designs, set-up and check.
 * Registration, read in userspace: a kernel build needs the designs and
 * variants of this header, not struct pcb_model.
 */
#ifndef PCB_SEAM_MODEL_H
#define PCB_SEAM_MODEL_H

#include "pcb/base.h"
#include "pcb/keys.h"

struct pcb_cpu;
struct pcb_scenario;
struct pcb_worker;

/* what the harness must do for a drain protocol, as the design's flavour says */
struct pcb_drain_flavour {
	const char *name;		/* result.json's "drain": work, remote, qsbr */
	bool queues_work;		/* drains queue work to owners: deliver it, time completion */
	bool flushes;			/* ... and wait for it (flush_work()) inside the timed call */
	bool spare_stock;		/* each CPU has a spare stock a drain swaps in */
};

/*
 * Where a CPU's cache sits in its per-CPU area, as the kernel's per-CPU
 * definition places it: DEFINE_PER_CPU_SHARED_ALIGNED (or _ALIGNED)
 * starts it on a cache line with its lines to itself; DEFINE_PER_CPU
 * packs it among the variables defined beside it, so it starts where the
 * link put it and the model's per-CPU variables that follow it in the
 * kernel share its last line (pcb_cpu.stock_next)
 */
struct pcb_stock_place {
	bool packed;
	unsigned int offset;		/* packed: the byte of its cache line it starts at */
};

/* one build of a design */
struct pcb_variant {
	const char *name;		/* each build axis's letter and value: s7_i1 */
	size_t cpu_size;		/* the model's per-CPU struct, struct pcb_cpu first */
	size_t stock_size;		/* the per-CPU cache (the stock) */
	size_t stock_hot_bytes;		/* the bytes its hot path touches */

	/* a cache of cpu (its number set), empty */
	void (*stock_init)(const struct pcb_cpu *cpu, void *stock);
	/* a registered thread's start and end (liburcu QSBR); may be NULL */
	void (*thread_start)(void);
	void (*thread_stop)(void);
	/* one measured (or warm-up) run of the worker's loop */
	void (*run)(struct pcb_worker *w);
	/* give back what the worker still holds, untimed */
	void (*release)(struct pcb_worker *w);
	/* cpu's drain work->data, where queue_work_on() sets PENDING; NULL without work */
	pcb_work_data_t *(*work_data)(struct pcb_cpu *cpu);
	/* the owner drains its own cache (drain_local_stock()): the drain work */
	void (*drain_local)(struct pcb_cpu *this);
	/*
	 * the CPU leaves the run: its caches emptied, whatever a drain left
	 * flagged (memcg_hotplug_cpu_dead()); drain_local where a model has no
	 * other
	 */
	void (*drain_dead)(struct pcb_cpu *cpu);
	/* the drain the coordinator calls, from `this`, over the online cpus[] */
	void (*drain_all)(struct pcb_cpu *this, void *target, struct pcb_cpu *const *cpus, int nr);
	/* fill an idle (virtual) CPU's cache as its owner would, untimed */
	void (*prefill)(struct pcb_cpu *cpu, void *shared);
	/* the model's own operations on this build, for its checks and tests */
	const void *ops;
};

#define PCB_MAX_VARIANTS 6

struct pcb_design {
	const char *name;
	const char *summary;		/* one line for `pcpbench list` */
	const char *follows;		/* the seed, patch or kernel it models */
	const char *promise;		/* what a return from the drain means */
	struct pcb_drain_flavour drain;
	bool skips_isolated;		/* leaves isolated CPUs' caches alone */
	bool nocache;			/* CPUs can opt out of caching */
	/* why this machine cannot run it (rseq without glibc's area), or NULL */
	const char *(*unavailable)(void);
	/* why the kernel backend cannot run it (a userspace library's stand-in), or NULL */
	const char *kernel_refused;
	/*
	 * The model's own facts about the design (the layout its kernel
	 * has, where a key defaults to it), from the model's
	 * MODEL_DESIGN_INFO; NULL where the model has none
	 */
	const void *info;
	const struct pcb_variant *variant[PCB_MAX_VARIANTS];
};

struct pcb_workload_info {
	const char *name;
	const char *summary;
};

/* what setup() is given for one design's runs */
struct pcb_model_setup {
	const void *config;		/* the model's settings of this configuration */
	const struct pcb_design *d;
	const struct pcb_variant *v;	/* the build of d they run (variant_index()'s) */
	int nr_cpus;			/* the CPUs online: workers' and virtual ones */
	char *note;			/* what it says of its implementation, for note_key */
	size_t notelen;
};

/*
 * A quiescent point, as check() sees it: workers w[], and every modeled
 * CPU cpus[] whose cache or counters may hold something.
 */
struct pcb_quiescent {
	void *shared;			/* what setup() returned */
	const struct pcb_variant *v;
	struct pcb_worker *const *w;
	int nr_workers;
	struct pcb_cpu *const *cpus;
	int nr_cpus;
};

/*
 * Its configuration: the scenario keys it adds, the settings struct their
 * values land in, and what it says of a configuration
 */
struct pcb_model_config {
	const struct pcb_key *keys;
	int nr_keys;
	size_t size;			/* the settings struct's */
	/*
	 * Checks across its keys and the harness's timing; -1 with err, from
	 * pcb_scenario_key_error() on the key at fault. NULL: none.
	 */
	int (*finish)(void *config, int timing, const struct pcb_scenario *sc,
		      char *err, size_t errlen);
	/*
	 * The checks across its keys on their values alone, applied after
	 * finish() to each design a scenario runs, and by the kernel
	 * backend's module to the plan it is handed (kmod/plan.c): 0, or -1
	 * with r filled in (pcb_refuse()). Each value is within its key's
	 * range. NULL: none.
	 */
	int (*rules)(const void *config, int timing, const struct pcb_design *d,
		     struct pcb_refusal *r);
	/* "workload charge, memcg depth 2" for --dry-run and result.json; NULL: nothing */
	void (*describe)(const void *config, char *buf, size_t len);
	/*
	 * What the configuration makes of design d where it differs by
	 * design ("per_cpu_pages lock first_line"), for `list` (config NULL:
	 * the defaults) and --dry-run; NULL: nothing
	 */
	void (*describe_design)(const void *config, const struct pcb_design *d, char *buf,
				size_t len);
	/*
	 * The kernel backend (run.backend = kernel): the settings that have
	 * no meaning there (a cost model of what the kernel executes
	 * itself, a system call made from user mode) set to what the kernel
	 * does, each change said in note (appended to). NULL: none.
	 */
	void (*kernel)(void *config, char *note, size_t len);
};

/*
 * Its run-time operations: what the runner calls around one design's
 * runs, none of them per operation. The harness fills in each default
 * (pcb_model_ops(), registry.h).
 */
struct pcb_model_ops {
	/*
	 * The build a configuration runs for design d: an index into
	 * d->variant[]. Picked once a design's runs, so a setting may
	 * default to what the design's kernel does (d->info). NULL: 0.
	 */
	int (*variant_index)(const void *config, const struct pcb_design *d);
	/* shared state (memcgs, zones) before the workers start; NULL with err */
	void *(*setup)(const struct pcb_model_setup *s, char *err, size_t errlen);
	/* NULL: free(shared) */
	void (*teardown)(void *shared);
	/* where each CPU's cache sits (struct pcb_stock_place); NULL: aligned */
	struct pcb_stock_place (*stock_place)(const void *shared, const struct pcb_design *d);
	/* a CPU's model data, after the harness set up its struct pcb_cpu; NULL: none */
	void (*cpu_setup)(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu);
	/* the model's worker: its size (struct pcb_worker first; 0: that alone) and set up */
	size_t worker_size;
	void (*worker_setup)(void *shared, struct pcb_worker *w);	/* NULL: none */
	/* what the coordinator drains; NULL: the shared state itself */
	void *(*drain_target)(void *shared);
	/*
	 * After a drain: what it left on an isolated CPU (pages), for designs
	 * that skip them; NULL: nothing
	 */
	unsigned long (*stranded)(void *shared, const struct pcb_variant *v, void *target,
				  struct pcb_cpu *cpu);
	/* the invariant at a quiescent point: 0, or -1 with the first discrepancy in msg */
	int (*check)(const struct pcb_quiescent *q, char *msg, size_t len);
	/* after the final drain: is cpu's cache empty? */
	bool (*cache_empty)(void *shared, const struct pcb_variant *v, struct pcb_cpu *cpu);
};

/* ops with each NULL operation its default (seam/ops.c) */
struct pcb_model_ops pcb_model_ops_defaults(const struct pcb_model_ops *given);

/*
 * A model as the kernel backend's module knows it (kmod/): its run-time
 * operations, and its keys, settings struct and rules, to check a
 * configuration's values again before it runs. Each model's ops.c
 * defines one, <model>_model_run, from the same parts its struct
 * pcb_model has.
 */
struct pcb_model_run {
	const char *name;
	const struct pcb_model_ops *ops;
	const struct pcb_key *keys;
	int nr_keys;
	size_t config_size;
	int (*rules)(const void *config, int timing, const struct pcb_design *d,
		     struct pcb_refusal *r);	/* its struct pcb_model_config's */
};

/* `pcpbench calibrate`: a bare loop of one row beside the harness's figure */
struct pcb_model_calib {
	const char *design;		/* the design the harness's runs time */
	int fn;				/* the row */
	/* preempt: with the preempt count pair, or without it (what the pair costs) */
	double (*bare)(uint64_t rounds, double overhead, bool preempt);
};

struct pcb_model_output;

struct pcb_model {
	const char *name;
	const char *summary;
	const char *const *fn_name;	/* the table rows, kernel names */
	int nr_fn;
	const char *const *ev_name;	/* per-CPU event counters */
	int nr_ev;
	const struct pcb_design *const *designs;	/* NULL-terminated */
	const struct pcb_workload_info *workloads;
	int nr_workloads;
	const char *cache_name;		/* what its per-CPU cache is called: stock, per_cpu_pages */
	const char *drain_name;		/* the drain the coordinator calls: drain_all_stock */
	const char *invariant_name;	/* what check() checks: charge invariant, page invariant */
	const char *target_name;	/* what ops.drain_target() is: zone, memcg; may be NULL */

	struct pcb_model_config config;
	struct pcb_model_ops ops;
	/* what its results' tables and figures add (model_output.h); NULL: its events alone */
	const struct pcb_model_output *output;
	/* NULL: calibrate has no bare loop of it */
	const struct pcb_model_calib *calib;
};

#endif
