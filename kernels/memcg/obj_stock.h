/* SPDX-License-Identifier: MIT */
/*
 * The object stock of mm/memcontrol.c (v6.2): drain_obj_stock(),
 * mod_objcg_state(), consume_obj_stock(), refill_obj_stock(). Part of
 * struct memcg_stock_pcp; included by memcg_stock.h.
 */
#ifndef PCB_MEMCG_OBJ_STOCK_H
#define PCB_MEMCG_OBJ_STOCK_H
/*
 * drain_obj_stock(): whole pages back to the page stock, the rest to the
 * objcg's shared remainder, cached vmstat deltas flushed. Returns the objcg
 * whose reference the caller drops outside the lock. Out of line, as
 * Debian's 6.1.192 build has it.
 */
static __attribute__((__noinline__, unused)) struct obj_cgroup *
drain_obj_stock(struct pcb_cpu *this, struct memcg_stock_pcp *stock, struct memcg_stock_pcp *mine)
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
#if MEMCG_STOCK_SLOTS > 1
			/* seed 002's base: the whole pages go back to the page_counter */
			(void)mine;
			memcg_uncharge(this, memcg, nr_pages);
#else
			/*
			 * __refill_stock() works on this_cpu_ptr(&memcg_stock), `mine`:
			 * with a remote drain (patch 4) the pages land in the drainer's
			 * own stock, not in the one being drained, as in the series.
			 */
			__refill_stock(this, mine, memcg, nr_pages);
#endif

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
static __always_inline void mod_objcg_state(struct pcb_cpu *this, struct obj_cgroup *objcg,
				   struct pglist_data *pgdat, enum memcg_stat_item idx, int nr)
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
	bytes = (idx == NR_SLAB_RECLAIMABLE_B) ? &stock->nr_slab_reclaimable_b
					       : &stock->nr_slab_unreclaimable_b;
	/* the cached objcg and node, the delta within a page: the hit */
	if (memcg_stock_fast(this, stock, &stock->cached_objcg, objcg, &stock->cached_pgdat,
			     pgdat, bytes, true, nr, -(int)PAGE_SIZE, PAGE_SIZE) == MEMCG_FAST_DONE)
		return;
#if MEMCG_STOCK_BYPASS_STOPPED
	if (!memcg_stock_trylock(this, stock, &flags)) {
		mod_objcg_mlstate(this, objcg, pgdat, idx, nr);
		return;
	}
#else
	/* local_trylock upstream takes the lock unconditionally here */
	flags = memcg_stock_lock(this, stock);
#endif

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

static __always_inline bool consume_obj_stock(struct pcb_cpu *this, struct obj_cgroup *objcg,
				     unsigned int nr_bytes)
{
	struct memcg_stock_pcp *stock;
	enum memcg_fast fast;
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
	fast = memcg_stock_fast(this, stock, &stock->cached_objcg, objcg, NULL, NULL,
				&stock->nr_bytes, false, -(int64_t)nr_bytes, 0, UINT32_MAX);
	if (fast != MEMCG_FAST_SLOW)	/* a hit, or a miss decided without the lock */
		return fast == MEMCG_FAST_DONE;
	if (!memcg_stock_lock_hot(this, stock, &flags))
		return ret;

	if (objcg == stock->cached_objcg && stock->nr_bytes >= nr_bytes) {
		stock->nr_bytes -= nr_bytes;
		ret = true;
	}

	memcg_stock_unlock(this, stock, flags);

	return ret;
}

/*
 * refill_obj_stock(). With MEMCG_STOCK_NOCACHE on a CPU that opted out,
 * bytes go to the objcg's shared remainder, and whole pages past the first
 * back to the page_counter: the object stock without a per-CPU cache, one
 * shared atomic per call.
 */
static __always_inline void refill_obj_stock(struct pcb_cpu *this, struct obj_cgroup *objcg,
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
	/* the cached objcg, no whole page to give back yet: the hit */
	if (memcg_stock_fast(this, stock, &stock->cached_objcg, objcg, NULL, NULL,
			     &stock->nr_bytes, false, nr_bytes, 0,
			     allow_uncharge ? PAGE_SIZE : UINT32_MAX) == MEMCG_FAST_DONE)
		return;
	if (!memcg_stock_lock_hot(this, stock, &flags)) {
		atomic_fetch_add(&objcg->nr_charged_bytes, (int)nr_bytes);
		return;
	}

	if (stock->cached_objcg != objcg) { /* reset if necessary */
		old = drain_obj_stock(this, stock, stock);
		obj_cgroup_get(this, objcg);
		stock->nr_bytes = atomic_load(&objcg->nr_charged_bytes)
				? (unsigned int)atomic_exchange(&objcg->nr_charged_bytes, 0) : 0;
		WRITE_ONCE(stock->cached_objcg, objcg);
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

#endif
