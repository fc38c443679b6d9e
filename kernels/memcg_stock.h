/* SPDX-License-Identifier: MIT */
/*
 * The per-CPU memcg charge and object stock, mm/memcontrol.c: v6.2, the
 * 2023 remote-draining series (seed 000), the multi-memcg stock (seed 002)
 * and today's local_trylock_t upstream.
 *
 * A template: include a design header from kernels/locks/ first. It defines
 *   memcg_stock_lock_t			the type of stock_lock
 *   MEMCG_STOCK_LAYOUT			MEMCG_STOCK_V6_2 (work + flags) or MEMCG_STOCK_REMOTE
 *   MEMCG_STOCK_DRAIN			DRAIN_WORK, DRAIN_REMOTE or DRAIN_QSBR
 *   MEMCG_STOCK_SKIP_ISOLATED		no work is scheduled on isolated CPUs
 *   MEMCG_STOCK_TRYLOCK		a failed lock falls back to the page_counter
 *   MEMCG_STOCK_NOCACHE		CPUs with this->nocache bypass both stocks
 *   memcg_stock_lock(this, stock)	-> flags (bool trylock with MEMCG_STOCK_TRYLOCK)
 *   memcg_stock_unlock(this, stock, flags)
 *   memcg_stock_lock_init(stock)
 * MEMCG_STOCK_SLOTS (1, or NR_MEMCG_STOCK = 7 for seed 002's layout) comes
 * from the build. Every function below is then compiled for that design
 * alone, so the worker loop that includes it makes no indirect call per
 * operation.
 */
#ifndef PCB_KERNELS_MEMCG_STOCK_H
#define PCB_KERNELS_MEMCG_STOCK_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memcontrol.h"

#define MEMCG_STOCK_V6_2	1	/* upstream before the series: work + flags */
#define MEMCG_STOCK_REMOTE	2	/* after patches 1-5: no work, no flags */

#define DRAIN_WORK		1	/* schedule_work_on() + drain_local_stock() */
#define DRAIN_REMOTE		2	/* drain_stock_from() on the calling CPU */
#define DRAIN_QSBR		3	/* swap the stock, synchronize_rcu(), drain the old one */

#ifndef MEMCG_STOCK_LAYOUT
#error "include a design header from kernels/locks/ before memcg_stock.h"
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

/* struct work_struct, include/linux/workqueue.h (32 bytes on 64-bit) */
struct list_head {
	struct list_head *next, *prev;
};

struct work_struct {
	atomic_long data;		/* bit 0: WORK_STRUCT_PENDING */
	struct list_head entry;
	void (*func)(struct work_struct *work);
};

#if MEMCG_STOCK_SLOTS > 1
/*
 * Seed 002: "The value of NR_MEMCG_STOCK is selected to keep the cached
 * memcgs and their nr_pages in a single cacheline." The slots searched are
 * this->nr_slots (1..7), read once per call; the kernel's bound is the
 * constant 7.
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
	unsigned long flags;
#define FLUSHING_CACHED_CHARGE	0
#endif
};
/* placed on its own cache line(s) per CPU: DEFINE_PER_CPU_SHARED_ALIGNED (patch 1) */

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
static inline struct memcg_stock_pcp *this_cpu_stock(struct pcb_cpu *this)
{
	return (struct memcg_stock_pcp *)READ_ONCE(this->stock);
}

static inline void memcg_stock_init(struct memcg_stock_pcp *stock)
{
	memset(stock, 0, sizeof(*stock));
	memcg_stock_lock_init(stock);
}

#if MEMCG_STOCK_NOCACHE
#define stock_bypassed(this) unlikely((this)->nocache)
#else
#define stock_bypassed(this) 0
#endif

#if MEMCG_STOCK_TRYLOCK
/* local_trylock_irqsave(); false means the page_counter is used directly */
#define STOCK_LOCK_OR(this, stock, flags, fallback)			\
	do { if (!memcg_stock_trylock(this, stock, &(flags))) { fallback; } } while (0)
#else
#define STOCK_LOCK_OR(this, stock, flags, fallback)			\
	do { (flags) = memcg_stock_lock(this, stock); } while (0)
#endif

/* memcg_uncharge(): straight back to the page_counter */
static inline void memcg_uncharge(struct pcb_cpu *this, struct mem_cgroup *memcg,
				  unsigned int nr_pages)
{
	pcb_count(this, PCB_EV_PC_UNCHARGE);
	page_counter_uncharge(&memcg->memory, nr_pages);
}

