/* SPDX-License-Identifier: MIT */
/*
 * The per-CPU charge and object stocks of mm/memcontrol.c as Debian's
 * linux-source-7.3 (7.3.4) has them, split in two since 6.16:
 *
 *   memcg_stock (struct memcg_stock_pcp): NR_MEMCG_STOCK = 7 cached memcgs
 *	and their uint8_t nr_pages in the first cache line, a local_trylock_t
 *	taken without masking interrupts, eviction round robin (drain_idx);
 *	consume_stock() drops a slot it empties.
 *   obj_stock (struct obj_stock_pcp): NR_OBJ_STOCK = 5 cached objcgs and
 *	their uint16_t nr_bytes, the slab statistics of one of them (index)
 *	on one node (node_id) as int16_t, all in the first cache line, under
 *	a local_trylock_t of its own.
 *
 * Both are DEFINE_PER_CPU_ALIGNED, one after the other; a failed trylock
 * (the CPU is already inside the stock: an interrupt, or an NMI's charge)
 * goes to the shared counters. The functions carry their 7.3 names:
 * consume_stock(), refill_stock(), drain_stock(), drain_stock_fully(),
 * drain_local_memcg_stock(), drain_local_obj_stock(), trylock_stock(),
 * unlock_stock(), __account_obj_stock(), __consume_obj_stock(),
 * drain_obj_stock_stats(), drain_obj_stock_slot(), drain_obj_stock(),
 * obj_stock_flush_required(), __refill_obj_stock() and
 * is_memcg_drain_needed(); their callers, the slab hooks, are in
 * memcg_charge.h, drain_all_stock() in drain_7_3.h.
 *
 * Included by memcg_stock.h for MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3.
 * The design defines memcg_stock_lock_t and the three operations on it,
 * stock_trylock() (the hot paths), stock_lock() and stock_unlock(): 7.3's
 * local_trylock_t (local_trylock_7_3) or the project's series' spinlock_t
 * (spinlock_7_3, rig/series/spinlock-7.3), whose stocks have no work
 * (MEMCG_STOCK_REMOTE_DRAIN: drain_all_stock() drains them from the
 * calling CPU, drain_7_3.h).
 */
#ifndef PCB_MEMCG_STOCK_7_3_H
#define PCB_MEMCG_STOCK_7_3_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../workqueue.h"
#include "memcontrol.h"

/*
 * "The value of NR_MEMCG_STOCK is selected to keep the cached memcgs and
 * their nr_pages in a single cacheline." stock.slots does not apply: 7.3
 * fixes both counts.
 */
#define NR_MEMCG_STOCK	7
#define NR_OBJ_STOCK	5
#define FLUSHING_CACHED_CHARGE	0
#define NUMA_NO_NODE	(-1)
#define PCB_S16_MAX	32767
#define PCB_U16_MAX	65535U
#ifndef MEMCG_STOCK_REMOTE_DRAIN
#define MEMCG_STOCK_REMOTE_DRAIN 0
#endif

struct memcg_stock_pcp {
	memcg_stock_lock_t lock;
	uint8_t nr_pages[NR_MEMCG_STOCK];
	struct mem_cgroup *cached[NR_MEMCG_STOCK];

#if !MEMCG_STOCK_REMOTE_DRAIN
	struct work_struct work;
#endif
	unsigned long flags;
	uint8_t drain_idx;
};

struct obj_stock_pcp {
	memcg_stock_lock_t lock;
	int8_t index;
	int16_t node_id;
	int16_t nr_slab_reclaimable_b;
	int16_t nr_slab_unreclaimable_b;
	uint16_t nr_bytes[NR_OBJ_STOCK];	/* PAGE_SHIFT <= 16 */
	struct obj_cgroup *cached[NR_OBJ_STOCK];

#if !MEMCG_STOCK_REMOTE_DRAIN
	struct work_struct work;
#endif
	unsigned long flags;
	uint8_t drain_idx;
};

