/* SPDX-License-Identifier: MIT */
/*
 * The callers of the stock (mm/memcontrol.c v6.2, the slab hooks of
 * mm/slab.h), so that a workload calls consume_stock(), refill_stock(),
 * consume_obj_stock(), refill_obj_stock() and mod_objcg_state() in the
 * kernel's proportions. Include after memcg_stock.h.
 *
 * A template with no include guard: CALLER(name) names the functions and
 * MEMCG_TIMED(fn, expr) / MEMCG_TIMED_VOID(fn, stmt) wrap each stock call, so
 * the harness includes it twice: once with the cover letter's per-call
 * instrumentation, once bare under the kernel's own names.
 */
#include <errno.h>

#include "memcg_stock.h"

#ifndef CALLER
#define CALLER(name) name
#endif
#ifndef MEMCG_TIMED
#define MEMCG_TIMED(fn, expr) (expr)
#define MEMCG_TIMED_VOID(fn, stmt) do { stmt; } while (0)
#endif

#ifndef PCB_MEMCG_CHARGE_DRAIN
#define PCB_MEMCG_CHARGE_DRAIN
/* mem_cgroup_from_counter(counter, memory) */
static inline struct mem_cgroup *mem_cgroup_from_counter(struct page_counter *counter)
{
	return (struct mem_cgroup *)((char *)counter - offsetof(struct mem_cgroup, memory));
}

/* mem_cgroup_margin(): what memory.max leaves (no memsw on v2) */
static inline unsigned long mem_cgroup_margin(struct mem_cgroup *memcg)
{
	unsigned long count = page_counter_read(&memcg->memory);
	unsigned long limit = READ_ONCE(memcg->memory.max);

	return count < limit ? limit - count : 0;
}
#endif

/*
 * try_charge_memcg()'s drain_all_stock(mem_over_limit): every online CPU's
 * stock from the charging CPU, its own among them. Outside the worker's
 * RCU reader (pcb_drain_offline(); no stock is held across it), as the
 * kernel's charging task is outside one; a CPU no worker registered has
 * nothing to walk, nor a stock without drain_all_stock() (the pcp
 * model's fault path, whose drain is the page allocator's).
 */
static __attribute__((__noinline__, unused)) void
CALLER(charge_drain)(struct pcb_cpu *this, struct mem_cgroup *mem_over_limit)
{
#ifdef MEMCG_STOCK_DRAINS
	struct memcg_online *on = memcg_cpu(this)->online;

	if (!on)
		return;
	pcb_drain_offline();
	MEMCG_TIMED_VOID(DRAIN_ALL_STOCK,
			 drain_all_stock(this, mem_over_limit, on->cpu,
					 __atomic_load_n(&on->nr, __ATOMIC_ACQUIRE)));
	pcb_drain_online();
#else
	(void)this;
	(void)mem_over_limit;
#endif
}

/*
 * try_charge_memcg(): the stock first, else a batch on the page_counter with
 * the excess refilled into the stock; at the limit (memcg.max), nr_pages
 * alone, then, from a task (gfpflags_allow_blocking()), one drain of every
 * stock and a retry. Reclaim (which frees nothing here: the margin decides
 * as the kernel's does after it), the MEMCG_MAX event, the retries after
 * the drain and OOM are not modeled: the charge then returns -ENOMEM.
 */
