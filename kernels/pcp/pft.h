/* SPDX-License-Identifier: MIT */
/*
 * A page fault's and an munmap's work on an anonymous mapping, as mmtests'
 * pft drives them (Mel Gorman's test in seed 004): do_anonymous_page()
 * allocates a page (rmqueue(), then prep_new_page(), which clears it),
 * charges it to the task's memcg (mem_cgroup_charge(), the memcg model's
 * stock) and puts it on the LRU through this CPU's pagevec
 * (lru_cache_add()); zap and release_pages() drop each page's reference,
 * take the pages off the LRU under its lock, uncharge them and free them
 * with free_unref_page_list(). Include after page_alloc.h and the memcg
 * model's callers (memcg_charge.h).
 */
#ifndef PCB_PCP_PFT_H
#define PCB_PCP_PFT_H

/* put_page(): the last reference gone, the page freed (__put_single_page()) */
static __always_inline void put_page(struct pcb_cpu *this, struct zone *zone, struct page *page)
{
	if (put_page_testzero(page))
		free_unref_page(this, zone, page);
}

/* __pagevec_lru_add(): a full pagevec onto the LRU, under its lock */
static inline void __pagevec_lru_add(struct pcb_cpu *this, struct lruvec *lruvec)
{
	struct pcp_cpu *pc = pcp_cpu(this);
	unsigned long flags = spin_lock_irqsave(this, &lruvec->lru_lock, __func__);

	for (unsigned int i = 0; i < pc->lru_add.nr; i++) {
		list_add(&pc->lru_add.pages[i]->lru, &lruvec->list);
		lruvec->nr++;
	}
	pc->lru_add.nr = 0;
	spin_unlock_irqrestore(this, &lruvec->lru_lock, flags);
}

/* lru_cache_add(): local_lock(&lru_pvecs.lock), the page into this CPU's pagevec */
static __always_inline void lru_cache_add(struct pcb_cpu *this, struct lruvec *lruvec,
					  struct page *page)
{
	struct pcp_cpu *pc = pcp_cpu(this);

	preempt_disable(this);
	pc->lru_add.pages[pc->lru_add.nr++] = page;
	if (pc->lru_add.nr == PAGEVEC_SIZE)
		__pagevec_lru_add(this, lruvec);
	preempt_enable(this);
}

/* lru_add_drain(): this CPU's pagevec onto the LRU */
static inline void lru_add_drain(struct pcb_cpu *this, struct lruvec *lruvec)
{
	preempt_disable(this);
	if (pcp_cpu(this)->lru_add.nr)
		__pagevec_lru_add(this, lruvec);
	preempt_enable(this);
}

/* mem_cgroup_charge() by the accounting in force (seed 003's three kernels, or a memcg) */
static __always_inline int pft_charge(struct pcb_cpu *this, struct pcp_worker *w,
				      struct page *page)
{
	int ret = 0;

	switch (w->accounting) {
	case PCP_ACCT_NONE:
		return 0;
	case PCP_ACCT_STATIC_KEY:
		if (w->key_patched ? !pcb_static_branch_unlikely(memcg_in_use_key)
				   : !unlikely(pcb_static_key_enabled(memcg_in_use_key)))
			return 0;
		fallthrough;
	default:
		if (READ_ONCE(mem_cgroup_subsys_disabled))
			return 0;
		ret = __mem_cgroup_charge(this, w->memcg, &page->memcg_data);
		if (ret == 0)
			w->charged += !mem_cgroup_is_root(w->memcg);
		return ret;
	}
}

/*
 * do_anonymous_page(): one fault; the page, or NULL. The page comes from
 * alloc_zeroed_user_highpage_movable(): on x86 __GFP_ZERO, so that
 * get_page_from_freelist()'s prep_new_page() clears it (workload.clear =
 * no leaves the flag out).
 */
static __always_inline struct page *pft_fault(struct pcb_cpu *this, struct pcp_worker *w)
{
	struct page *page = rmqueue(this, w->zone, MIGRATE_MOVABLE);

	if (unlikely(!page))
		return NULL;
	prep_new_page(w->zone, page, 0, w->clear ? __GFP_ZERO : 0, ALLOC_WMARK_LOW);
	if (unlikely(pft_charge(this, w, page))) {
		put_page(this, w->zone, page);
		return NULL;
	}
	lru_cache_add(this, w->lruvec, page);
	return page;
}

/* munmap(): every page of the mapping off the LRU, uncharged, freed */
static inline void pft_unmap(struct pcb_cpu *this, struct pcp_worker *w)
{
	struct lruvec *lruvec = w->lruvec;
	unsigned long flags;
	int n = 0;

	lru_add_drain(this, lruvec);
	/*
	 * release_pages(): the LRU lock once for the lot, as for pages of one
	 * lruvec; a page whose last reference put_page_testzero() drops goes
	 * to the list to free (the fault's was its only one)
	 */
	flags = spin_lock_irqsave(this, &lruvec->lru_lock, "release_pages");
	for (int i = 0; i < w->nr_held; i++) {
		struct page *page = w->held[i];

		if (!put_page_testzero(page))
			continue;
		list_del(&page->lru);
		lruvec->nr--;
		w->held[n++] = page;
	}
	spin_unlock_irqrestore(this, &lruvec->lru_lock, flags);
	/* mem_cgroup_uncharge_list() */
	for (int i = 0; i < n; i++) {
		struct page *page = w->held[i];

		if (page->memcg_data) {
			w->charged -= !mem_cgroup_is_root(page->memcg_data);
			__mem_cgroup_uncharge(this, &page->memcg_data);
		}
	}
	free_unref_page_list(this, w->zone, w->held, n);
	w->nr_held = 0;
}

#endif