/*
 * One CPU's two DEFINE_PER_CPU_ALIGNED variables as the linker lays them
 * out in .data..percpu..shared_aligned: memcg_stock, then obj_stock at the
 * next cache line past it
 */
struct memcg_stocks {
	struct memcg_stock_pcp memcg;
	struct obj_stock_pcp obj __attribute__((aligned(SMP_CACHE_BYTES)));
} __attribute__((aligned(SMP_CACHE_BYTES)));

#if !MEMCG_STOCK_REMOTE_DRAIN
/* pahole of 7.3's mm/memcontrol.o (x86-64, no lockdep): the hot fields fill line 0 */
_Static_assert(sizeof(memcg_stock_lock_t) != 1 ||
	       (offsetof(struct memcg_stock_pcp, cached) == 8 &&
		offsetof(struct memcg_stock_pcp, work) == 64 &&
		sizeof(struct memcg_stock_pcp) == 112),
	       "memcg_stock_pcp: 7.3's layout");
_Static_assert(sizeof(memcg_stock_lock_t) != 1 ||
	       (offsetof(struct obj_stock_pcp, nr_bytes) == 8 &&
		offsetof(struct obj_stock_pcp, cached) == 24 &&
		offsetof(struct obj_stock_pcp, work) == 64 &&
		sizeof(struct obj_stock_pcp) == 112),
	       "obj_stock_pcp: 7.3's layout");
#define PCB_OBJ_STOCK_HOT_END offsetof(struct obj_stock_pcp, work)
#else
/*
 * The series' (x86-64, a four-byte spinlock_t): memcg_stock's cached[6]
 * crosses into the second line, obj_stock's hot fields still fill one
 */
_Static_assert(sizeof(memcg_stock_lock_t) != 4 ||
	       (offsetof(struct memcg_stock_pcp, cached) == 16 &&
		offsetof(struct memcg_stock_pcp, flags) == 72 &&
		sizeof(struct memcg_stock_pcp) == 88),
	       "memcg_stock_pcp: the series' layout");
_Static_assert(sizeof(memcg_stock_lock_t) != 4 ||
	       (offsetof(struct obj_stock_pcp, nr_bytes) == 12 &&
		offsetof(struct obj_stock_pcp, cached) == 24 &&
		offsetof(struct obj_stock_pcp, flags) == 64 &&
		sizeof(struct obj_stock_pcp) == 80),
	       "obj_stock_pcp: the series' layout");
#define PCB_OBJ_STOCK_HOT_END offsetof(struct obj_stock_pcp, flags)
#endif

/* both stocks' first lines: all their hot paths touch */
#define PCB_MEMCG_STOCK_HOT_BYTES (offsetof(struct memcg_stocks, obj) + PCB_OBJ_STOCK_HOT_END)

#ifndef MEMCG_STOCK_OF
#define MEMCG_STOCK_OF(cpu) pcb_cpu_cache(cpu)
#endif

/* this_cpu_ptr(&memcg_stock) and this_cpu_ptr(&obj_stock) */
static inline struct memcg_stock_pcp *this_cpu_stock(struct pcb_cpu *this)
{
	return &((struct memcg_stocks *)MEMCG_STOCK_OF(this))->memcg;
}

static inline struct obj_stock_pcp *this_cpu_obj_stock(struct pcb_cpu *this)
{
	return &((struct memcg_stocks *)MEMCG_STOCK_OF(this))->obj;
}

/* the static initializers: the lock's, .index = -1, .node_id = NUMA_NO_NODE */
static inline void memcg_stock_init(const struct pcb_cpu *cpu, struct memcg_stocks *stocks)
{
	memset(stocks, 0, sizeof(*stocks));
	memcg_stock_lock_init(cpu, &stocks->memcg);
	memcg_stock_lock_init(cpu, &stocks->obj);
	stocks->obj.index = -1;
	stocks->obj.node_id = NUMA_NO_NODE;
}

