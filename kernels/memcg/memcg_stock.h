/* SPDX-License-Identifier: MIT */
/*
 * The per-CPU memcg charge and object stock, mm/memcontrol.c: v6.2, the
 * 2023 remote-draining series (seed 000), the multi-memcg stock (seed 002)
 * and today's local_trylock_t upstream.
 *
 * A template: include a design header from designs/ first. It defines
 *   memcg_stock_lock_t			the type of stock_lock
 *   MEMCG_STOCK_LAYOUT			MEMCG_STOCK_V6_2 (work + flags),
 *					MEMCG_STOCK_REMOTE_FLAGS (patches 1-4: flags, no
 *					work), MEMCG_STOCK_REMOTE (patches 1-5) or
 *					MEMCG_STOCK_V7_3 (7.3's two stocks, stock_7_3.h)
 *   MEMCG_STOCK_DRAIN_HEADER		its drain_all_stock(): "drain_work.h" (the
 *					V6_2 layout), "drain_remote.h", "drain_qsbr.h"
 *					or "drain_rseq.h" (the REMOTE layouts),
 *					"drain_7_3.h" (V7_3); a model
 *					that only charges through the stock (pcp's
 *					faults) leaves it undefined
 *   MEMCG_STOCK_SKIP_ISOLATED		no work is scheduled on isolated CPUs
 *   MEMCG_STOCK_TRYLOCK		a failed lock falls back to the page_counter
 *   MEMCG_STOCK_NOCACHE		CPUs with this->nocache bypass both stocks
 *   MEMCG_STOCK_ALIGNED		its kernel aligns memcg_stock to a cache line
 *					(stock.placement = design); else packed, v6.2's
 *   memcg_stock_lock(this, stock)	-> flags (bool trylock with MEMCG_STOCK_TRYLOCK)
 *   memcg_stock_unlock(this, stock, flags)
 *   memcg_stock_lock_init(cpu, stock)
 *   stock_trylock(this, lock), stock_lock(this, lock), stock_unlock(this, lock)
 *					V7_3's three operations on each stock's lock
 *   MEMCG_STOCK_REMOTE_DRAIN		V7_3 without work: drained from the calling CPU
 *   MEMCG_STOCK_FAST			the hit paths try memcg_stock_fast() first (rseq)
 *   DESIGN_UNAVAILABLE			why this machine cannot run the design, or NULL
 *   MEMCG_STOCK_BYPASS_STOPPED		mod_objcg_state() bypasses a stock it cannot
 *					take at once, as the others do with TRYLOCK
 * MEMCG_STOCK_SLOTS (1, or NR_MEMCG_STOCK = 7 for seed 002's layout) comes
 * from the build. Every function below is then compiled for that design
 * alone, so the worker loop that includes it makes no indirect call per
 * operation.
 */
#ifndef PCB_KERNELS_MEMCG_STOCK_H
#define PCB_KERNELS_MEMCG_STOCK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../workqueue.h"
#include "memcontrol.h"

#define MEMCG_STOCK_V6_2	1	/* upstream before the series: work + flags */
#define MEMCG_STOCK_REMOTE	2	/* after patches 1-5: no work, no flags */
#define MEMCG_STOCK_REMOTE_FLAGS 3	/* after patches 1-4, as seed 000 measured: flags, no work */
#define MEMCG_STOCK_V7_3	4	/* 7.3: two stocks, their own locks and works (stock_7_3.h) */

/* FLUSHING_CACHED_CHARGE in stock->flags: every layout but patch 5's */
#define MEMCG_STOCK_FLAGS	(MEMCG_STOCK_LAYOUT != MEMCG_STOCK_REMOTE)

#if !defined(MEMCG_STOCK_LAYOUT)
#error "include a design header from kernels/memcg/designs/ before memcg_stock.h"
#endif
#ifndef MEMCG_STOCK_SLOTS
#define MEMCG_STOCK_SLOTS 1
#endif
#ifndef MEMCG_STOCK_SKIP_ISOLATED
#define MEMCG_STOCK_SKIP_ISOLATED 0
#endif
#ifndef MEMCG_STOCK_TRYLOCK
#define MEMCG_STOCK_TRYLOCK 0
#endif
#ifndef MEMCG_STOCK_NOCACHE
#define MEMCG_STOCK_NOCACHE 0
#endif
#ifndef MEMCG_STOCK_BYPASS_STOPPED
#define MEMCG_STOCK_BYPASS_STOPPED 0
#endif
#ifndef MEMCG_STOCK_ALIGNED
#define MEMCG_STOCK_ALIGNED 0
#endif