/* ---- the page stock ---- */

#if MEMCG_STOCK_SLOTS == 1
static inline bool consume_stock(struct pcb_cpu *this, struct mem_cgroup *memcg,
				 unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock;
	unsigned long flags;
	bool ret = false;

	if (nr_pages > MEMCG_CHARGE_BATCH || stock_bypassed(this))
		return ret;

	stock = this_cpu_stock(this);
	STOCK_LOCK_OR(this, stock, flags, return ret);

	/* READ_ONCE/WRITE_ONCE as later kernels mark them: the same instructions */
	if (memcg == READ_ONCE(stock->cached) && READ_ONCE(stock->nr_pages) >= nr_pages) {
		WRITE_ONCE(stock->nr_pages, stock->nr_pages - nr_pages);
		ret = true;
	}

	memcg_stock_unlock(this, stock, flags);

	return ret;
}

/*
 * drain_stock(): return the stocked pages to the page_counter and drop the
 * css reference. Called with the stock lock held (or the stock private);
 * `this` is the CPU running it (css_put() is per-CPU), which for remote
 * draining is not the owner.
 */
static inline void drain_stock(struct pcb_cpu *this, struct memcg_stock_pcp *stock)
{
	struct mem_cgroup *old = READ_ONCE(stock->cached);

	if (!old)
		return;

	if (stock->nr_pages) {
		memcg_uncharge(this, old, stock->nr_pages);
		/* do_memsw_account() is false on cgroup v2 */
		WRITE_ONCE(stock->nr_pages, 0);
	}

	css_put(this, &old->css);
	WRITE_ONCE(stock->cached, NULL);
}

#define drain_stock_fully drain_stock

/*
 * __refill_stock(): cache memcg (draining another) and add nr_pages to this
 * CPU's stock. The kernel's this_cpu_ptr() comes in as `stock`, dereferenced
 * once by the caller: with DRAIN_QSBR a second read could see a swapped-in
 * spare in the middle of the operation.
 */
static inline void __refill_stock(struct pcb_cpu *this, struct memcg_stock_pcp *stock,
				  struct mem_cgroup *memcg, unsigned int nr_pages)
{
	if (stock_bypassed(this)) {
		memcg_uncharge(this, memcg, nr_pages);
		return;
	}
	if (stock->cached != memcg) { /* reset if necessary */
		drain_stock(this, stock);
		css_get(this, &memcg->css);
		WRITE_ONCE(stock->cached, memcg);
	}
	WRITE_ONCE(stock->nr_pages, stock->nr_pages + nr_pages);

	if (stock->nr_pages > MEMCG_CHARGE_BATCH)
		drain_stock(this, stock);
}

/* pages stock holds for memcg */
static inline unsigned int stock_pages_of(const struct memcg_stock_pcp *stock,
					  const struct mem_cgroup *memcg)
{
	return READ_ONCE(stock->cached) == memcg ? READ_ONCE(stock->nr_pages) : 0;
}


/* is_drain_needed()'s page part: a cached descendant with pages */
static inline bool stock_flush_required(struct memcg_stock_pcp *stock, struct mem_cgroup *root)
{
	struct mem_cgroup *memcg = READ_ONCE(stock->cached);

	return memcg && READ_ONCE(stock->nr_pages) && mem_cgroup_is_descendant(memcg, root);
}
#else	/* seed 002 */

static inline bool consume_stock(struct pcb_cpu *this, struct mem_cgroup *memcg,
				 unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock;
	uint8_t stock_pages;
	unsigned long flags;
	bool ret = false;
	int i, n;

	if (nr_pages > MEMCG_CHARGE_BATCH || stock_bypassed(this))
		return ret;

	stock = this_cpu_stock(this);
	STOCK_LOCK_OR(this, stock, flags, return ret);

	n = this->nr_slots;
	for (i = 0; i < n; ++i) {
		if (memcg != READ_ONCE(stock->cached[i]))
			continue;

		stock_pages = READ_ONCE(stock->nr_pages[i]);
		if (stock_pages >= nr_pages) {
			WRITE_ONCE(stock->nr_pages[i], stock_pages - nr_pages);
			ret = true;
		}
		break;
	}

	memcg_stock_unlock(this, stock, flags);

	return ret;
}