/* no CPU opts out of caching in 7.3 (the nocache design is 6.2's) */
#define stock_bypassed(this) 0

/*
 * memcg_uncharge_kmem(): mod_memcg_state(MEMCG_KMEM) and the page_counter
 * (memcg1_account_kmem() is cgroup v1's). The model's objcgs are never the
 * root's.
 */
static inline void memcg_uncharge_kmem(struct pcb_cpu *this, struct mem_cgroup *memcg,
				       unsigned int nr_pages)
{
	memcg_account_kmem(this, memcg, -(long)nr_pages);
	memcg_uncharge(this, memcg, nr_pages);
}

/* ---- the charge stock ---- */

static __always_inline bool consume_stock(struct pcb_cpu *this, struct mem_cgroup *memcg,
					  unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(this);
	uint8_t stock_pages;
	bool ret = false;
	int i;

	if (nr_pages > MEMCG_CHARGE_BATCH || !stock_trylock(this, &stock->lock))
		return ret;

	for (i = 0; i < NR_MEMCG_STOCK; ++i) {
		if (memcg != READ_ONCE(stock->cached[i]))
			continue;

		stock_pages = READ_ONCE(stock->nr_pages[i]);
		if (stock_pages >= nr_pages) {
			stock_pages -= nr_pages;
			WRITE_ONCE(stock->nr_pages[i], stock_pages);
			if (!stock_pages) {
				css_put(this, &memcg->css);
				WRITE_ONCE(stock->cached[i], NULL);
			}
			ret = true;
		}
		break;
	}

	stock_unlock(this, &stock->lock);

	return ret;
}

#include "stock_drain.h"

static __always_inline void refill_stock(struct pcb_cpu *this, struct mem_cgroup *memcg,
					 unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(this);
	struct mem_cgroup *cached;
	uint8_t stock_pages;
	bool success = false;
	int empty_slot = -1;
	int i;

	_Static_assert(MEMCG_CHARGE_BATCH <= 127, "BUILD_BUG_ON(MEMCG_CHARGE_BATCH > S8_MAX)");

	if (nr_pages > MEMCG_CHARGE_BATCH || !stock_trylock(this, &stock->lock)) {
		/*
		 * In case of larger than batch refill or unlikely failure to
		 * lock the percpu memcg_stock.lock, uncharge memcg directly.
		 */
		memcg_uncharge(this, memcg, nr_pages);
		return;
	}

	for (i = 0; i < NR_MEMCG_STOCK; ++i) {
		cached = READ_ONCE(stock->cached[i]);
		if (!cached && empty_slot == -1)
			empty_slot = i;
		if (memcg == READ_ONCE(stock->cached[i])) {
			stock_pages = (uint8_t)(READ_ONCE(stock->nr_pages[i]) + nr_pages);
			WRITE_ONCE(stock->nr_pages[i], stock_pages);
			if (stock_pages > MEMCG_CHARGE_BATCH)
				drain_stock(this, stock, i);
			success = true;
			break;
		}
	}

	if (!success) {
		i = empty_slot;
		if (i == -1) {
			i = stock->drain_idx++;
			if (stock->drain_idx == NR_MEMCG_STOCK)
				stock->drain_idx = 0;
			drain_stock(this, stock, i);
		}
		css_get(this, &memcg->css);
		WRITE_ONCE(stock->cached[i], memcg);
		WRITE_ONCE(stock->nr_pages[i], (uint8_t)nr_pages);
	}

	stock_unlock(this, &stock->lock);
}

/* clear_bit(FLUSHING_CACHED_CHARGE, &stock->flags): a locked and on x86 */
static inline void stock_clear_flush(unsigned long *flags)
{
	__atomic_fetch_and(flags, ~(1UL << FLUSHING_CACHED_CHARGE), __ATOMIC_SEQ_CST);
}

