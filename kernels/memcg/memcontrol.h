/* SPDX-License-Identifier: MIT */
/*
 * struct mem_cgroup and its css, reduced to what the per-CPU charge stock
 * touches (mm/memcontrol.c, include/linux/memcontrol.h, v6.2): the memory
 * page_counter and the css reference count. cgroup v2 is modeled, so
 * do_memsw_account() is false and memsw is never charged.
 */
#ifndef PCB_KERNELS_MEMCONTROL_H
#define PCB_KERNELS_MEMCONTROL_H

#include <stdbool.h>

#include "../mutex.h"
#include "../percpu.h"
#include "page_counter.h"

/* mm/memcontrol.c */
#define MEMCG_CHARGE_BATCH 64U
#ifndef PAGE_SHIFT
#define PAGE_SHIFT 12			/* the kernel backend: the kernel's, the same */
#endif

/* css ids the per-CPU reference counts and statistics can hold */
#define PCB_MAX_MEMCG 128
/* memcg ids below this; objcg reference counts use the slots above */
#define PCB_MAX_MEMCG_IDS (PCB_MAX_MEMCG / 2)

/* memcg statistics the stock updates (memcg_stat_item / node_stat_item) */
enum memcg_stat_item {
	MEMCG_KMEM,
	NR_SLAB_RECLAIMABLE_B,
	NR_SLAB_UNRECLAIMABLE_B,
	MEMCG_NR_STAT,
};

/* what the workloads count, per CPU, as the kernel's vm_event counters */
enum memcg_event {
	MEMCG_EV_STOCK_HIT,		/* consume_stock() served the charge */
	MEMCG_EV_STOCK_MISS,		/* it did not: the page_counter is charged */
	MEMCG_EV_PC_CHARGE,		/* page_counter_try_charge() calls */
	MEMCG_EV_PC_UNCHARGE,		/* page_counter_uncharge() calls */
	MEMCG_EV_RSEQ_ABORT,		/* rseq: hit-path sections the kernel aborted */
	MEMCG_NR_EV,
};
_Static_assert(MEMCG_NR_EV <= PCB_MAX_EV, "memcg events fit the per-CPU counters");

/* the charge path's per-CPU events (memcg_vm_event_item and nr_page_events) */
enum memcg_charge_event {
	PGPGIN,
	PGPGOUT,
	NR_PAGE_EVENTS,
	MEMCG_NR_EVENTS,
};

/*
 * The memcg model's per-CPU data: the modeled CPU, then what mm/memcontrol.c
 * keeps per CPU besides the stock.
 */
struct memcg_cpu {
	struct pcb_cpu cpu;
	bool nocache;			/* this CPU opted out of the charge stock */
	bool evict_round_robin;		/* seed 002's victim: round robin, not random */
	unsigned int evict_state;	/* the victim chooser's state */
	/* per-CPU halves of each css percpu_ref (percpu_ref_get/put) */
	long css_ref[PCB_MAX_MEMCG];
	/* memcg->vmstats_percpu: this CPU's statistics deltas */
	long vmstat[PCB_MAX_MEMCG][MEMCG_NR_STAT];
	/* memcg->vmstats_percpu events of the charge path: PGPGIN, PGPGOUT, nr_page_events */
	long events[PCB_MAX_MEMCG][MEMCG_NR_EVENTS];
	long targets[PCB_MAX_MEMCG];	/* memcg_check_events()'s next threshold */
} ____cacheline_aligned;

/* this CPU's memcg data: the modeled CPU is its first member */
static inline struct memcg_cpu *memcg_cpu(struct pcb_cpu *cpu)
{
	return (struct memcg_cpu *)cpu;
}

/* struct cgroup, reduced to what cgroup_is_descendant() reads (v6.2) */
struct cgroup {
	int level;			/* 0 for the root */
	struct cgroup *ancestors[];	/* ancestors[level] is this cgroup */
};

