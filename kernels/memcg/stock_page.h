/* SPDX-License-Identifier: MIT */
/*
 * The page stock with one cached memcg (v6.2, seed 000): consume_stock(),
 * drain_stock(), __refill_stock(). Included by memcg_stock.h for one slot.
 */
#ifndef PCB_MEMCG_STOCK_PAGE_H
#define PCB_MEMCG_STOCK_PAGE_H
static __always_inline bool consume_stock(struct pcb_cpu *this, struct mem_cgroup *memcg,
				 unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock;
	enum memcg_fast fast;
	unsigned long flags;
	bool ret = false;

	if (nr_pages > MEMCG_CHARGE_BATCH || stock_bypassed(this))
		return ret;

	stock = this_cpu_stock(this);
	fast = memcg_stock_fast(this, stock, &stock->cached, memcg, NULL, NULL, &stock->nr_pages,
				false, -(int64_t)nr_pages, 0, UINT32_MAX);
	if (fast != MEMCG_FAST_SLOW)	/* a hit, or a miss decided without the lock */
		return fast == MEMCG_FAST_DONE;
	if (!memcg_stock_lock_hot(this, stock, &flags))
		return ret;

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
 * draining is not the owner. Out of line, as Debian's 6.1.192 build has it.
 */
static __attribute__((__noinline__, unused)) void
drain_stock(struct pcb_cpu *this, struct memcg_stock_pcp *stock)
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
static __always_inline void __refill_stock(struct pcb_cpu *this, struct memcg_stock_pcp *stock,
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

#endif