/* drain_all_stock()'s !test_bit() && needed && !test_and_set_bit(): a plain load, then a locked bts on x86 */
static inline bool stock_claim(unsigned long *flags)
{
	return !(READ_ONCE(*flags) & (1UL << FLUSHING_CACHED_CHARGE));
}

static inline bool stock_test_and_set_flush(unsigned long *flags)
{
	return !(__atomic_fetch_or(flags, 1UL << FLUSHING_CACHED_CHARGE, __ATOMIC_SEQ_CST) &
		 (1UL << FLUSHING_CACHED_CHARGE));
}

/* ---- the object stock ---- */


/* 7.3's mod_objcg_mlstate() is 6.1's: rcu_read_lock(), the memcg's lruvec state */

static __always_inline struct obj_stock_pcp *trylock_stock(struct pcb_cpu *this)
{
	struct obj_stock_pcp *stock = this_cpu_obj_stock(this);

	if (stock_trylock(this, &stock->lock))
		return stock;

	return NULL;
}

static __always_inline void unlock_stock(struct pcb_cpu *this, struct obj_stock_pcp *stock)
{
	if (stock)
		stock_unlock(this, &stock->lock);
}

/* the flush of cached statistics when the slot or node they belong to changes */
static inline void obj_stock_flush_stats(struct pcb_cpu *this, struct obj_stock_pcp *stock)
{
	struct obj_cgroup *old = READ_ONCE(stock->cached[stock->index]);
	struct pglist_data *oldpg = NODE_DATA(stock->node_id);

	if (stock->nr_slab_reclaimable_b) {
		mod_objcg_mlstate(this, old, oldpg, NR_SLAB_RECLAIMABLE_B,
				  stock->nr_slab_reclaimable_b);
		stock->nr_slab_reclaimable_b = 0;
	}
	if (stock->nr_slab_unreclaimable_b) {
		mod_objcg_mlstate(this, old, oldpg, NR_SLAB_UNRECLAIMABLE_B,
				  stock->nr_slab_unreclaimable_b);
		stock->nr_slab_unreclaimable_b = 0;
	}
}

/* Call after __refill_obj_stock() so a slot for objcg exists in the stock */
static __always_inline void __account_obj_stock(struct pcb_cpu *this, struct obj_cgroup *objcg,
						struct obj_stock_pcp *stock, int nr,
						struct pglist_data *pgdat,
						enum memcg_stat_item idx)
{
	int16_t *bytes;
	int i;

	if (!stock)
		goto direct;

	for (i = 0; i < NR_OBJ_STOCK; ++i) {
		if (READ_ONCE(stock->cached[i]) == objcg)
			break;
	}
	if (i == NR_OBJ_STOCK)
		goto direct;

	if (stock->index < 0) {
		stock->index = (int8_t)i;
		stock->node_id = (int16_t)pgdat->node_id;
	} else if (stock->index != i || stock->node_id != pgdat->node_id) {
		obj_stock_flush_stats(this, stock);
		stock->index = (int8_t)i;
		stock->node_id = (int16_t)pgdat->node_id;
	}

	bytes = (idx == NR_SLAB_RECLAIMABLE_B) ? &stock->nr_slab_reclaimable_b
					       : &stock->nr_slab_unreclaimable_b;

	/*
	 * Cache the combined value when it fits in the int16_t and either the
	 * cache was empty or the combined value is within PAGE_SIZE.
	 */
	nr += *bytes;
	if (abs(nr) <= PCB_S16_MAX && (!*bytes || abs(nr) <= (int)PAGE_SIZE)) {
		*bytes = (int16_t)nr;
		nr = 0;
	} else {
		*bytes = 0;
	}
direct:
	if (nr)
		mod_objcg_mlstate(this, objcg, pgdat, idx, nr);
}