struct cgroup_subsys_state {
	struct cgroup *cgroup;
	unsigned int id;		/* index into pcb_cpu.css_ref[] */
	struct cgroup_subsys_state *parent;
};

struct mem_cgroup;

/* struct obj_cgroup, include/linux/memcontrol.h (v6.2) */
struct obj_cgroup {
	unsigned int ref_id;		/* its percpu_ref's slot in pcb_cpu.css_ref[] */
	struct mem_cgroup *memcg;
	atomic_int nr_charged_bytes;
} ____cacheline_aligned;

/* one NUMA node's struct pglist_data, reduced to its identity */
struct pglist_data {
	int node_id;
};

struct mem_cgroup {
	struct cgroup_subsys_state css;
	struct obj_cgroup *objcg;
	struct page_counter memory;
};

/* drain_all_stock()'s "If someone's already draining" mutex */
extern struct mutex percpu_charge_mutex;

/* memcg_rstat_updated()'s shared threshold */
extern atomic_int stats_flush_threshold;
extern int pcb_nr_online_cpus;

static inline bool mem_cgroup_is_root(const struct mem_cgroup *memcg)
{
	return memcg->css.parent == NULL;
}

static inline struct mem_cgroup *mem_cgroup_from_css(struct cgroup_subsys_state *css)
{
	return css ? (struct mem_cgroup *)((char *)css - offsetof(struct mem_cgroup, css)) : NULL;
}

static inline struct mem_cgroup *parent_mem_cgroup(struct mem_cgroup *memcg)
{
	return mem_cgroup_from_css(memcg->css.parent);
}

/*
 * css_get()/css_put(): percpu_ref_get_many()/percpu_ref_put_many() in percpu
 * mode, a this_cpu_add() under rcu_read_lock(). The root css is CSS_NO_REF.
 */
static inline void css_get(struct pcb_cpu *this, struct cgroup_subsys_state *css)
{
	if (!css->parent)
		return;
	preempt_disable(this);
	memcg_cpu(this)->css_ref[css->id]++;
	preempt_enable(this);
}

static inline void css_put(struct pcb_cpu *this, struct cgroup_subsys_state *css)
{
	if (!css->parent)
		return;
	preempt_disable(this);
	memcg_cpu(this)->css_ref[css->id]--;
	preempt_enable(this);
}

/* obj_cgroup_get()/obj_cgroup_put(): percpu_ref in percpu mode */
static inline void obj_cgroup_get(struct pcb_cpu *this, struct obj_cgroup *objcg)
{
	preempt_disable(this);
	memcg_cpu(this)->css_ref[objcg->ref_id]++;
	preempt_enable(this);
}

static inline void obj_cgroup_put(struct pcb_cpu *this, struct obj_cgroup *objcg)
{
	preempt_disable(this);
	memcg_cpu(this)->css_ref[objcg->ref_id]--;
	preempt_enable(this);
}

static inline struct mem_cgroup *obj_cgroup_memcg(struct obj_cgroup *objcg)
{
	return READ_ONCE(objcg->memcg);
}

/* get_mem_cgroup_from_objcg(): css_tryget() never fails on a live memcg */
static inline struct mem_cgroup *get_mem_cgroup_from_objcg(struct pcb_cpu *this,
							    struct obj_cgroup *objcg)
{
	struct mem_cgroup *memcg;

	preempt_disable(this);			/* rcu_read_lock() */
	memcg = obj_cgroup_memcg(objcg);
	css_get(this, &memcg->css);
	preempt_enable(this);			/* rcu_read_unlock() */
	return memcg;
}

/*
 * stats_updates, memcg_rstat_updated()'s per-CPU count: an unsigned int
 * DEFINE_PER_CPU'd right after memcg_stock in 6.1's memcontrol.c, so that
 * where the stock is packed it shares the stock's last cache line (Debian's
 * 6.1.192 cloud kernel, System.map: memcg_stock at 0x2e640, 88 bytes,
 * stats_updates at 0x2e698), and where it is aligned it is on another
 * line. It is the variable after the stock in the CPU's area.
 */
