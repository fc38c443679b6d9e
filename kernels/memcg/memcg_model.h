/* SPDX-License-Identifier: MIT */
/*
 * The memcg model as the harness sees it (model.c registers it): its
 * settings, its worker, the state one design's runs share, and the
 * operations each build exports for the invariant and the tests.
 */
#ifndef PCB_MEMCG_MODEL_H
#define PCB_MEMCG_MODEL_H

#include <stdatomic.h>

#include "pcb/model.h"
#include "../jump_label.h"
#include "memcontrol.h"

/* the table rows, under their kernel names */
enum memcg_fn {
	MEMCG_FN_CONSUME_STOCK,
	MEMCG_FN_REFILL_STOCK,
	MEMCG_FN_MOD_OBJCG_STATE,
	MEMCG_FN_CONSUME_OBJ_STOCK,
	MEMCG_FN_REFILL_OBJ_STOCK,
	MEMCG_FN_KMALLOC,		/* batch kmalloc: a burst of kmalloc()s */
	MEMCG_FN_MEMCG_HOOKS,		/* accounting: a page's charge and uncharge hooks */
	MEMCG_FN_CHARGE,		/* netperf: a whole charge, stock or page_counter */
	MEMCG_FN_DRAIN_ALL_STOCK,	/* memcg.max: try_charge_memcg()'s drain at the limit */
	MEMCG_FN_NR,
};
_Static_assert(MEMCG_FN_NR <= PCB_MAX_FN, "memcg rows fit the worker's statistics");

enum memcg_workload {
	MEMCG_WL_CHARGE,
	MEMCG_WL_KMALLOC,
	MEMCG_WL_MIXED,
	MEMCG_WL_MULTI_MEMCG,
	MEMCG_WL_NETPERF,
	MEMCG_WL_NR,
};

/* accounting modes (seed 003) */
enum memcg_accounting {
	MEMCG_ACCT_MEMCG,		/* charges go to the scenario's memcgs */
	MEMCG_ACCT_NONE,		/* no memcg calls compiled in (003's nomemcg) */
	MEMCG_ACCT_ALWAYS,		/* only the root memcg; hooks always called (003's base) */
	MEMCG_ACCT_STATIC_KEY,		/* hooks behind a patched-out jump label (003's bypassed) */
	MEMCG_ACCT_STATIC_KEY_ON,	/* the same with the key enabled: a memcg exists */
};

/* the model's scenario settings (its keys in model.c) */
struct memcg_config {
	int workload;			/* enum memcg_workload */
	int timing;			/* the harness's run.timing */
	int irq_model;			/* 0 none, 1 pushf_popf */
	int in_kernel;			/* run.backend = kernel: cli and sti executed */
	int accounting;			/* enum memcg_accounting */
	int depth;			/* memcg.depth */
	int slots;			/* NR_MEMCG_STOCK, 1..7 */
	int eviction_round_robin;
	int nocache_isolated_only;
	int nr_pages;
	long hold;
	int uncharge_refill;		/* percent of uncharges through refill_stock() */
	int object_size;		/* kmalloc() size; obj_full_size() adds a pointer */
	int obj_share;			/* mixed: percent of operations on objects */
	int memcgs;			/* multi_memcg: memcgs each worker charges */
	long burst;			/* batch kmalloc: allocations a burst */
	int drain_target_leaf;		/* drain the workers' memcg, not the root */
	int think_ns;			/* other work between two operations */
	int between;			/* a system call between two operations */
	int clear_pages;		/* pages zeroed in turn, one before each page charge */
	int queues;			/* netperf: the CPUs taking the flows' receive interrupts */
	int softirq_share;		/* netperf: percent of charges from softirq, for a flow */
	int stock_placement;		/* enum memcg_stock_placement */
	int stock_offset;		/* packed: the byte of its cache line the stock starts at */
	long max;			/* memcg.max: the charged memcgs' memory.max, pages; 0: none */
};