static __always_inline int CALLER(try_charge_memcg)(struct pcb_cpu *this, struct mem_cgroup *memcg,
					   unsigned int nr_pages)
{
	/* a CPU that opted out of the stock charges what it needs, nothing to refill */
	unsigned int batch = stock_bypassed(this) ? nr_pages : pcb_max(MEMCG_CHARGE_BATCH, nr_pages);
	struct page_counter *counter;
	struct mem_cgroup *mem_over_limit;
	bool drained = false;

retry:
	if (MEMCG_TIMED(consume_stock, consume_stock(this, memcg, nr_pages))) {
		pcb_count(this, MEMCG_EV_STOCK_HIT);
		return 0;
	}
	pcb_count(this, MEMCG_EV_STOCK_MISS);

	pcb_count(this, MEMCG_EV_PC_CHARGE);
	if (page_counter_try_charge(&memcg->memory, batch, &counter))
		goto done_restock;
	mem_over_limit = mem_cgroup_from_counter(counter);

	if (batch > nr_pages) {
		batch = nr_pages;
		goto retry;
	}
	/* !gfpflags_allow_blocking(): a charge from an interrupt fails at once */
	if (unlikely(!memcg_in_task(this)))
		return -ENOMEM;
	if (mem_cgroup_margin(mem_over_limit) >= nr_pages)
		goto retry;
	if (!drained) {
		CALLER(charge_drain)(this, mem_over_limit);
		drained = true;
		goto retry;
	}
	return -ENOMEM;

done_restock:
	if (batch > nr_pages)
		MEMCG_TIMED_VOID(refill_stock, refill_stock(this, memcg, batch - nr_pages));

	/*
	 * The memory.high walk after done_restock: memory and swap usage
	 * against their high at each level, and in_task() on the preempt
	 * count. Nothing runs here from an interrupt, and the throttling
	 * (schedule_work(&memcg->high_work), set_notify_resume()) is not
	 * modeled: the walk stops where the kernel's would.
	 */
	do {
		bool mem_high = page_counter_read(&memcg->memory) > READ_ONCE(memcg->memory.high);
		bool swap_high = page_counter_read(&memcg->swap) > READ_ONCE(memcg->swap.high);

		if (unlikely(!memcg_in_task(this))) {
			if (mem_high)
				break;
			continue;
		}
		if (unlikely(mem_high || swap_high))
			break;
	} while ((memcg = parent_mem_cgroup(memcg)));

	return 0;
}

static __always_inline int CALLER(try_charge)(struct pcb_cpu *this, struct mem_cgroup *memcg,
				     unsigned int nr_pages)
{
	if (mem_cgroup_is_root(memcg))
		return 0;

	return CALLER(try_charge_memcg)(this, memcg, nr_pages);
}

/* charge_memcg(): a folio charge holds a css reference */
static __always_inline int CALLER(charge_memcg)(struct pcb_cpu *this, struct mem_cgroup *memcg,
				       unsigned int nr_pages)
{
	int ret = CALLER(try_charge)(this, memcg, nr_pages);

	if (ret == 0)
		css_get(this, &memcg->css);
	return ret;
}

/* uncharge_batch() for one folio: straight to the page_counter */
static __always_inline void CALLER(uncharge_batch)(struct pcb_cpu *this, struct mem_cgroup *memcg,
					  unsigned int nr_pages)
{
	if (!mem_cgroup_is_root(memcg))
		memcg_uncharge(this, memcg, nr_pages);
	css_put(this, &memcg->css);
}

/*
 * mem_cgroup_uncharge_skmem(): an uncharge that goes back through the
 * stock. The reference the folio-style charge took is dropped here too.
 */
static __always_inline void CALLER(mem_cgroup_uncharge_skmem)(struct pcb_cpu *this,
						      struct mem_cgroup *memcg,
						      unsigned int nr_pages)
{
	MEMCG_TIMED_VOID(refill_stock, refill_stock(this, memcg, nr_pages));
	css_put(this, &memcg->css);
}

/* obj_cgroup_charge_pages() */
static inline int CALLER(obj_cgroup_charge_pages)(struct pcb_cpu *this, struct obj_cgroup *objcg,
						  unsigned int nr_pages)
{
	struct mem_cgroup *memcg;
	int ret;

	memcg = get_mem_cgroup_from_objcg(this, objcg);

	ret = CALLER(try_charge_memcg)(this, memcg, nr_pages);
	if (ret)
		goto out;

	memcg_account_kmem(this, memcg, nr_pages);
out:
	css_put(this, &memcg->css);

	return ret;
}

#if MEMCG_STOCK_LAYOUT != MEMCG_STOCK_V7_3
/* obj_cgroup_charge(): the object stock first, else whole pages */
static __always_inline int CALLER(obj_cgroup_charge)(struct pcb_cpu *this, struct obj_cgroup *objcg,
					    size_t size)
{
	unsigned int nr_pages, nr_bytes;
	int ret;

	if (MEMCG_TIMED(consume_obj_stock, consume_obj_stock(this, objcg, (unsigned int)size)))
		return 0;

	nr_pages = (unsigned int)(size >> PAGE_SHIFT);
	nr_bytes = (unsigned int)(size & (PAGE_SIZE - 1));

	if (nr_bytes)
		nr_pages += 1;

	ret = CALLER(obj_cgroup_charge_pages)(this, objcg, nr_pages);
	if (!ret && nr_bytes)
		MEMCG_TIMED_VOID(refill_obj_stock,
			       refill_obj_stock(this, objcg, (unsigned int)(PAGE_SIZE - nr_bytes), false));

	return ret;
}