enum memcg_fast { MEMCG_FAST_DONE, MEMCG_FAST_MISS, MEMCG_FAST_SLOW };
#ifdef MEMCG_STOCK_RSEQ
_Static_assert(MEMCG_FAST_DONE == (int)RSEQ_FAST_DONE && MEMCG_FAST_MISS == (int)RSEQ_FAST_MISS &&
	       MEMCG_FAST_SLOW == (int)RSEQ_FAST_SLOW, "rseq's outcomes are the template's");
#endif
#ifndef MEMCG_STOCK_FAST
/*
 * A hit path without the lock: *p1 == v1 (and *p2 == v2 where p2), then the
 * 32-bit counter ctr plus delta, if within [lo, hi], stored. Designs that
 * have none take the lock for every operation (MEMCG_FAST_SLOW).
 */
#define memcg_stock_fast(this, stock, p1, v1, p2, v2, ctr, is_signed, delta, lo, hi) \
	MEMCG_FAST_SLOW
#endif

/* memcg_uncharge(): straight back to the page_counter (no memsw on v2) */
static inline void memcg_uncharge(struct pcb_cpu *this, struct mem_cgroup *memcg,
				  unsigned int nr_pages)
{
	pcb_count(this, MEMCG_EV_PC_UNCHARGE);
	page_counter_uncharge(&memcg->memory, nr_pages);
}

#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3
#include "stock_7_3.h"
#else

#if MEMCG_STOCK_SLOTS > 1
/*
 * Seed 002: "The value of NR_MEMCG_STOCK is selected to keep the cached
 * memcgs and their nr_pages in a single cacheline." Every slot is searched,
 * the loop bound the constant, as in the kernel.
 */
#define NR_MEMCG_STOCK MEMCG_STOCK_SLOTS
#define MEMCG_STOCK_PAGES						\
	uint8_t nr_pages[NR_MEMCG_STOCK];				\
	struct mem_cgroup *cached[NR_MEMCG_STOCK];
#elif MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V6_2
#define MEMCG_STOCK_PAGES						\
	struct mem_cgroup *cached; /* this never be root cgroup */	\
	unsigned int nr_pages;
#else	/* patch 3: nr_pages moved into the hole after the lock */
#define MEMCG_STOCK_PAGES						\
	unsigned int nr_pages;						\
	struct mem_cgroup *cached; /* this never be root cgroup */
#endif

struct memcg_stock_pcp {
	memcg_stock_lock_t stock_lock;
	MEMCG_STOCK_PAGES

	/* CONFIG_MEMCG_KMEM */
	struct obj_cgroup *cached_objcg;
	struct pglist_data *cached_pgdat;
	unsigned int nr_bytes;
	int nr_slab_reclaimable_b;
	int nr_slab_unreclaimable_b;
#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V6_2
	struct work_struct work;
#endif
#if MEMCG_STOCK_FLAGS
	unsigned long flags;
#define FLUSHING_CACHED_CHARGE	0
#endif
};
/*
 * placed per CPU by stock.placement: packed (v6.2's DEFINE_PER_CPU) or on
 * cache lines of its own (DEFINE_PER_CPU_SHARED_ALIGNED, seed 000's patch 1/5)
 */

#if MEMCG_STOCK_SLOTS > 1
_Static_assert(sizeof(memcg_stock_lock_t) > 1 ||
	       offsetof(struct memcg_stock_pcp, cached) + sizeof(void *) * NR_MEMCG_STOCK
	       <= SMP_CACHE_BYTES, "seed 002: cached memcgs and nr_pages in one cache line");
#elif MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V6_2
/* v6.2 with an empty local_lock_t (!CONFIG_DEBUG_LOCK_ALLOC), as pahole shows */
_Static_assert(sizeof(memcg_stock_lock_t) > 1 ||
	       (offsetof(struct memcg_stock_pcp, cached) == 8 * (sizeof(memcg_stock_lock_t) != 0) &&
		offsetof(struct memcg_stock_pcp, cached_objcg) == 16 + 8 * (sizeof(memcg_stock_lock_t) != 0) &&
		offsetof(struct memcg_stock_pcp, work) == 48 + 8 * (sizeof(memcg_stock_lock_t) != 0)),
	       "memcg_stock_pcp: v6.2 layout");