/* stock.placement: where each CPU's memcg_stock sits */
enum memcg_stock_placement {
	MEMCG_STOCK_PLACE_DESIGN,	/* as the design's kernel defines it (memcg_design_info) */
	MEMCG_STOCK_PLACE_PACKED,	/* DEFINE_PER_CPU: v6.2, and 6.1 */
	MEMCG_STOCK_PLACE_ALIGNED,	/* DEFINE_PER_CPU_SHARED_ALIGNED: seed 000's patch 1/5 */
};

/* what the model knows of a design (pcb_design.info) */
struct memcg_design_info {
	int stock_aligned;		/* its kernel aligns memcg_stock to a cache line */
	int slots;			/* NR_MEMCG_STOCK its kernel fixes; 0: stock.slots */
	int split;			/* memcg_stock and obj_stock apart (7.3), both aligned */
};

/* the placement design d runs with: the configuration's, or its kernel's */
static inline struct pcb_stock_place memcg_place(const struct memcg_config *c,
						 const struct pcb_design *d)
{
	const struct memcg_design_info *info = d->info;
	bool aligned = c->stock_placement == MEMCG_STOCK_PLACE_DESIGN ?
		       info && info->stock_aligned :
		       c->stock_placement == MEMCG_STOCK_PLACE_ALIGNED;

	return (struct pcb_stock_place){ .packed = !aligned,
					 .offset = aligned ? 0 : (unsigned int)c->stock_offset };
}

/* the model's scenario keys (keys.c) */
#define MEMCG_NR_KEYS 23

/* memcgs a worker can charge (multi_memcg), indexed by css id */
#define MEMCG_WORKER_MEMCGS 64

struct memcg_worker {
	struct pcb_worker w;		/* the harness's part, first */
	struct mem_cgroup *memcg[MEMCG_WORKER_MEMCGS];	/* the memcgs it charges, in turn */
	int nr_memcgs;
	struct pglist_data *pgdat;	/* the node its slab statistics go to */
	int workload;			/* enum memcg_workload */
	unsigned int nr_pages;
	long hold;			/* most pages (or objects) held per memcg */
	int uncharge_refill;
	int obj_share;
	unsigned int obj_size;		/* obj_full_size(): object + its objcg pointer */
	uint64_t burst;
	int accounting;			/* enum memcg_accounting */
	int key_patched;		/* the jump label can be rewritten here */

	/* state carried between runs, per css id */
	int next;			/* the memcg charged next */
	long held[MEMCG_WORKER_MEMCGS];		/* pages charged, not yet uncharged */
	long css_held[MEMCG_WORKER_MEMCGS];	/* css references those charges hold */
	long objs[MEMCG_WORKER_MEMCGS];		/* objects allocated, not yet freed */
	uint64_t charged, uncharged;	/* pages, over the run */
	uint64_t think_ticks;		/* other work between two operations */
	int between;			/* workload.between = syscall */
	/* workload.clear_pages: the pages clear_page() zeroes in turn, this worker's own */
	unsigned char *clear_area;
	unsigned int clear_pages, clear_next;
	/* netperf: this CPU's task's memcg, and the flows whose packets it receives */
	struct mem_cgroup *task;
	int nr_flows, next_flow, softirq_share;
	/* what that work walks: this worker's own lines */
	unsigned char think_buf[4096] __attribute__((aligned(64)));
};

/* a worker's statistics stay small enough to live in its L2: nine rows' histograms, its lines */
_Static_assert(sizeof(struct memcg_worker) <= 72 * 1024, "worker statistics within 72 KiB");

static inline struct memcg_worker *memcg_worker(struct pcb_worker *w)
{
	return (struct memcg_worker *)w;
}

/* what one CPU's object stock holds for an objcg, for the invariant */
struct memcg_stock_view {
	int refs;			/* the slots that cache it, each with a reference */
	unsigned int nr_bytes;		/* the bytes they stock */
	int slab;			/* the slab statistic bytes cached for it */
};