static __always_inline void CALLER(obj_cgroup_uncharge)(struct pcb_cpu *this, struct obj_cgroup *objcg,
					       size_t size)
{
	MEMCG_TIMED_VOID(refill_obj_stock, refill_obj_stock(this, objcg, (unsigned int)size, true));
}

/*
 * kmalloc(size, GFP_KERNEL_ACCOUNT) as the slab hooks account it:
 * memcg_slab_pre_alloc_hook() charges obj_full_size() (the object and its
 * obj_cgroup pointer), memcg_slab_post_alloc_hook() counts the slab bytes.
 */
static __always_inline int CALLER(memcg_slab_alloc_hook)(struct pcb_cpu *this, struct obj_cgroup *objcg,
						struct pglist_data *pgdat, size_t full_size)
{
	int ret = CALLER(obj_cgroup_charge)(this, objcg, full_size);

	if (ret)
		return ret;
	MEMCG_TIMED_VOID(mod_objcg_state,
		       mod_objcg_state(this, objcg, pgdat, NR_SLAB_UNRECLAIMABLE_B, (int)full_size));
	return 0;
}

/* memcg_slab_free_hook() */
static __always_inline void CALLER(memcg_slab_free_hook)(struct pcb_cpu *this, struct obj_cgroup *objcg,
						struct pglist_data *pgdat, size_t full_size)
{
	CALLER(obj_cgroup_uncharge)(this, objcg, full_size);
	MEMCG_TIMED_VOID(mod_objcg_state,
		       mod_objcg_state(this, objcg, pgdat, NR_SLAB_UNRECLAIMABLE_B, -(int)full_size));
}

#else	/* MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3 */

/*
 * __memcg_slab_post_alloc_hook() of 7.3, one object of obj_full_size()
 * bytes: the object stock under one hold of its lock, the charge of whole
 * pages (__obj_cgroup_charge()) between two holds on a miss. The rows it
 * times are the pieces of that hold (designs/local_trylock_7_3.h).
 */
static __always_inline int CALLER(memcg_slab_alloc_hook)(struct pcb_cpu *this, struct obj_cgroup *objcg,
						struct pglist_data *pgdat, size_t full_size)
{
	unsigned int obj_size = (unsigned int)full_size;
	struct obj_stock_pcp *stock;

	if (!MEMCG_TIMED(consume_obj_stock, slab_consume_obj_stock(this, objcg, obj_size, &stock))) {
		/* __obj_cgroup_charge(): PAGE_ALIGN(size), the remainder stocked */
		unsigned int charge_size = (unsigned int)((obj_size + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1));
		unsigned int remainder = charge_size - obj_size;

		if (CALLER(obj_cgroup_charge_pages)(this, objcg, charge_size >> PAGE_SHIFT))
			return -ENOMEM;
		if (remainder)
			MEMCG_TIMED_VOID(refill_obj_stock,
				stock = slab_refill_obj_stock(this, objcg, remainder, false));
		else
			stock = trylock_stock(this);
	}
	MEMCG_TIMED_VOID(mod_objcg_state, {
		__account_obj_stock(this, objcg, stock, (int)obj_size, pgdat, NR_SLAB_UNRECLAIMABLE_B);
		unlock_stock(this, stock);
	});
	return 0;
}

/* __memcg_slab_free_hook() of 7.3, one object */
static __always_inline void CALLER(memcg_slab_free_hook)(struct pcb_cpu *this, struct obj_cgroup *objcg,
						struct pglist_data *pgdat, size_t full_size)
{
	unsigned int obj_size = (unsigned int)full_size;
	struct obj_stock_pcp *stock;

	MEMCG_TIMED_VOID(refill_obj_stock,
		stock = slab_refill_obj_stock(this, objcg, obj_size, true));
	MEMCG_TIMED_VOID(mod_objcg_state, {
		__account_obj_stock(this, objcg, stock, -(int)obj_size, pgdat,
				    NR_SLAB_UNRECLAIMABLE_B);
		unlock_stock(this, stock);
	});
}
#endif

#undef CALLER
#undef MEMCG_TIMED
#undef MEMCG_TIMED_VOID