_Static_assert(sizeof(memcg_stock_lock_t) != 0 || sizeof(struct memcg_stock_pcp) == 88,
	       "memcg_stock_pcp: 88 bytes in v6.2");
#elif MEMCG_STOCK_LAYOUT == MEMCG_STOCK_REMOTE_FLAGS
/* patches 1-4: lock at 0, nr_pages at 4, cached at 8, flags at 48 of 56 bytes */
_Static_assert(sizeof(memcg_stock_lock_t) != 4 ||
	       (offsetof(struct memcg_stock_pcp, nr_pages) == 4 &&
		offsetof(struct memcg_stock_pcp, cached) == 8 &&
		offsetof(struct memcg_stock_pcp, flags) == 48 &&
		sizeof(struct memcg_stock_pcp) == 56),
	       "memcg_stock_pcp: 56-byte layout after patches 1-4");
#else
/* the 48-byte layout of patches 1-5: lock at 0, nr_pages at 4, cached at 8 */
_Static_assert(sizeof(memcg_stock_lock_t) != 4 ||
	       (offsetof(struct memcg_stock_pcp, nr_pages) == 4 &&
		offsetof(struct memcg_stock_pcp, cached) == 8 &&
		sizeof(struct memcg_stock_pcp) == 48),
	       "memcg_stock_pcp: 48-byte layout after patches 1-5");
#endif

/* the fields consume_stock() and refill_stock() touch share the first line */
_Static_assert(MEMCG_STOCK_SLOTS > 1 || offsetof(struct memcg_stock_pcp, cached_objcg) < SMP_CACHE_BYTES,
	       "memcg_stock_pcp: hot fields in the first cache line");

#define PCB_MEMCG_STOCK_HOT_BYTES offsetof(struct memcg_stock_pcp, cached_objcg)

/*
 * this_cpu_ptr(&memcg_stock). With DRAIN_QSBR the pointer is RCU-protected
 * (rcu_dereference()); QSBR readers need no barrier to read it.
 */
#ifndef MEMCG_STOCK_OF
/* where a CPU keeps its stock: the harness's per-CPU cache, unless a model says */
#define MEMCG_STOCK_OF(cpu) pcb_cpu_cache(cpu)
#endif

static inline struct memcg_stock_pcp *this_cpu_stock(struct pcb_cpu *this)
{
	return (struct memcg_stock_pcp *)MEMCG_STOCK_OF(this);
}

static inline void memcg_stock_init(const struct pcb_cpu *cpu, struct memcg_stock_pcp *stock)
{
	memset(stock, 0, sizeof(*stock));
	memcg_stock_lock_init(cpu, stock);
}

#if MEMCG_STOCK_NOCACHE
#define stock_bypassed(this) unlikely(memcg_cpu(this)->nocache)
#else
#define stock_bypassed(this) 0
#endif

/*
 * The lock consume_stock() and refill_stock() take: local_trylock_irqsave()
 * where a failed trylock sends the caller to the page_counter, as upstream
 * writes "if (!local_trylock_irqsave(...)) return"; elsewhere a lock that
 * cannot fail.
 */
#if MEMCG_STOCK_TRYLOCK
#define memcg_stock_lock_hot(this, stock, flagsp) memcg_stock_trylock(this, stock, flagsp)
#else
#define memcg_stock_lock_hot(this, stock, flagsp) \
	({ *(flagsp) = memcg_stock_lock(this, stock); true; })
#endif

/* ---- the page stock ---- */

#if MEMCG_STOCK_SLOTS == 1
#include "stock_page.h"
#else
#include "stock_slots.h"
#endif

static __always_inline void refill_stock(struct pcb_cpu *this, struct mem_cgroup *memcg,
				unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(this);
	unsigned long flags;

	/* an opted-out CPU: straight to the page_counter, as consume_stock() declines first */
	if (stock_bypassed(this)) {
		memcg_uncharge(this, memcg, nr_pages);
		return;
	}
#if MEMCG_STOCK_SLOTS > 1
	/* the uint8_t nr_pages of seed 002 cannot hold more than a batch */
	if (nr_pages > MEMCG_CHARGE_BATCH) {
		memcg_uncharge(this, memcg, nr_pages);
		return;
	}
#endif
#if MEMCG_STOCK_SLOTS == 1
	/* the cached memcg's stock, still within a batch: __refill_stock()'s hit */
	if (memcg_stock_fast(this, stock, &stock->cached, memcg, NULL, NULL, &stock->nr_pages,
			     false, nr_pages, 0, MEMCG_CHARGE_BATCH) == MEMCG_FAST_DONE)
		return;
#endif
	if (!memcg_stock_lock_hot(this, stock, &flags)) {
		memcg_uncharge(this, memcg, nr_pages);
		return;
	}
	__refill_stock(this, stock, memcg, nr_pages);
	memcg_stock_unlock(this, stock, flags);
}