static __always_inline bool __consume_obj_stock(struct obj_cgroup *objcg,
						struct obj_stock_pcp *stock,
						unsigned int nr_bytes)
{
	for (int i = 0; i < NR_OBJ_STOCK; ++i) {
		if (READ_ONCE(stock->cached[i]) != objcg)
			continue;
		if (stock->nr_bytes[i] >= nr_bytes) {
			stock->nr_bytes[i] = (uint16_t)(stock->nr_bytes[i] - nr_bytes);
			return true;
		}
		return false;
	}

	return false;
}

/* drain_obj_stock_stats(): the cached slab statistics back to their objcg and node */
static inline void drain_obj_stock_stats(struct pcb_cpu *this, struct obj_stock_pcp *stock)
{
	if (stock->index < 0)
		return;

	obj_stock_flush_stats(this, stock);
	stock->index = -1;
	stock->node_id = NUMA_NO_NODE;
}

/*
 * drain_obj_stock_slot(): whole pages uncharged (memcg_uncharge_kmem()),
 * the rest to the objcg's shared remainder, the reference dropped. Out of
 * line: it is the slow path of __refill_obj_stock() and the drains.
 */
static __attribute__((__noinline__, unused)) void
drain_obj_stock_slot(struct pcb_cpu *this, struct obj_stock_pcp *stock, int i)
{
	struct obj_cgroup *old = READ_ONCE(stock->cached[i]);

	if (!old)
		return;

	if (stock->nr_bytes[i]) {
		unsigned int nr_pages = stock->nr_bytes[i] >> PAGE_SHIFT;
		unsigned int nr_bytes = stock->nr_bytes[i] & (PAGE_SIZE - 1);

		if (nr_pages) {
			struct mem_cgroup *memcg;

			memcg = get_mem_cgroup_from_objcg(this, old);

			memcg_uncharge_kmem(this, memcg, nr_pages);

			css_put(this, &memcg->css);
		}

		atomic_fetch_add(&old->nr_charged_bytes, (int)nr_bytes);
		stock->nr_bytes[i] = 0;
	}

	/* Flush vmstat data when its owning slot is being drained. */
	if (stock->index == i)
		drain_obj_stock_stats(this, stock);

	WRITE_ONCE(stock->cached[i], NULL);
	obj_cgroup_put(this, old);
}

static inline void drain_obj_stock(struct pcb_cpu *this, struct obj_stock_pcp *stock)
{
	for (int i = 0; i < NR_OBJ_STOCK; ++i)
		drain_obj_stock_slot(this, stock, i);
}

static inline bool obj_stock_flush_required(struct pcb_cpu *this, struct obj_stock_pcp *stock,
					    struct mem_cgroup *root_memcg)
{
	struct obj_cgroup *objcg;
	struct mem_cgroup *memcg;
	bool flush = false;

	rcu_read_lock_model(this);
	for (int i = 0; i < NR_OBJ_STOCK; ++i) {
		objcg = READ_ONCE(stock->cached[i]);
		if (!objcg)
			continue;
		memcg = obj_cgroup_memcg(objcg);
		if (memcg && mem_cgroup_is_descendant(memcg, root_memcg)) {
			flush = true;
			break;
		}
	}
	rcu_read_unlock_model(this);

	return flush;
}

#include "objcg_uncharge.h"

