/* SPDX-License-Identifier: MIT */
/*
 * The per-CPU memcg charge stock, mm/memcontrol.c (v6.2 and the 2023
 * remote-draining series, seed 000_36e02c0581c1d552).
 *
 * A template: include a design header from kernels/locks/ first. It
 * provides
 *   memcg_stock_lock_t                     the type of stock_lock
 *   MEMCG_STOCK_LAYOUT                     MEMCG_STOCK_V6_2 or MEMCG_STOCK_REMOTE
 *   memcg_stock_lock(this, stock)          -> flags (local_lock_irqsave / spin_lock_irqsave)
 *   memcg_stock_unlock(this, stock, flags)
 *   memcg_stock_lock_init(stock)
 * and every function below is then compiled for that design alone, so the
 * worker loop that includes it makes no indirect call per operation.
 *
 * Only the page stock is driven so far; the object stock fields are here
 * so that the layout, and with it the cache-line footprint, is the kernel's.
 */
#ifndef PCB_KERNELS_MEMCG_STOCK_H
#define PCB_KERNELS_MEMCG_STOCK_H

#include <string.h>

#include "memcontrol.h"

#define MEMCG_STOCK_V6_2	1	/* upstream before the series */
#define MEMCG_STOCK_REMOTE	2	/* after patches 1-5 of the series */

#ifndef MEMCG_STOCK_LAYOUT
#error "include a design header from kernels/locks/ before memcg_stock.h"
#endif

/* struct work_struct, include/linux/workqueue_types.h (32 bytes on 64-bit) */
struct list_head {
	struct list_head *next, *prev;
};

struct work_struct {
	atomic_long data;
	struct list_head entry;
	void (*func)(struct work_struct *work);
};

#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V6_2
struct memcg_stock_pcp {
	memcg_stock_lock_t stock_lock;
	struct mem_cgroup *cached; /* this never be root cgroup */
	unsigned int nr_pages;

	/* CONFIG_MEMCG_KMEM */
	struct obj_cgroup *cached_objcg;
	struct pglist_data *cached_pgdat;
	unsigned int nr_bytes;
	int nr_slab_reclaimable_b;
	int nr_slab_unreclaimable_b;

	struct work_struct work;
	unsigned long flags;
#define FLUSHING_CACHED_CHARGE	0
};
/* placed on its own cache line(s) per CPU, as DEFINE_PER_CPU_SHARED_ALIGNED (patch 1) */

/* v6.2 with an empty local_lock_t (!CONFIG_DEBUG_LOCK_ALLOC), as pahole shows */
_Static_assert(sizeof(memcg_stock_lock_t) != 0 ||
	       (offsetof(struct memcg_stock_pcp, cached) == 0 &&
		offsetof(struct memcg_stock_pcp, nr_pages) == 8 &&
		offsetof(struct memcg_stock_pcp, cached_objcg) == 16 &&
		offsetof(struct memcg_stock_pcp, nr_bytes) == 32 &&
		offsetof(struct memcg_stock_pcp, work) == 48 &&
		offsetof(struct memcg_stock_pcp, flags) == 80 &&
		sizeof(struct memcg_stock_pcp) == 88),
	       "memcg_stock_pcp: v6.2 layout");
#elif MEMCG_STOCK_LAYOUT == MEMCG_STOCK_REMOTE
struct memcg_stock_pcp {
	memcg_stock_lock_t stock_lock; /* Protects the percpu struct */
	unsigned int nr_pages;
	struct mem_cgroup *cached; /* this never be root cgroup */

	/* CONFIG_MEMCG_KMEM */
	struct obj_cgroup *cached_objcg;
	struct pglist_data *cached_pgdat;
	unsigned int nr_bytes;
	int nr_slab_reclaimable_b;
	int nr_slab_unreclaimable_b;
};

/* the 48-byte layout of patches 1-5: one cache line, no holes */
_Static_assert(sizeof(memcg_stock_lock_t) == 4, "spinlock_t is 4 bytes");
_Static_assert(offsetof(struct memcg_stock_pcp, stock_lock) == 0 &&
	       offsetof(struct memcg_stock_pcp, nr_pages) == 4 &&
	       offsetof(struct memcg_stock_pcp, cached) == 8 &&
	       offsetof(struct memcg_stock_pcp, nr_slab_unreclaimable_b) == 40,
	       "memcg_stock_pcp: layout after patches 1-5");