#include "objcg_uncharge.h"
#include "obj_stock.h"

/* ---- draining ---- */

/*
 * drain_local_stock() / drain_stock_from(): both stocks of one CPU, from
 * `this`, whose own stock is `mine` (the same one when the owner drains).
 */
static inline void drain_stock_from(struct pcb_cpu *this, struct memcg_stock_pcp *stock,
				    struct memcg_stock_pcp *mine)
{
	struct obj_cgroup *old;
	unsigned long flags;

	flags = memcg_stock_lock(this, stock);
	old = drain_obj_stock(this, stock, mine);
	drain_stock_fully(this, stock);
#if MEMCG_STOCK_FLAGS
	/* clear_bit(): a locked and on x86; patch 5 removes it */
	__atomic_fetch_and(&stock->flags, ~(1UL << FLUSHING_CACHED_CHARGE), __ATOMIC_SEQ_CST);
#endif
	memcg_stock_unlock(this, stock, flags);
	if (old)
		obj_cgroup_put(this, old);
}

/*
 * drain_all_stock()'s claim of a stock, !test_and_set_bit(FLUSHING_CACHED_CHARGE,
 * &stock->flags): a locked bts on x86. Patch 5 removes it: always claimed.
 */
static inline bool stock_claim_flush(struct memcg_stock_pcp *stock)
{
#if MEMCG_STOCK_FLAGS
	return !(__atomic_fetch_or(&stock->flags, 1UL << FLUSHING_CACHED_CHARGE,
				   __ATOMIC_SEQ_CST) & (1UL << FLUSHING_CACHED_CHARGE));
#else
	(void)stock;
	return true;
#endif
}

/* the work item drain_all_stock() schedules runs this on the owner */
static inline void drain_local_stock(struct pcb_cpu *this)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(this);

	pcb_drain_window_open(this);
	drain_stock_from(this, stock, stock);
	pcb_drain_window_close(this);
}

/* is_drain_needed() (seed 002) / the v6.2 test under rcu_read_lock() */
static inline bool is_drain_needed(struct pcb_cpu *this, struct memcg_stock_pcp *stock,
				   struct mem_cgroup *root_memcg)
{
	bool flush;

	rcu_read_lock_model(this);
#if MEMCG_STOCK_SLOTS > 1
	/* seed 002's is_drain_needed(): the object stock first */
	flush = obj_stock_flush_required(stock, root_memcg) ||
		stock_flush_required(stock, root_memcg);
#else
	/* v6.2's drain_all_stock(): the page stock first */
	flush = stock_flush_required(stock, root_memcg) ||
		obj_stock_flush_required(stock, root_memcg);
#endif
	rcu_read_unlock_model(this);
	return flush;
}
#endif	/* MEMCG_STOCK_LAYOUT != MEMCG_STOCK_V7_3 */

/*
 * drain_all_stock()'s opening and close, as every flavour writes them
 * (mm/memcontrol.c in v6.2 and 7.3): percpu_charge_mutex by trylock, "If
 * someone's already draining, avoid adding running more workers", and
 * migrate_disable() so that curcpu stays `this` over the walk.
 */
static inline bool drain_all_stock_begin(struct pcb_cpu *this)
{
	if (!mutex_trylock(&percpu_charge_mutex))
		return false;
	migrate_disable_model(this);
	return true;
}

static inline void drain_all_stock_end(struct pcb_cpu *this)
{
	migrate_enable_model(this);
	mutex_unlock(&percpu_charge_mutex);
}

/* drain_all_stock(), as the design's drain flavour does it */
#ifdef MEMCG_STOCK_DRAIN_HEADER
#include MEMCG_STOCK_DRAIN_HEADER
/* drain_all_stock() is defined: the charge path drains at the limit (memcg_charge.h) */
#define MEMCG_STOCK_DRAINS	1
#endif

#endif
