/* SPDX-License-Identifier: MIT */
/*
 * The registry of lock designs and workloads. A design is one header in
 * kernels/locks/ plus harness/designs/design.c compiled for it, once per
 * build variant (single slot or seed 002's seven, with or without the
 * irq_model cost); the run picks one variant's loop once, so no operation
 * makes an indirect call.
 */
#ifndef PCB_DESIGN_H
#define PCB_DESIGN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

struct pcb_worker;
struct pcb_cpu;
struct mem_cgroup;
struct obj_cgroup;

/* accounting modes (seed 003) */
enum pcb_accounting {
	PCB_ACCT_MEMCG,			/* charges go to the scenario's memcgs */
	PCB_ACCT_NONE,			/* no memcg calls compiled in (003's nomemcg) */
	PCB_ACCT_ALWAYS,		/* only the root memcg; hooks always called (003's base) */
	PCB_ACCT_STATIC_KEY,		/* hooks behind a patched-out jump label (003's bypassed) */
	PCB_ACCT_STATIC_KEY_ON,		/* the same with the key enabled: a memcg exists */
};

/* functions a table can have a row for, under their kernel names */
enum pcb_fn {
	PCB_FN_CONSUME_STOCK,
	PCB_FN_REFILL_STOCK,
	PCB_FN_MOD_OBJCG_STATE,
	PCB_FN_CONSUME_OBJ_STOCK,
	PCB_FN_REFILL_OBJ_STOCK,
	PCB_FN_KMALLOC,			/* batch kmalloc: a burst of kmalloc()s */
	PCB_FN_MEMCG_HOOKS,		/* accounting: a page's charge and uncharge hooks */
	PCB_FN_NR,
};

/* under the kernel's spelling, as PCB_TIMED(consume_stock, ...) names them */
#define PCB_FN_consume_stock PCB_FN_CONSUME_STOCK
#define PCB_FN_refill_stock PCB_FN_REFILL_STOCK
#define PCB_FN_mod_objcg_state PCB_FN_MOD_OBJCG_STATE
#define PCB_FN_consume_obj_stock PCB_FN_CONSUME_OBJ_STOCK
#define PCB_FN_refill_obj_stock PCB_FN_REFILL_OBJ_STOCK

extern const char *const pcb_fn_name[PCB_FN_NR];

/* what one CPU's stock holds, for the invariant */
struct pcb_stock_view {
	const struct obj_cgroup *objcg;
	unsigned int nr_bytes;
	int slab_reclaimable, slab_unreclaimable;
};

/* one build of a design */
struct pcb_variant {
	size_t stock_size;		/* sizeof(struct memcg_stock_pcp) */
	size_t stock_hot_bytes;		/* the bytes consume/refill touch */
	int slots;			/* NR_MEMCG_STOCK of the layout */
	int irq_model;
	int spare_stock;		/* drains swap in a spare (DRAIN_QSBR) */

	void (*stock_init)(void *stock);
	/* a registered thread's start and end (liburcu QSBR); may be NULL */
	void (*thread_start)(void);
	void (*thread_stop)(void);
	/* one measured (or warm-up) run of the worker's loop */
	void (*run)(struct pcb_worker *w);
	/* uncharge and free what the worker still holds, untimed */
	void (*release)(struct pcb_worker *w);
	/* the stock's work->data, where queue_work_on() sets PENDING; NULL without work */
	atomic_long *(*work_data)(void *stock);
	/* the owner drains its own stock (drain_local_stock()) */
	void (*drain_local)(struct pcb_cpu *this);
	/* drain_all_stock(root) from `this`, over the online cpus[] */
	void (*drain_all)(struct pcb_cpu *this, struct mem_cgroup *root,
			  struct pcb_cpu *const *cpus, int nr);
	/* charge nr pages and put them in cpu's stock, as its owner would (untimed) */
	void (*prefill)(struct pcb_cpu *cpu, struct mem_cgroup *memcg, unsigned int nr);
	/* tests: one consume_stock() as cpu; hold and release cpu's stock lock */
	bool (*consume)(struct pcb_cpu *cpu, struct mem_cgroup *memcg, unsigned int nr);
	unsigned long (*lock_stock)(struct pcb_cpu *this, struct pcb_cpu *owner);
	void (*unlock_stock)(struct pcb_cpu *this, struct pcb_cpu *owner, unsigned long flags);
	/* the stock's pages for memcg, and the slots that cache it */
	unsigned int (*stock_pages)(const void *stock, const struct mem_cgroup *memcg);
	int (*stock_refs)(const void *stock, const struct mem_cgroup *memcg);
	void (*stock_view)(const void *stock, struct pcb_stock_view *view);
};

enum pcb_drain_kind {
	PCB_DRAIN_WORK,			/* work on the owning CPU */
	PCB_DRAIN_REMOTE,		/* from the calling CPU, under the stock's lock */
	PCB_DRAIN_QSBR,			/* pointer swap and a grace period */
};

struct pcb_design {
	const char *name;
	const char *summary;		/* one line for `pcpbench list` */
	const char *follows;		/* the seed, patch or kernel it models */
	const char *promise;		/* what a return from drain_all_stock() means */
	enum pcb_drain_kind drain;
	int skips_isolated;		/* leaves isolated CPUs' stocks alone */
	int nocache;			/* CPUs can opt out of caching */
	const struct pcb_variant *variant[2][2];	/* [slots > 1][irq_model] */
};

extern const struct pcb_design *const pcb_designs[];
const struct pcb_design *pcb_design_find(const char *name);

enum pcb_workload {
	PCB_WL_CHARGE,
	PCB_WL_KMALLOC,
	PCB_WL_MIXED,
	PCB_WL_MULTI_MEMCG,
	PCB_WL_NR,
};

struct pcb_workload_info {
	const char *name;
	const char *summary;
};

extern const struct pcb_workload_info pcb_workloads[PCB_WL_NR];

#endif