_Static_assert(sizeof(struct memcg_stock_pcp) == 48,
	       "memcg_stock_pcp: 48 bytes after patches 1-5");
#else
#error "unknown MEMCG_STOCK_LAYOUT"
#endif

/* the fields consume_stock() and refill_stock() touch share one cache line */
_Static_assert(offsetof(struct memcg_stock_pcp, nr_pages) < SMP_CACHE_BYTES &&
	       offsetof(struct memcg_stock_pcp, cached) < SMP_CACHE_BYTES,
	       "memcg_stock_pcp: hot fields in the first cache line");

static inline struct memcg_stock_pcp *this_cpu_stock(struct pcb_cpu *this)
{
	return (struct memcg_stock_pcp *)this->stock;
}

static inline void memcg_stock_init(struct memcg_stock_pcp *stock)
{
	memset(stock, 0, sizeof(*stock));
	memcg_stock_lock_init(stock);
}

/* consume_stock(): take nr_pages from this CPU's stock if it caches memcg */
static inline bool consume_stock(struct pcb_cpu *this, struct mem_cgroup *memcg,
				 unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock;
	unsigned long flags;
	bool ret = false;

	if (nr_pages > MEMCG_CHARGE_BATCH)
		return ret;

	stock = this_cpu_stock(this);
	flags = memcg_stock_lock(this, stock);

	if (memcg == stock->cached && stock->nr_pages >= nr_pages) {
		stock->nr_pages -= nr_pages;
		ret = true;
	}

	memcg_stock_unlock(this, stock, flags);

	return ret;
}

/*
 * drain_stock(): return the stocked pages to the page_counter and drop the
 * css reference. Called with the stock lock held; `this` is the CPU running
 * it (css_put() is per-CPU), which for remote draining is not the owner.
 */
static inline void drain_stock(struct pcb_cpu *this, struct memcg_stock_pcp *stock)
{
	struct mem_cgroup *old = stock->cached;

	if (!old)
		return;

	if (stock->nr_pages) {
		page_counter_uncharge(&old->memory, stock->nr_pages);
		/* do_memsw_account() is false on cgroup v2 */
		stock->nr_pages = 0;
	}

	css_put(this, &old->css);
	stock->cached = NULL;
}

/* __refill_stock(): cache memcg (draining another) and add nr_pages */
static inline void __refill_stock(struct pcb_cpu *this, struct mem_cgroup *memcg,
				  unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock;

	stock = this_cpu_stock(this);
	if (stock->cached != memcg) { /* reset if necessary */
		drain_stock(this, stock);
		css_get(this, &memcg->css);
		stock->cached = memcg;
	}
	stock->nr_pages += nr_pages;

	if (stock->nr_pages > MEMCG_CHARGE_BATCH)
		drain_stock(this, stock);
}

static inline void refill_stock(struct pcb_cpu *this, struct mem_cgroup *memcg,
				unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(this);
	unsigned long flags;

	flags = memcg_stock_lock(this, stock);
	__refill_stock(this, memcg, nr_pages);
	memcg_stock_unlock(this, stock, flags);
}

#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V6_2
/*
 * drain_local_stock(): the work item drain_all_stock() schedules on the
 * owning CPU. Runs on the owner only.
 */
static inline void drain_local_stock(struct pcb_cpu *this)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(this);
	unsigned long flags;

	flags = memcg_stock_lock(this, stock);
	drain_stock(this, stock);
	__atomic_fetch_and(&stock->flags, ~(1UL << FLUSHING_CACHED_CHARGE), __ATOMIC_SEQ_CST);
	memcg_stock_unlock(this, stock, flags);
}
#define MEMCG_STOCK_REMOTE_DRAIN 0
#else
/* drain_stock_from(): patch 4 of the series; any CPU may drain any stock */
static inline void drain_stock_from(struct pcb_cpu *this, struct memcg_stock_pcp *stock)
{
	unsigned long flags;

	flags = memcg_stock_lock(this, stock);
	drain_stock(this, stock);
	memcg_stock_unlock(this, stock, flags);
}

static inline void drain_local_stock(struct pcb_cpu *this)
{
	drain_stock_from(this, this_cpu_stock(this));
}
#define MEMCG_STOCK_REMOTE_DRAIN 1
#endif

#endif