static __always_inline void __refill_obj_stock(struct pcb_cpu *this, struct obj_cgroup *objcg,
					       struct obj_stock_pcp *stock, unsigned int nr_bytes,
					       bool allow_uncharge)
{
	unsigned int nr_pages = 0;
	unsigned int stock_nr_bytes;
	int i, slot = -1, empty_slot = -1;

	if (!stock) {
		nr_pages = nr_bytes >> PAGE_SHIFT;
		nr_bytes = nr_bytes & (PAGE_SIZE - 1);
		atomic_fetch_add(&objcg->nr_charged_bytes, (int)nr_bytes);
		goto out;
	}

	for (i = 0; i < NR_OBJ_STOCK; ++i) {
		struct obj_cgroup *cached = READ_ONCE(stock->cached[i]);

		if (!cached) {
			if (empty_slot == -1)
				empty_slot = i;
			continue;
		}
		if (cached == objcg) {
			slot = i;
			break;
		}
	}

	if (slot == -1) {
		slot = empty_slot;
		if (slot == -1) {
			slot = stock->drain_idx++;
			if (stock->drain_idx == NR_OBJ_STOCK)
				stock->drain_idx = 0;
			drain_obj_stock_slot(this, stock, slot);
		}
		obj_cgroup_get(this, objcg);
		stock_nr_bytes = atomic_load(&objcg->nr_charged_bytes)
				? (unsigned int)atomic_exchange(&objcg->nr_charged_bytes, 0) : 0;
		WRITE_ONCE(stock->cached[slot], objcg);

		allow_uncharge = true;	/* Allow uncharge when objcg changes */
	} else {
		stock_nr_bytes = stock->nr_bytes[slot];
	}

	stock_nr_bytes += nr_bytes;

	if ((allow_uncharge && (stock_nr_bytes > PAGE_SIZE)) || stock_nr_bytes > PCB_U16_MAX) {
		nr_pages = stock_nr_bytes >> PAGE_SHIFT;
		stock_nr_bytes &= (PAGE_SIZE - 1);
	}
	stock->nr_bytes[slot] = (uint16_t)stock_nr_bytes;

out:
	if (nr_pages)
		obj_cgroup_uncharge_pages(this, objcg, nr_pages);
}

/*
 * The pieces of one hold of the object stock by 7.3's slab hooks
 * (__memcg_slab_post_alloc_hook(), __memcg_slab_free_hook(); memcg_charge.h):
 * the stock is left locked for __account_obj_stock() and unlock_stock()
 */
static __always_inline bool slab_consume_obj_stock(struct pcb_cpu *this, struct obj_cgroup *objcg,
						   unsigned int obj_size,
						   struct obj_stock_pcp **stockp)
{
	struct obj_stock_pcp *stock = trylock_stock(this);

	*stockp = stock;
	if (stock && __consume_obj_stock(objcg, stock, obj_size))
		return true;
	unlock_stock(this, stock);
	return false;
}

static __always_inline struct obj_stock_pcp *
slab_refill_obj_stock(struct pcb_cpu *this, struct obj_cgroup *objcg, unsigned int nr_bytes,
		      bool allow_uncharge)
{
	struct obj_stock_pcp *stock = trylock_stock(this);

	__refill_obj_stock(this, objcg, stock, nr_bytes, allow_uncharge);
	return stock;
}

/* ---- draining: the two work functions, and what drain_all_stock() tests ---- */

/*
 * One stock emptied under its lock and its flag cleared: 7.3's work
 * functions on their own CPU's, the series' drain_memcg_stock_from() and
 * drain_obj_stock_from() on any CPU's, from the calling CPU
 */
static inline void drain_memcg_stock_from(struct pcb_cpu *this, struct memcg_stock_pcp *stock)
{
	stock_lock(this, &stock->lock);
	drain_stock_fully(this, stock);
	stock_clear_flush(&stock->flags);
	stock_unlock(this, &stock->lock);
}

static inline void drain_obj_stock_from(struct pcb_cpu *this, struct obj_stock_pcp *stock)
{
	stock_lock(this, &stock->lock);
	drain_obj_stock(this, stock);
	stock_clear_flush(&stock->flags);
	stock_unlock(this, &stock->lock);
}

/* drain_local_memcg_stock() and drain_local_obj_stock(): 7.3's work */
static inline void drain_local_memcg_stock(struct pcb_cpu *this)
{
	drain_memcg_stock_from(this, this_cpu_stock(this));
}

static inline void drain_local_obj_stock(struct pcb_cpu *this)
{
	drain_obj_stock_from(this, this_cpu_obj_stock(this));
}

