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

#include "../locks/irq.h"
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
/*
 * cpu_online_mask as a drain from the charge path walks it: the workers'
 * CPUs, registered by memcg_worker_setup() in the order they start
 */
struct memcg_online {
	int nr, max, reserved;
	struct pcb_cpu **cpu;		/* [max] */
};

struct memcg_cpu {
	struct pcb_cpu cpu;
	bool nocache;			/* this CPU opted out of the charge stock */
	bool evict_round_robin;		/* seed 002's victim: round robin, not random */
	unsigned int evict_state;	/* the victim chooser's state */
	/* per-CPU halves of each css percpu_ref (percpu_ref_get/put) */
	long css_ref[PCB_MAX_MEMCG];
	/* memcg->vmstats_percpu: this CPU's statistics deltas */
	long vmstat[PCB_MAX_MEMCG][MEMCG_NR_STAT];
	/* mem_cgroup_per_node->lruvec_stats_percpu of the one node: the same, per lruvec */
	long lruvec_stat[PCB_MAX_MEMCG][MEMCG_NR_STAT];
	/*
	 * cgroup_rstat_cpu(cgrp, cpu)'s updated_next and updated_children:
	 * this CPU's rstat tree, linked bottom-up by __cgroup_rstat_updated()
	 */
	const struct cgroup_subsys_state *rstat_next[PCB_MAX_MEMCG];
	const struct cgroup_subsys_state *rstat_children[PCB_MAX_MEMCG];
	/* memcg->vmstats_percpu events of the charge path: PGPGIN, PGPGOUT, nr_page_events */
	long events[PCB_MAX_MEMCG][MEMCG_NR_EVENTS];
	long targets[PCB_MAX_MEMCG];	/* memcg_check_events()'s next threshold */
	/* the running task's (current's) PREEMPT_RCU read-side state */
	int rcu_read_lock_nesting;
	unsigned int rcu_read_unlock_special;
	/* current->migration_disabled, and this_rq()->nr_pinned */
	unsigned short migration_disabled;
	unsigned int nr_pinned;
	/* a worker's: what its charge path drains, read at the limit alone */
	struct memcg_online *online;
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

/*
 * struct percpu_ref: in percpu mode, percpu_count_ptr is the per-CPU
 * counter's address with the two mode bits clear (__PERCPU_REF_ATOMIC,
 * __PERCPU_REF_DEAD); the model's per-CPU counters are slots of each CPU's
 * memcg_cpu.css_ref[], so the address is the slot, shifted past the bits.
 * count is atomic mode's (percpu_ref_data.count), which no run enters.
 */
#define __PERCPU_REF_ATOMIC_DEAD	3UL
#define PERCPU_REF_SLOT_SHIFT		2
struct percpu_ref {
	unsigned long percpu_count_ptr;
	atomic_long count;
};

/* CSS_NO_REF: the root's css is not reference counted */
#define CSS_NO_REF	(1U << 0)

struct cgroup_subsys_state {
	struct cgroup *cgroup;
	struct percpu_ref refcnt;
	unsigned int flags;
	unsigned int id;		/* its slot in memcg_cpu.css_ref[] */
	struct cgroup_subsys_state *parent;
};

struct mem_cgroup;

/* struct obj_cgroup, include/linux/memcontrol.h (v6.2) */
struct obj_cgroup {
	struct percpu_ref refcnt;
	unsigned int ref_id;		/* its percpu_ref's slot in memcg_cpu.css_ref[] */
	struct mem_cgroup *memcg;
	atomic_int nr_charged_bytes;
} ____cacheline_aligned;

/* one NUMA node's struct pglist_data, reduced to its identity */
struct pglist_data {
	int node_id;
};

/*
 * node_data[], each node's pglist_data for the life of the system: the one
 * node the model has. NODE_DATA(nid) is one load, as in the kernel (named
 * apart from the kernel's own, which the module sees).
 */
#define MEMCG_NR_NODES 1
extern struct pglist_data *const memcg_node_data[MEMCG_NR_NODES];
#undef NODE_DATA
#define NODE_DATA(nid) (memcg_node_data[(nid)])

/*
 * struct lruvec, reduced to the node mem_cgroup_lruvec() checks it is on
 * (named apart from the pcp model's struct lruvec, the LRU its faults fill,
 * which includes this header)
 */
struct memcg_lruvec {
	struct pglist_data *pgdat;
};

/* struct mem_cgroup_per_node: a memcg's lruvec on one node */
struct mem_cgroup_per_node {
	struct memcg_lruvec lruvec;
	struct mem_cgroup *memcg;	/* back pointer */
};

struct mem_cgroup {
	struct cgroup_subsys_state css;
	struct obj_cgroup *objcg;
	struct page_counter memory;
	struct page_counter swap;	/* v2's; try_charge_memcg() reads its usage and high */
	/* nodeinfo[]: a pointer per node (one modeled), each to its own allocation there */
	struct mem_cgroup_per_node *nodeinfo[1];
	struct mem_cgroup_per_node pn;	/* node 0's */
};

/* drain_all_stock()'s "If someone's already draining" mutex */
extern struct mutex percpu_charge_mutex;

/* memcg_rstat_updated()'s shared threshold */
extern atomic_int stats_flush_threshold;
extern int pcb_nr_online_cpus;

/*
 * in_task(): no NMI, hard interrupt or served softirq in the preempt count
 * (include/linux/preempt.h's masks, read once)
 */
static __always_inline bool memcg_in_task(const struct pcb_cpu *this)
{
	return !(preempt_nesting(this) & (0x00f00000u | 0x000f0000u | 0x00000100u));
}

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

#ifdef __KERNEL__
/* the kernel backend: the running kernel's own */
#define rcu_read_lock_model(this)	((void)(this), rcu_read_lock())
#define rcu_read_unlock_model(this)	((void)(this), rcu_read_unlock())
#define migrate_disable_model(this)	((void)(this), migrate_disable())
#define migrate_enable_model(this)	((void)(this), migrate_enable())
#else
/*
 * rcu_read_lock() of a PREEMPT_RCU kernel, as Debian's PREEMPT_DYNAMIC
 * kernels are built: __rcu_read_lock(), an out-of-line call that adds one
 * to current->rcu_read_lock_nesting, and __rcu_read_unlock(), one that
 * takes it off and, where it reaches 0, tests rcu_read_unlock_special
 * (set when the reader was preempted or a grace period waits on it, never
 * here). Debian's 6.1.192 build calls both from mod_objcg_state().
 */
static __attribute__((__noinline__, unused)) void rcu_read_lock_model(struct pcb_cpu *this)
{
	memcg_cpu(this)->rcu_read_lock_nesting++;
	__asm__ __volatile__("" ::: "memory");
}

static __attribute__((__noinline__, unused)) void rcu_read_unlock_model(struct pcb_cpu *this)
{
	struct memcg_cpu *mc = memcg_cpu(this);

	__asm__ __volatile__("" ::: "memory");
	if (--mc->rcu_read_lock_nesting == 0 && unlikely(READ_ONCE(mc->rcu_read_unlock_special)))
		mc->rcu_read_unlock_special = 0;	/* rcu_read_unlock_special() */
}

/*
 * migrate_disable() and migrate_enable() of kernel/sched/core.c (6.1,
 * !PREEMPT_RT): out-of-line calls that, outermost, count the task's
 * pin and the runqueue's inside a preempt_disable() pair; migrate_enable()
 * tests cpus_ptr against cpus_mask first, which only a migration
 * attempted meanwhile changes (never here)
 */
static __attribute__((__noinline__, unused)) void migrate_disable_model(struct pcb_cpu *this)
{
	struct memcg_cpu *mc = memcg_cpu(this);

	if (mc->migration_disabled) {
		mc->migration_disabled++;
		return;
	}
	preempt_disable(this);
	mc->nr_pinned++;
	mc->migration_disabled = 1;
	preempt_enable(this);
}

static __attribute__((__noinline__, unused)) void migrate_enable_model(struct pcb_cpu *this)
{
	struct memcg_cpu *mc = memcg_cpu(this);

	if (mc->migration_disabled > 1) {
		mc->migration_disabled--;
		return;
	}
	preempt_disable(this);
	__asm__ __volatile__("" ::: "memory");
	mc->migration_disabled = 0;
	mc->nr_pinned--;
	preempt_enable(this);
}
#endif

/*
 * this_cpu_add() on x86: one add to the per-CPU word, which nothing that
 * preempts or interrupts the CPU can split (a C += may be a load, an add
 * and a store, and the drain work delivered between them would be lost)
 */
static __always_inline void this_cpu_add_model(long *counter, long nr)
{
	__asm__ __volatile__("addq %1, %0" : "+m"(*counter) : "er"(nr) : "cc");
}

/*
 * percpu_ref_get_many()/percpu_ref_put_many(): under rcu_read_lock(), the
 * mode word read and tested, then this CPU's counter added to
 * (this_cpu_add()), or the shared count in atomic mode
 */
static inline void percpu_ref_add(struct pcb_cpu *this, struct percpu_ref *ref, long nr)
{
	unsigned long ptr;

	rcu_read_lock_model(this);
	ptr = READ_ONCE(ref->percpu_count_ptr);
	if (likely(!(ptr & __PERCPU_REF_ATOMIC_DEAD)))
		this_cpu_add_model(&memcg_cpu(this)->css_ref[ptr >> PERCPU_REF_SLOT_SHIFT], nr);
	else
		atomic_fetch_add(&ref->count, nr);
	rcu_read_unlock_model(this);
}

/* css_get()/css_put(): percpu_ref_get()/percpu_ref_put() unless CSS_NO_REF (the root) */
static inline void css_get(struct pcb_cpu *this, struct cgroup_subsys_state *css)
{
	if (!(css->flags & CSS_NO_REF))
		percpu_ref_add(this, &css->refcnt, 1);
}

static inline void css_put(struct pcb_cpu *this, struct cgroup_subsys_state *css)
{
	if (!(css->flags & CSS_NO_REF))
		percpu_ref_add(this, &css->refcnt, -1);
}

/* obj_cgroup_get()/obj_cgroup_put(): percpu_ref_get()/percpu_ref_put() */
static inline void obj_cgroup_get(struct pcb_cpu *this, struct obj_cgroup *objcg)
{
	percpu_ref_add(this, &objcg->refcnt, 1);
}

static inline void obj_cgroup_put(struct pcb_cpu *this, struct obj_cgroup *objcg)
{
	percpu_ref_add(this, &objcg->refcnt, -1);
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

	rcu_read_lock_model(this);
	memcg = obj_cgroup_memcg(objcg);
	css_get(this, &memcg->css);
	rcu_read_unlock_model(this);
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

/*
 * __cgroup_rstat_updated() (kernel/cgroup/rstat.c), out of line: the
 * speculative test that the cgroup is on this CPU's updated list already,
 * which holds from the first update after a flush to the next flush; else
 * the cgroup and its ancestors linked bottom-up under the per-CPU lock
 * (its raw_spin_lock_irqsave(): interrupts masked, the lock per CPU and
 * uncontended here). Nothing flushes the lists during a run (the kernel's
 * flush_memcg_stats_dwork does every 2 s), so the test is what each update
 * pays. The kernel reaches the per-CPU rstat data through cgrp->rstat_cpu
 * and __per_cpu_offset[cpu]; the model through the CPU's area by css id.
 */
static __attribute__((__noinline__, unused)) void
__cgroup_rstat_updated(struct pcb_cpu *this, const struct cgroup_subsys_state *css)
{
	struct memcg_cpu *mc = memcg_cpu(this);
	unsigned long flags;

	if (READ_ONCE(mc->rstat_next[css->id]))
		return;
	flags = local_irq_save_model(this);
	irq_standin_disable(this);
	for (;;) {
		const struct cgroup_subsys_state *parent = css->parent;

		if (mc->rstat_next[css->id])
			break;
		/* the root has no parent to link it to: marked busy */
		if (!parent) {
			mc->rstat_next[css->id] = css;
			break;
		}
		mc->rstat_next[css->id] = mc->rstat_children[parent->id];
		mc->rstat_children[parent->id] = css;
		css = parent;
	}
	irq_standin_enable(this);
	local_irq_restore_model(this, flags);
}

/*
 * memcg_rstat_updated(): the cgroup on this CPU's rstat list, then the
 * per-CPU update count, a shared atomic past a batch (6.1.192's, which has
 * no early return for a zero val)
 */
static inline void memcg_rstat_updated(struct pcb_cpu *this, struct mem_cgroup *memcg, long val)
{
	unsigned int *updates = memcg_stats_updates(this);
	unsigned int x;

	__cgroup_rstat_updated(this, &memcg->css);
	x = *updates += (unsigned int)(val < 0 ? -val : val);
	if (x > MEMCG_CHARGE_BATCH) {
		if (atomic_load_explicit(&stats_flush_threshold, memory_order_relaxed) <=
		    pcb_nr_online_cpus)
			atomic_fetch_add(&stats_flush_threshold, (int)(x / MEMCG_CHARGE_BATCH));
		*updates = 0;
	}
}

/*
 * The statistics functions below are calls where Debian's 6.1.192 build
 * has them out of line (vmlinux: __mod_memcg_state, mod_memcg_state,
 * memcg_account_kmem, mod_memcg_lruvec_state, __mod_memcg_lruvec_state,
 * __cgroup_rstat_updated), memcg_rstat_updated() inlined into each.
 */

/* __mod_memcg_state(): this CPU's delta, with interrupts off */
static __attribute__((__noinline__, unused)) void __mod_memcg_state(struct pcb_cpu *this, struct mem_cgroup *memcg,
				     enum memcg_stat_item idx, long val)
{
	memcg_cpu(this)->vmstat[memcg->css.id][idx] += val;
	memcg_rstat_updated(this, memcg, val);
}

/*
 * memcg_account_kmem(): mod_memcg_state(), which saves and restores
 * interrupts around __mod_memcg_state(); then cgroup_subsys_on_dfl(), a
 * static branch, true on the cgroup v2 modeled, so no kmem page_counter
 */
static __attribute__((__noinline__, unused)) void
mod_memcg_state(struct pcb_cpu *this, struct mem_cgroup *memcg, enum memcg_stat_item idx, long val)
{
	unsigned long flags = local_irq_save_model(this);

	irq_standin_disable(this);
	__mod_memcg_state(this, memcg, idx, val);
	irq_standin_enable(this);
	local_irq_restore_model(this, flags);
}

static __attribute__((__noinline__, unused)) void
memcg_account_kmem(struct pcb_cpu *this, struct mem_cgroup *memcg, long nr_pages)
{
	mod_memcg_state(this, memcg, MEMCG_KMEM, nr_pages);
}

/*
 * mem_cgroup_lruvec(): the memcg's lruvec on pgdat, its pgdat set where it
 * is not yet (the first call after the memcg was created, on any CPU: a
 * race between CPUs storing the same pointer, plain accesses in the kernel)
 */
static inline struct memcg_lruvec *mem_cgroup_lruvec(struct mem_cgroup *memcg, struct pglist_data *pgdat)
{
	struct memcg_lruvec *lruvec = &memcg->nodeinfo[pgdat->node_id]->lruvec;

	if (unlikely(READ_ONCE(lruvec->pgdat) != pgdat))
		WRITE_ONCE(lruvec->pgdat, pgdat);
	return lruvec;
}

/*
 * __mod_memcg_lruvec_state(): the memcg's and the lruvec's per-CPU deltas
 * (__memcg_stats_lock() is preempt_disable_nested(), nothing on !RT)
 */
static __attribute__((__noinline__, unused)) void
__mod_memcg_lruvec_state(struct pcb_cpu *this, struct memcg_lruvec *lruvec,
			 enum memcg_stat_item idx, long val)
{
	struct mem_cgroup_per_node *pn = (struct mem_cgroup_per_node *)
		((char *)lruvec - offsetof(struct mem_cgroup_per_node, lruvec));
	struct mem_cgroup *memcg = pn->memcg;

	memcg_cpu(this)->vmstat[memcg->css.id][idx] += val;
	memcg_cpu(this)->lruvec_stat[memcg->css.id][idx] += val;
	memcg_rstat_updated(this, memcg, val);
}

/* mod_memcg_lruvec_state(): local_irq_save() around it */
static __attribute__((__noinline__, unused)) void
mod_memcg_lruvec_state(struct pcb_cpu *this, struct memcg_lruvec *lruvec,
		       enum memcg_stat_item idx, long val)
{
	unsigned long flags = local_irq_save_model(this);

	irq_standin_disable(this);
	__mod_memcg_lruvec_state(this, lruvec, idx, val);
	irq_standin_enable(this);
	local_irq_restore_model(this, flags);
}

/* mod_objcg_mlstate() (6.1.192, memcontrol.c 2867): the objcg's memcg's lruvec on pgdat */
static inline void mod_objcg_mlstate(struct pcb_cpu *this, struct obj_cgroup *objcg,
				     struct pglist_data *pgdat, enum memcg_stat_item idx, int nr)
{
	struct mem_cgroup *memcg;
	struct memcg_lruvec *lruvec;

	rcu_read_lock_model(this);
	memcg = obj_cgroup_memcg(objcg);
	lruvec = mem_cgroup_lruvec(memcg, pgdat);
	mod_memcg_lruvec_state(this, lruvec, idx, nr);
	rcu_read_unlock_model(this);
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
/* the same of the memcg's lruvec on the one node */
long memcg_lruvec_stat_sum(const struct mem_cgroup *memcg, enum memcg_stat_item idx,
			   struct pcb_cpu *const *cpus, int nr);

#endif