static inline void drain_stock_slot(struct pcb_cpu *this, struct memcg_stock_pcp *stock, int i)
{
	struct mem_cgroup *old = READ_ONCE(stock->cached[i]);
	uint8_t stock_pages;

	if (!old)
		return;

	stock_pages = READ_ONCE(stock->nr_pages[i]);
	if (stock_pages) {
		memcg_uncharge(this, old, stock_pages);
		WRITE_ONCE(stock->nr_pages[i], 0);
	}

	css_put(this, &old->css);
	WRITE_ONCE(stock->cached[i], NULL);
}

static inline void drain_stock_fully(struct pcb_cpu *this, struct memcg_stock_pcp *stock)
{
	for (int i = 0; i < NR_MEMCG_STOCK; ++i)
		drain_stock_slot(this, stock, i);
}

/* the slot to evict: get_random_u32_below(), or round robin (a knob) */
static inline int stock_victim(struct pcb_cpu *this, int n)
{
	uint32_t x = this->evict_state;

	if (this->evict_round_robin) {
		this->evict_state = (x + 1) % (unsigned int)n;
		return (int)this->evict_state;
	}
	/* get_random_u32_below(): a per-CPU xorshift32 */
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	this->evict_state = x;
	return (int)(((uint64_t)x * (uint32_t)n) >> 32);
}

static inline void __refill_stock(struct pcb_cpu *this, struct memcg_stock_pcp *stock,
				  struct mem_cgroup *memcg, unsigned int nr_pages)
{
	struct mem_cgroup *cached;
	uint8_t stock_pages;
	bool success = false;
	int empty_slot = -1;
	int i, n = this->nr_slots;

	if (stock_bypassed(this)) {
		memcg_uncharge(this, memcg, nr_pages);
		return;
	}
	for (i = 0; i < n; ++i) {
		cached = READ_ONCE(stock->cached[i]);
		if (!cached && empty_slot == -1)
			empty_slot = i;
		if (memcg == READ_ONCE(stock->cached[i])) {
			stock_pages = READ_ONCE(stock->nr_pages[i]) + nr_pages;
			WRITE_ONCE(stock->nr_pages[i], stock_pages);
			if (stock_pages > MEMCG_CHARGE_BATCH)
				drain_stock_slot(this, stock, i);
			success = true;
			break;
		}
	}

	if (!success) {
		i = empty_slot;
		if (i == -1) {
			i = stock_victim(this, n);
			drain_stock_slot(this, stock, i);
		}
		css_get(this, &memcg->css);
		WRITE_ONCE(stock->cached[i], memcg);
		WRITE_ONCE(stock->nr_pages[i], nr_pages);
	}
}

static inline unsigned int stock_pages_of(const struct memcg_stock_pcp *stock,
					  const struct mem_cgroup *memcg)
{
	unsigned int pages = 0;

	for (int i = 0; i < NR_MEMCG_STOCK; i++)
		if (READ_ONCE(stock->cached[i]) == memcg)
			pages += READ_ONCE(stock->nr_pages[i]);
	return pages;
}


static inline bool stock_flush_required(struct memcg_stock_pcp *stock, struct mem_cgroup *root)
{
	for (int i = 0; i < NR_MEMCG_STOCK; ++i) {
		struct mem_cgroup *memcg = READ_ONCE(stock->cached[i]);

		if (memcg && READ_ONCE(stock->nr_pages[i]) && mem_cgroup_is_descendant(memcg, root))
			return true;
	}
	return false;
}
#endif

static inline void refill_stock(struct pcb_cpu *this, struct mem_cgroup *memcg,
				unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(this);
	unsigned long flags;

#if MEMCG_STOCK_SLOTS > 1
	/* the uint8_t nr_pages of seed 002 cannot hold more than a batch */
	if (nr_pages > MEMCG_CHARGE_BATCH) {
		memcg_uncharge(this, memcg, nr_pages);
		return;
	}
#endif
	STOCK_LOCK_OR(this, stock, flags, memcg_uncharge(this, memcg, nr_pages); return);
	__refill_stock(this, stock, memcg, nr_pages);
	memcg_stock_unlock(this, stock, flags);
}

/* ---- the object stock ---- */

/*
 * drain_obj_stock(): whole pages back to the page stock, the rest to the
 * objcg's shared remainder, cached vmstat deltas flushed. Returns the objcg
 * whose reference the caller drops outside the lock.
 */