static inline unsigned int *memcg_stats_updates(struct pcb_cpu *this)
{
	return this->stock_next;
}

/* memcg_rstat_updated(): per-CPU update count, a shared atomic past a batch */
static inline void memcg_rstat_updated(struct pcb_cpu *this, long val)
{
	unsigned int *updates = memcg_stats_updates(this);
	unsigned int x;

	if (!val)
		return;
	x = *updates += (unsigned int)(val < 0 ? -val : val);
	if (x > MEMCG_CHARGE_BATCH) {
		if (atomic_load_explicit(&stats_flush_threshold, memory_order_relaxed) <=
		    pcb_nr_online_cpus)
			atomic_fetch_add(&stats_flush_threshold, (int)(x / MEMCG_CHARGE_BATCH));
		*updates = 0;
	}
}

/* __mod_memcg_state() and __mod_memcg_lruvec_state(): this CPU's delta */
static inline void __mod_memcg_state(struct pcb_cpu *this, struct mem_cgroup *memcg,
				     enum memcg_stat_item idx, long val)
{
	memcg_cpu(this)->vmstat[memcg->css.id][idx] += val;
	memcg_rstat_updated(this, val);
}

/* mod_memcg_state(): local_irq_save() around it in the kernel */
static inline void memcg_account_kmem(struct pcb_cpu *this, struct mem_cgroup *memcg, long nr_pages)
{
	preempt_disable(this);
	__mod_memcg_state(this, memcg, MEMCG_KMEM, nr_pages);
	preempt_enable(this);
}

/* mod_objcg_mlstate(): the lruvec of the objcg's memcg on pgdat */
static inline void mod_objcg_mlstate(struct pcb_cpu *this, struct obj_cgroup *objcg,
				     struct pglist_data *pgdat, enum memcg_stat_item idx, int nr)
{
	struct mem_cgroup *memcg;

	(void)pgdat;
	preempt_disable(this);			/* rcu_read_lock() */
	memcg = obj_cgroup_memcg(objcg);
	__mod_memcg_state(this, memcg, idx, nr);
	preempt_enable(this);
}

/* mem_cgroup_is_descendant(): cgroup_is_descendant(), one level test and one load (v6.2) */
static inline bool mem_cgroup_is_descendant(struct mem_cgroup *memcg,
					    struct mem_cgroup *root)
{
	struct cgroup *cgrp = memcg->css.cgroup, *ancestor = root->css.cgroup;

	if (cgrp->level < ancestor->level)
		return false;
	return cgrp->ancestors[ancestor->level] == ancestor;
}

static inline int memcg_level(const struct mem_cgroup *memcg)
{
	return memcg->css.cgroup->level;
}

/*
 * A memcg tree: the root, a chain of depth - 2 intermediate groups, then
 * nr_leaves leaves (depth 2, one leaf: root and test.slice, as in 000).
 */
struct memcg_tree {
	int nr;
	int depth;
	int nr_leaves;
	struct mem_cgroup **memcg;	/* [0] is the root */
	struct mem_cgroup **leaf;
	struct pglist_data *pgdat;	/* [nr_nodes]: one node is modeled */
	int nr_nodes;
};

int memcg_tree_create(struct memcg_tree *tree, int depth, int nr_leaves);
void memcg_tree_destroy(struct memcg_tree *tree);
/* sum of a css's (or its objcg's) per-CPU references over the given CPUs */
long memcg_css_refs(const struct mem_cgroup *memcg, struct pcb_cpu *const *cpus, int nr);
long memcg_objcg_refs(const struct mem_cgroup *memcg, struct pcb_cpu *const *cpus, int nr);
/* sum of a statistic's per-CPU deltas */
long memcg_stat_sum(const struct mem_cgroup *memcg, enum memcg_stat_item idx,
		    struct pcb_cpu *const *cpus, int nr);

#endif