/* what each build exports besides the harness's operations (pcb_variant.ops) */
struct memcg_ops {
	int slots;			/* NR_MEMCG_STOCK of the layout */
	/* tests: one consume_stock() as cpu; hold and release cpu's stock lock */
	bool (*consume)(struct pcb_cpu *cpu, struct mem_cgroup *memcg, unsigned int nr);
	unsigned long (*lock_stock)(struct pcb_cpu *this, struct pcb_cpu *owner);
	void (*unlock_stock)(struct pcb_cpu *this, struct pcb_cpu *owner, unsigned long flags);
	/* the stock's pages for memcg, and the slots that cache it */
	unsigned int (*stock_pages)(const void *stock, const struct mem_cgroup *memcg);
	int (*stock_refs)(const void *stock, const struct mem_cgroup *memcg);
	/* what the object stock holds for objcg, or for any objcg where it is NULL */
	void (*obj_view)(const void *stock, const struct obj_cgroup *objcg,
			 struct memcg_stock_view *view);
};

static inline const struct memcg_ops *memcg_ops(const struct pcb_variant *v)
{
	return v->ops;
}

/* the state one design's runs share */
struct memcg_shared {
	struct memcg_config cfg;
	const struct pcb_design *design;
	struct memcg_tree tree;
	int key_patched;
	/* workload.clear_pages: a slice of cfg.clear_pages pages a CPU, taken in turn */
	unsigned char *clear_area;
	size_t clear_len;
	atomic_int clear_next_slice;
	struct memcg_online online;	/* the workers' CPUs, for the charge path's drain */
};

extern const struct pcb_model memcg_model;

/* seed 003: memcg_in_use_key, off while only the root memcg exists */
extern struct static_key_false memcg_in_use_key;
extern int mem_cgroup_subsys_disabled;

/*
 * Its run-time operations (ops.c), which the program registers (model.c)
 * and the kernel backend's module runs (memcg_model_ops)
 */
int memcg_variant_index(const void *config, const struct pcb_design *d);
void *memcg_setup(const struct pcb_model_setup *ms, char *err, size_t errlen);
void memcg_teardown(void *shared);
struct pcb_stock_place memcg_stock_place(const void *shared, const struct pcb_design *d);
void memcg_cpu_setup(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu);
void memcg_worker_setup(void *shared, struct pcb_worker *pw);
void *memcg_drain_target(void *shared);
unsigned long memcg_stranded(void *shared, const struct pcb_variant *v, void *target,
			     struct pcb_cpu *cpu);
int memcg_check(const struct pcb_quiescent *q, char *msg, size_t len);
bool memcg_cache_empty(void *shared, const struct pcb_variant *v, struct pcb_cpu *cpu);

#define MEMCG_MODEL_OPS {						\
	.variant_index = memcg_variant_index,				\
	.setup = memcg_setup,						\
	.teardown = memcg_teardown,					\
	.stock_place = memcg_stock_place,				\
	.cpu_setup = memcg_cpu_setup,					\
	.worker_size = sizeof(struct memcg_worker),			\
	.worker_setup = memcg_worker_setup,				\
	.drain_target = memcg_drain_target,				\
	.stranded = memcg_stranded,					\
	.check = memcg_check,						\
	.cache_empty = memcg_cache_empty,				\
}
extern const struct pcb_model_ops memcg_model_ops;
extern const struct pcb_model_run memcg_model_run;
/* its scenario keys (keys.c) */
extern const struct pcb_key memcg_keys[];
/* its checks across them (keys.c), struct pcb_model_config's rules() */
int memcg_rules(const void *config, int timing, const struct pcb_design *d,
		struct pcb_refusal *r);

/* the invariant (check.c): see check.h */
int memcg_check_charges(const struct memcg_tree *tree, const struct pcb_quiescent *q,
			char *msg, size_t len);
/* pages a stock holds for root's subtree in tree (every memcg of it: root NULL) */
unsigned long memcg_stock_pages_under(const struct pcb_variant *v, const void *stock,
				      const struct memcg_tree *tree, const struct mem_cgroup *root);
/* a stock holding no pages and no objcg */
bool memcg_stock_empty(const struct pcb_variant *v, const void *stock,
		       const struct memcg_tree *tree);

/* seed 003's key set for a run (1: the text was rewritten), and back */
int memcg_static_key_setup(bool on, char *note, size_t notelen);
void memcg_static_key_teardown(int patched);

/* the calibration loop (calib.c) */
double memcg_bare_consume_loop(uint64_t rounds, double overhead, bool preempt);

#endif