static inline struct obj_cgroup *drain_obj_stock(struct pcb_cpu *this,
						 struct memcg_stock_pcp *stock,
						 struct memcg_stock_pcp *mine)
{
	struct obj_cgroup *old = stock->cached_objcg;

	if (!old)
		return NULL;

	if (stock->nr_bytes) {
		unsigned int nr_pages = stock->nr_bytes >> PAGE_SHIFT;
		unsigned int nr_bytes = stock->nr_bytes & (PAGE_SIZE - 1);

		if (nr_pages) {
			struct mem_cgroup *memcg;

			memcg = get_mem_cgroup_from_objcg(this, old);

			memcg_account_kmem(this, memcg, -(long)nr_pages);
			/*
			 * __refill_stock() works on this_cpu_ptr(&memcg_stock), `mine`:
			 * with a remote drain (patch 4) the pages land in the drainer's
			 * own stock, not in the one being drained, as in the series.
			 */
			__refill_stock(this, mine, memcg, nr_pages);

			css_put(this, &memcg->css);
		}

		atomic_fetch_add(&old->nr_charged_bytes, (int)nr_bytes);
		stock->nr_bytes = 0;
	}

	if (stock->nr_slab_reclaimable_b || stock->nr_slab_unreclaimable_b) {
		if (stock->nr_slab_reclaimable_b) {
			mod_objcg_mlstate(this, old, stock->cached_pgdat, NR_SLAB_RECLAIMABLE_B,
					  stock->nr_slab_reclaimable_b);
			stock->nr_slab_reclaimable_b = 0;
		}
		if (stock->nr_slab_unreclaimable_b) {
			mod_objcg_mlstate(this, old, stock->cached_pgdat, NR_SLAB_UNRECLAIMABLE_B,
					  stock->nr_slab_unreclaimable_b);
			stock->nr_slab_unreclaimable_b = 0;
		}
		stock->cached_pgdat = NULL;
	}

	WRITE_ONCE(stock->cached_objcg, NULL);
	return old;
}

static inline bool obj_stock_flush_required(struct memcg_stock_pcp *stock,
					    struct mem_cgroup *root_memcg)
{
	struct obj_cgroup *objcg = READ_ONCE(stock->cached_objcg);
	struct mem_cgroup *memcg;

	if (objcg) {
		memcg = obj_cgroup_memcg(objcg);
		if (memcg && mem_cgroup_is_descendant(memcg, root_memcg))
			return true;
	}
	return false;
}

/* mod_objcg_state(): slab vmstat deltas cached per CPU up to a page */
static inline void mod_objcg_state(struct pcb_cpu *this, struct obj_cgroup *objcg,
				   struct pglist_data *pgdat, enum pcb_stat_item idx, int nr)
{
	struct memcg_stock_pcp *stock;
	struct obj_cgroup *old = NULL;
	unsigned long flags;
	int *bytes;

	if (stock_bypassed(this)) {
		mod_objcg_mlstate(this, objcg, pgdat, idx, nr);
		return;
	}
	stock = this_cpu_stock(this);
	/* local_trylock upstream takes the lock unconditionally here */
	flags = memcg_stock_lock(this, stock);

	if (stock->cached_objcg != objcg) {
		old = drain_obj_stock(this, stock, stock);
		obj_cgroup_get(this, objcg);
		stock->nr_bytes = atomic_load(&objcg->nr_charged_bytes)
				? (unsigned int)atomic_exchange(&objcg->nr_charged_bytes, 0) : 0;
		WRITE_ONCE(stock->cached_objcg, objcg);
		stock->cached_pgdat = pgdat;
	} else if (stock->cached_pgdat != pgdat) {
		/* Flush the existing cached vmstat data */
		struct pglist_data *oldpg = stock->cached_pgdat;

		if (stock->nr_slab_reclaimable_b) {
			mod_objcg_mlstate(this, objcg, oldpg, NR_SLAB_RECLAIMABLE_B,
					  stock->nr_slab_reclaimable_b);
			stock->nr_slab_reclaimable_b = 0;
		}
		if (stock->nr_slab_unreclaimable_b) {
			mod_objcg_mlstate(this, objcg, oldpg, NR_SLAB_UNRECLAIMABLE_B,
					  stock->nr_slab_unreclaimable_b);
			stock->nr_slab_unreclaimable_b = 0;
		}
		stock->cached_pgdat = pgdat;
	}