/*
 * The work the harness delivers to a CPU: 7.3 queues each stock's work
 * apart (memcg_st->work, obj_st->work) and each drains its own stock; the
 * harness has one work a CPU (work.data is memcg_stock's), which runs the
 * work function of each stock drain_all_stock() flagged.
 */
static inline void drain_local_stock(struct pcb_cpu *this)
{
	unsigned long memcg_flags = READ_ONCE(this_cpu_stock(this)->flags);
	unsigned long obj_flags = READ_ONCE(this_cpu_obj_stock(this)->flags);

	pcb_drain_window_open(this);
	if (memcg_flags)
		drain_local_memcg_stock(this);
	if (obj_flags)
		drain_local_obj_stock(this);
	pcb_drain_window_close(this);
}

/*
 * memcg_hotplug_cpu_dead(): a CPU leaving the run, both stocks emptied.
 * 7.3 takes no lock ("no need for the local lock") and the model clears
 * the flags, as the work that will not run would have; the series takes
 * each stock's lock, which a drain from another CPU may hold, obj_stock's
 * first. The series clears no flag there; drain_*_from() does, which
 * changes nothing at teardown, the only flag being FLUSHING_CACHED_CHARGE.
 */
static inline void memcg_hotplug_cpu_dead(struct pcb_cpu *cpu)
{
#if MEMCG_STOCK_REMOTE_DRAIN
	drain_obj_stock_from(cpu, this_cpu_obj_stock(cpu));
	drain_memcg_stock_from(cpu, this_cpu_stock(cpu));
#else
	drain_obj_stock(cpu, this_cpu_obj_stock(cpu));
	drain_stock_fully(cpu, this_cpu_stock(cpu));
	WRITE_ONCE(this_cpu_obj_stock(cpu)->flags, 0);
	WRITE_ONCE(this_cpu_stock(cpu)->flags, 0);
#endif
}

/* is_memcg_drain_needed() */
static inline bool is_memcg_drain_needed(struct pcb_cpu *this, struct memcg_stock_pcp *stock,
					 struct mem_cgroup *root_memcg)
{
	struct mem_cgroup *memcg;
	bool flush = false;

	rcu_read_lock_model(this);
	for (int i = 0; i < NR_MEMCG_STOCK; ++i) {
		memcg = READ_ONCE(stock->cached[i]);
		if (!memcg)
			continue;

		if (READ_ONCE(stock->nr_pages[i]) && mem_cgroup_is_descendant(memcg, root_memcg)) {
			flush = true;
			break;
		}
	}
	rcu_read_unlock_model(this);
	return flush;
}

/*
 * drain_all_stock()'s test of each stock of a CPU, 7.3's and the
 * series' alike: not being flushed, holding something of root_memcg's
 * subtree, then claimed with test_and_set_bit()
 */
static inline bool memcg_stock_claim(struct pcb_cpu *this, struct memcg_stock_pcp *stock,
				     struct mem_cgroup *root_memcg)
{
	return stock_claim(&stock->flags) && is_memcg_drain_needed(this, stock, root_memcg) &&
	       stock_test_and_set_flush(&stock->flags);
}

static inline bool obj_stock_claim(struct pcb_cpu *this, struct obj_stock_pcp *stock,
				   struct mem_cgroup *root_memcg)
{
	return stock_claim(&stock->flags) && obj_stock_flush_required(this, stock, root_memcg) &&
	       stock_test_and_set_flush(&stock->flags);
}

/* ---- what the invariant and the tests read ---- */

static inline unsigned int stock_pages_of(const struct memcg_stocks *stocks,
					  const struct mem_cgroup *memcg)
{
	unsigned int pages = 0;

	for (int i = 0; i < NR_MEMCG_STOCK; i++)
		if (READ_ONCE(stocks->memcg.cached[i]) == memcg)
			pages += READ_ONCE(stocks->memcg.nr_pages[i]);
	return pages;
}

#endif