	bytes = (idx == NR_SLAB_RECLAIMABLE_B) ? &stock->nr_slab_reclaimable_b
					       : &stock->nr_slab_unreclaimable_b;
	/*
	 * Even for large object >= PAGE_SIZE, the vmstat data will still be
	 * cached locally at least once before pushing it out.
	 */
	if (!*bytes) {
		*bytes = nr;
		nr = 0;
	} else {
		*bytes += nr;
		if (abs(*bytes) > (int)PAGE_SIZE) {
			nr = *bytes;
			*bytes = 0;
		} else {
			nr = 0;
		}
	}
	if (nr)
		mod_objcg_mlstate(this, objcg, pgdat, idx, nr);

	memcg_stock_unlock(this, stock, flags);
	if (old)
		obj_cgroup_put(this, old);
}

static inline bool consume_obj_stock(struct pcb_cpu *this, struct obj_cgroup *objcg,
				     unsigned int nr_bytes)
{
	struct memcg_stock_pcp *stock;
	unsigned long flags;
	bool ret = false;

	if (stock_bypassed(this)) {
		/* no per-CPU cache: take the bytes from the objcg's shared remainder */
		int cur = atomic_load(&objcg->nr_charged_bytes);

		while (cur >= (int)nr_bytes)
			if (atomic_compare_exchange_weak(&objcg->nr_charged_bytes, &cur,
							 cur - (int)nr_bytes))
				return true;
		return ret;
	}
	stock = this_cpu_stock(this);
	STOCK_LOCK_OR(this, stock, flags, return ret);

	if (objcg == stock->cached_objcg && stock->nr_bytes >= nr_bytes) {
		stock->nr_bytes -= nr_bytes;
		ret = true;
	}

	memcg_stock_unlock(this, stock, flags);

	return ret;
}

/* obj_cgroup_uncharge_pages(): pages the object stock gives back */
static inline void obj_cgroup_uncharge_pages(struct pcb_cpu *this, struct obj_cgroup *objcg,
					     unsigned int nr_pages)
{
	struct mem_cgroup *memcg;

	memcg = get_mem_cgroup_from_objcg(this, objcg);

	memcg_account_kmem(this, memcg, -(long)nr_pages);
	refill_stock(this, memcg, nr_pages);

	css_put(this, &memcg->css);
}

/*
 * refill_obj_stock(). With MEMCG_STOCK_NOCACHE on a CPU that opted out,
 * bytes go to the objcg's shared remainder, and whole pages past the first
 * back to the page_counter: the object stock without a per-CPU cache, one
 * shared atomic per call.
 */
static inline void refill_obj_stock(struct pcb_cpu *this, struct obj_cgroup *objcg,
				    unsigned int nr_bytes, bool allow_uncharge)
{
	struct memcg_stock_pcp *stock;
	struct obj_cgroup *old = NULL;
	unsigned long flags;
	unsigned int nr_pages = 0;

	if (stock_bypassed(this)) {
		int cur = atomic_fetch_add(&objcg->nr_charged_bytes, (int)nr_bytes) + (int)nr_bytes;

		while (allow_uncharge && cur > (int)PAGE_SIZE) {
			nr_pages = (unsigned int)cur >> PAGE_SHIFT;
			if (atomic_compare_exchange_weak(&objcg->nr_charged_bytes, &cur,
							 cur - (int)(nr_pages << PAGE_SHIFT))) {
				obj_cgroup_uncharge_pages(this, objcg, nr_pages);
				break;
			}
		}
		return;
	}
	stock = this_cpu_stock(this);
	STOCK_LOCK_OR(this, stock, flags,
		      atomic_fetch_add(&objcg->nr_charged_bytes, (int)nr_bytes); return);

	if (stock->cached_objcg != objcg) { /* reset if necessary */
		old = drain_obj_stock(this, stock, stock);
		obj_cgroup_get(this, objcg);
		WRITE_ONCE(stock->cached_objcg, objcg);
		stock->nr_bytes = atomic_load(&objcg->nr_charged_bytes)
				? (unsigned int)atomic_exchange(&objcg->nr_charged_bytes, 0) : 0;
		allow_uncharge = true;	/* Allow uncharge when objcg changes */
	}
	stock->nr_bytes += nr_bytes;

	if (allow_uncharge && (stock->nr_bytes > PAGE_SIZE)) {
		nr_pages = stock->nr_bytes >> PAGE_SHIFT;
		stock->nr_bytes &= (PAGE_SIZE - 1);
	}

	memcg_stock_unlock(this, stock, flags);
	if (old)
		obj_cgroup_put(this, old);

	if (nr_pages)
		obj_cgroup_uncharge_pages(this, objcg, nr_pages);
}

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
#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V6_2
	__atomic_fetch_and(&stock->flags, ~(1UL << FLUSHING_CACHED_CHARGE), __ATOMIC_SEQ_CST);
#endif
	memcg_stock_unlock(this, stock, flags);
	if (old)
		obj_cgroup_put(this, old);
}

/* the work item drain_all_stock() schedules runs this on the owner */
static inline void drain_local_stock(struct pcb_cpu *this)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(this);

	pcb_drain_window(this);
	drain_stock_from(this, stock, stock);
	pcb_drain_window(this);
}

/* is_drain_needed() (seed 002) / the v6.2 test under rcu_read_lock() */
static inline bool is_drain_needed(struct pcb_cpu *this, struct memcg_stock_pcp *stock,
				   struct mem_cgroup *root_memcg)
{
	bool flush;

	preempt_disable(this);			/* rcu_read_lock() */
	flush = stock_flush_required(stock, root_memcg) ||
		obj_stock_flush_required(stock, root_memcg);
	preempt_enable(this);
	return flush;
}

/*
 * drain_all_stock(): cpus[] are the online CPUs, `this` the caller's. The
 * memcgs of a run are never freed, so rcu_read_lock() is preempt_disable().
 */
static inline void drain_all_stock(struct pcb_cpu *this, struct mem_cgroup *root_memcg,
				   struct pcb_cpu *const *cpus, int nr)
{
	/* If someone's already draining, avoid adding running more workers. */
	if (pthread_mutex_trylock(&percpu_charge_mutex))
		return;

#if MEMCG_STOCK_DRAIN == DRAIN_QSBR
	{
		struct pcb_cpu *swapped[nr > 0 ? nr : 1];
		struct memcg_stock_pcp *old[nr > 0 ? nr : 1];
		int n = 0;

		for (int i = 0; i < nr; i++) {
			struct pcb_cpu *cpu = cpus[i];

			if (!is_drain_needed(this, this_cpu_stock(cpu), root_memcg) || !cpu->stock_spare)
				continue;
			/* readers see the empty stock from now on */
			pcb_drain_window(cpu);
			pcb_tsan_release(&cpu->preempt_count);
			old[n] = rcu_xchg_pointer((struct memcg_stock_pcp **)&cpu->stock,
						  (struct memcg_stock_pcp *)cpu->stock_spare);
			cpu->stock_spare = NULL;
			swapped[n++] = cpu;
		}
		if (n) {
			/* every owner passed a quiescent state: the old stocks are private */
			synchronize_rcu();
			for (int i = 0; i < n; i++) {
				pcb_tsan_acquire(&swapped[i]->preempt_count);
				pcb_count(this, PCB_EV_REMOTE_DRAIN);
				drain_stock_from(this, old[i], this_cpu_stock(this));
				swapped[i]->stock_spare = old[i];
				pcb_drain_window(swapped[i]);
			}
		}
	}
#else
	for (int i = 0; i < nr; i++) {
		struct pcb_cpu *cpu = cpus[i];
		struct memcg_stock_pcp *stock = this_cpu_stock(cpu);
		bool flush = is_drain_needed(this, stock, root_memcg);

#if MEMCG_STOCK_DRAIN == DRAIN_WORK
		if (flush &&
		    !(__atomic_fetch_or(&stock->flags, 1UL << FLUSHING_CACHED_CHARGE,
					__ATOMIC_SEQ_CST) & (1UL << FLUSHING_CACHED_CHARGE))) {
			if (cpu == this)
				drain_local_stock(this);
			else if (!(MEMCG_STOCK_SKIP_ISOLATED && cpu->isolated))
				pcb_schedule_work_on(cpu);
		}
#else	/* DRAIN_REMOTE: patches 4 and 5 */
		if (flush) {
			pcb_count(this, PCB_EV_REMOTE_DRAIN);
			pcb_drain_window(cpu);
			drain_stock_from(this, stock, this_cpu_stock(this));
			pcb_drain_window(cpu);
		}
#endif
	}
#endif
	pthread_mutex_unlock(&percpu_charge_mutex);
}

#endif
