/* SPDX-License-Identifier: MIT */
/*
 * The per-CPU page lists of mm/page_alloc.c around v5.16 (seed 004's base):
 * rmqueue_pcplist() and __rmqueue_pcplist() refilling with rmqueue_bulk()
 * under the zone lock, free_unref_page() and free_unref_page_commit()
 * spilling with free_pcppages_bulk() past pcp->high, free_unref_page_list(),
 * drain_pages_zone() and drain_local_pages(); drain_all_pages() comes from
 * the design's drain flavour.
 *
 * A template: include a design header from designs/ first. It defines
 *   pcp_lock_t, pcp_lock_init(cpu, pcp), pcp_lock(this, pcp) -> flags,
 *   pcp_unlock(this, pcp, flags)	the lock of a per_cpu_pages
 *   PCP_TRYLOCK, pcp_trylock(this, pcp, flagsp), pcp_tryunlock(this, pcp)
 *					the hot paths' trylock: a failure goes to the zone
 *   PCP_DRAIN_HEADER			"drain_work.h", "drain_remote.h" or "drain_qsbr.h"
 * PCP_LOCK_FIRST (0 or 1) comes from the build: where the lock sits.
 * PCP_DESIGN_LOCK_FIRST (the design's): where its kernel has it.
 */
#ifndef PCB_PCP_PAGE_ALLOC_H
#define PCB_PCP_PAGE_ALLOC_H

#include <pthread.h>

#include "buddy.h"
#include "pcp_model.h"

#if !defined(PCP_DRAIN_HEADER)
#error "include a design header from kernels/pcp/designs/ before page_alloc.h"
#endif
#ifndef PCP_TRYLOCK
#define PCP_TRYLOCK 0
#endif

/* the unlock of the hot paths: of the trylock where the design has one */
#if PCP_TRYLOCK
#define pcp_hot_unlock(this, pcp, flags) do { (void)(flags); pcp_tryunlock(this, pcp); } while (0)
#else
#define pcp_hot_unlock(this, pcp, flags) pcp_unlock(this, pcp, flags)
#endif
#ifndef PCP_LOCK_FIRST
#define PCP_LOCK_FIRST 0
#endif

/*
 * include/linux/mmzone.h, v5.16, with the series' lock (seed 004, patch 2);
 * with PCP_LOCK_FIRST, v6.2's: the lock first, the struct cache-line aligned
 */
struct per_cpu_pages {
#if PCP_LOCK_FIRST
	pcp_lock_t lock;		/* Protects lists field */
#endif
	int count;		/* number of pages in the list */
	int high;		/* high watermark, emptying needed */
	int batch;		/* chunk size for buddy add/remove */
	short free_factor;	/* batch scaling factor during free */
	short expire;		/* When 0, remote pagesets are drained */

	/* Lists of pages, one per migrate type stored on the pcp-lists */
	struct list_head lists[NR_PCP_LISTS];
#if !PCP_LOCK_FIRST
	pcp_lock_t lock;	/* the series: after the lists */
#endif
}
#if PCP_LOCK_FIRST
____cacheline_aligned		/* ____cacheline_aligned_in_smp */
#endif
;

/* the series puts the lock at 256 bytes, the fifth cache line: Mel Gorman's "cold" line */
_Static_assert(PCP_LOCK_FIRST || sizeof(pcp_lock_t) == 0 ||
	       offsetof(struct per_cpu_pages, lock) == 4 * SMP_CACHE_BYTES,
	       "per_cpu_pages: the lock after the lists starts the fifth cache line");
_Static_assert(!PCP_LOCK_FIRST || offsetof(struct per_cpu_pages, lists) < SMP_CACHE_BYTES,
	       "per_cpu_pages: lock, count, high and batch share the first cache line");
_Static_assert(!PCP_LOCK_FIRST || (offsetof(struct per_cpu_pages, lock) == 0 &&
				   sizeof(struct per_cpu_pages) % SMP_CACHE_BYTES == 0),
	       "per_cpu_pages as v6.2: the lock at 0, whole cache lines");

/* this_cpu_ptr(zone->per_cpu_pageset); with the RCU design an RCU-protected pointer */
static inline struct per_cpu_pages *this_cpu_pcp(struct pcb_cpu *cpu)
{
	return pcb_cpu_cache(cpu);
}

static inline void per_cpu_pages_init(const struct pcb_cpu *cpu, struct per_cpu_pages *pcp)
{
	memset(pcp, 0, sizeof(*pcp));
	for (int pindex = 0; pindex < NR_PCP_LISTS; pindex++)
		INIT_LIST_HEAD(&pcp->lists[pindex]);
	pcp_lock_init(cpu, pcp);
}

static inline unsigned int order_to_pindex(int migratetype, int order)
{
	int base = order;

	if (order > PAGE_ALLOC_COSTLY_ORDER)
		base = PAGE_ALLOC_COSTLY_ORDER + 1;
	return (MIGRATE_PCPTYPES * base) + migratetype;
}

/* spin_lock(&zone->lock), counted under the calling function when contended */
#define zone_lock(this, zone) pcb_spin_lock(this, &(zone)->lock, __func__)
#define zone_unlock(zone) pcb_spin_unlock(&(zone)->lock)

/*
 * pcp.zone_lock_hold: the zone lock's hold, from after its acquisition to
 * before its release, in the contention table's row of the function that
 * took it (the caller's __func__, as zone_lock() counts its contention)
 * and summed in the CPU's event ev
 */
static __always_inline uint64_t zone_hold_start(const struct zone *zone)
{
	return unlikely(zone->time_hold) ? pcb_tsc_now() : 0;
}

static __always_inline void __zone_hold_end(struct pcb_cpu *this, const struct zone *zone, int ev,
					    uint64_t t0, const char *fn)
{
	if (unlikely(zone->time_hold)) {
		uint64_t held = pcb_tsc_now() - t0;

		this->ev[ev] += held;
		pcb_lock_held(this, fn, held);
	}
}

#define zone_hold_end(this, zone, ev, t0) __zone_hold_end(this, zone, ev, t0, __func__)

/*
 * __mod_zone_page_state() (mm/vmstat.c, v5.16): the delta into this CPU's
 * vm_stat_diff, folded into the zone's atomic only past stat_threshold;
 * the caller has interrupts off (local_lock_irqsave() or the zone lock)
 */
static inline void __mod_zone_page_state(struct pcb_cpu *this, struct zone *zone,
					 enum pcp_zone_stat item, long delta)
{
	struct per_cpu_zonestat *pcp = &pcp_cpu(this)->zonestat;
	long x = delta + READ_ONCE(pcp->vm_stat_diff[item]);
	long t = READ_ONCE(pcp->stat_threshold);

	if (unlikely(x > t || x < -t)) {
		atomic_fetch_add_explicit(&zone->vm_stat[item], x, memory_order_relaxed);
		x = 0;
	}
	WRITE_ONCE(pcp->vm_stat_diff[item], (signed char)x);
}

/* rmqueue_bulk(): count pages from the zone onto list, under the zone lock */
static inline int rmqueue_bulk(struct pcb_cpu *this, struct zone *zone, unsigned int count,
			       struct list_head *list, int migratetype)
{
	int i, allocated = 0;
	uint64_t held;

	pcb_count(this, PCP_EV_REFILL);
	zone_lock(this, zone);
	held = zone_hold_start(zone);
	for (i = 0; i < (int)count; ++i) {
		struct page *page = __rmqueue(zone, migratetype);

		if (unlikely(page == NULL))
			break;
		list_add_tail(&page->lru, list);
		allocated++;
	}
	__mod_zone_page_state(this, zone, NR_FREE_PAGES, -i);
	zone_hold_end(this, zone, PCP_EV_REFILL_HELD, held);
	zone_unlock(zone);
	return allocated;
}

/* free_pcppages_bulk(): count pages back to the zone, round robin over the lists */
static inline void free_pcppages_bulk(struct pcb_cpu *this, struct zone *zone, int count,
				      struct per_cpu_pages *pcp)
{
	int pindex = 0, nr_freed = 0, prefetch_nr = READ_ONCE(pcp->batch);
	struct list_head head, *pos, *next;
	uint64_t held;

	pcb_count(this, PCP_EV_SPILL);
	INIT_LIST_HEAD(&head);
	count = pcb_min(pcp->count, count);
	while (count > 0) {
		struct list_head *list;

		do {
			if (++pindex == NR_PCP_LISTS)
				pindex = 0;
			list = &pcp->lists[pindex];
		} while (list_empty(list));
		do {
			struct page *page = page_of(list->prev);

			/* must delete to avoid corrupting pcp list */
			list_del(&page->lru);
			nr_freed++;
			count--;
			list_add_tail(&page->lru, &head);
			/*
			 * prefetch_buddy(): the buddy's struct page, which
			 * __free_one_page() reads under the zone lock, for
			 * the first pcp->batch pages
			 */
			if (prefetch_nr) {
				unsigned long buddy_pfn = page_to_pfn(zone, page) ^ 1;

				if (buddy_pfn < zone->nr_pages)
					__builtin_prefetch(pfn_to_page(zone, buddy_pfn));
				prefetch_nr--;
			}
		} while (count > 0 && !list_empty(list));
	}
	/* drain_all_pages() reads count without the lock: WRITE_ONCE(), as KCSAN would have it */
	WRITE_ONCE(pcp->count, pcp->count - nr_freed);

	zone_lock(this, zone);
	held = zone_hold_start(zone);
	for (pos = head.next; pos != &head; pos = next) {
		struct page *page = page_of(pos);

		next = pos->next;
		__free_one_page(zone, page, page_to_pfn(zone, page), 0, page->migratetype);
	}
	__mod_zone_page_state(this, zone, NR_FREE_PAGES, nr_freed);
	zone_hold_end(this, zone, PCP_EV_SPILL_HELD, held);
	zone_unlock(zone);
}

/* free_one_page(): one page straight to the zone (a failed pcp trylock) */
static inline void free_one_page(struct pcb_cpu *this, struct zone *zone, struct page *page)
{
	zone_lock(this, zone);
	__free_one_page(zone, page, page_to_pfn(zone, page), 0, page->migratetype);
	__mod_zone_page_state(this, zone, NR_FREE_PAGES, 1);
	zone_unlock(zone);
}

/* get_pfnblock_migratetype(): the page's pageblock's migratetype, from the zone's bitmap */
static __always_inline int get_pfnblock_migratetype(const struct zone *zone, unsigned long pfn)
{
	unsigned long bitidx = (pfn >> pageblock_order) * NR_PAGEBLOCK_BITS;
	unsigned long word = READ_ONCE(zone->pageblock_flags[bitidx / 64]);

	return (int)((word >> (bitidx & 63)) & MIGRATETYPE_MASK);
}

/*
 * free_unref_page_prepare(): free_pcp_prepare() as a kernel without debug
 * options runs it (free_pages_prepare() with check_free false: the mapping
 * dropped, the last cpupid reset, the flags checked at prep cleared; the
 * page owner, poisoning and init-on-free are static keys off), then the
 * pageblock's migratetype onto the page (set_pcppage_migratetype())
 */
static __always_inline bool free_unref_page_prepare(struct zone *zone, struct page *page,
						    unsigned long pfn)
{
	if ((unsigned long)page->mapping & PAGE_MAPPING_FLAGS)
		page->mapping = NULL;
	page->flags |= LAST_CPUPID_MASK;
	page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP;
	page->migratetype = get_pfnblock_migratetype(zone, pfn);
	return true;
}

static inline int nr_pcp_high(struct per_cpu_pages *pcp)
{
	/* ZONE_RECLAIM_ACTIVE is never set: no reclaim is modeled */
	return READ_ONCE(pcp->high);
}

static inline int nr_pcp_free(struct per_cpu_pages *pcp, int high, int batch)
{
	int min_nr_free, max_nr_free;

	/* Check for PCP disabled or boot pageset */
	if (unlikely(high < batch))
		return 1;

	/* Leave at least pcp->batch pages on the list */
	min_nr_free = batch;
	max_nr_free = high - batch;

	/*
	 * Double the number of pages freed each time there is subsequent
	 * freeing of pages without any allocation.
	 */
	batch <<= pcp->free_factor;
	if (batch < max_nr_free)
		pcp->free_factor++;
	/* clamp(batch, min_nr_free, max_nr_free): min(max(batch, min), max) */
	batch = pcb_min(pcb_max(batch, min_nr_free), max_nr_free);

	return batch;
}

static __always_inline void free_unref_page_commit(struct pcb_cpu *this, struct zone *zone,
						   struct page *page, struct per_cpu_pages *pcp,
						   int migratetype)
{
	int high;

	pcb_count(this, PCP_EV_PGFREE);
	list_add(&page->lru, &pcp->lists[order_to_pindex(migratetype, 0)]);
	WRITE_ONCE(pcp->count, pcp->count + 1);
	high = nr_pcp_high(pcp);
	if (pcp->count >= high) {
		int batch = READ_ONCE(pcp->batch);

		free_pcppages_bulk(this, zone, nr_pcp_free(pcp, high, batch), pcp);
	}
}

/* free_unref_page(): an order-0 page onto this CPU's list */
static __always_inline void free_unref_page(struct pcb_cpu *this, struct zone *zone,
					    struct page *page)
{
	struct per_cpu_pages *pcp;
	unsigned long flags;
	int migratetype;

	if (!free_unref_page_prepare(zone, page, page_to_pfn(zone, page)))
		return;
	migratetype = page->migratetype;
#if PCP_TRYLOCK
	pcp = this_cpu_pcp(this);
	if (!pcp_trylock(this, pcp, &flags)) {
		pcb_count(this, PCP_EV_FALLBACK);
		free_one_page(this, zone, page);
		return;
	}
#else
	flags = pcp_lock(this, this_cpu_pcp(this));
	pcp = this_cpu_pcp(this);
#endif
	free_unref_page_commit(this, zone, page, pcp, migratetype);
	pcp_hot_unlock(this, pcp, flags);
}

/*
 * free_unref_page_list(): as the series writes it, the lock taken once for
 * up to SWAP_CLUSTER_MAX pages (every page here is of the one zone).
 */
static inline void free_unref_page_list(struct pcb_cpu *this, struct zone *zone,
					struct page **pages, int nr)
{
	struct per_cpu_pages *pcp = NULL;
	unsigned long flags = 0;
	int batch_count = 0;

	/* Prepare pages for freeing */
	for (int i = 0; i < nr; i++)
		free_unref_page_prepare(zone, pages[i], page_to_pfn(zone, pages[i]));
	for (int i = 0; i < nr; i++) {
		if (pcp && ++batch_count == SWAP_CLUSTER_MAX) {
			pcp_hot_unlock(this, pcp, flags);
			batch_count = 0;
			pcp = NULL;
		}
		if (!pcp) {
#if PCP_TRYLOCK
			pcp = this_cpu_pcp(this);
			if (!pcp_trylock(this, pcp, &flags)) {
				pcb_count(this, PCP_EV_FALLBACK);
				free_one_page(this, zone, pages[i]);
				pcp = NULL;
				continue;
			}
#else
			flags = pcp_lock(this, this_cpu_pcp(this));
			pcp = this_cpu_pcp(this);
#endif
		}
		free_unref_page_commit(this, zone, pages[i], pcp, pages[i]->migratetype);
	}
	if (pcp)
		pcp_hot_unlock(this, pcp, flags);
}

/* __rmqueue_pcplist(): the list's first page, refilled from the zone when empty */
static __always_inline struct page *__rmqueue_pcplist(struct pcb_cpu *this, struct zone *zone,
						      int migratetype,
						      struct per_cpu_pages *pcp,
						      struct list_head *list)
{
	struct page *page;

	if (list_empty(list)) {
		int batch = READ_ONCE(pcp->batch);
		int alloced;

		alloced = rmqueue_bulk(this, zone, (unsigned int)batch, list, migratetype);
		WRITE_ONCE(pcp->count, pcp->count + alloced);
		if (unlikely(list_empty(list)))
			return NULL;
	}
	page = page_of(list->next);
	list_del(&page->lru);
	WRITE_ONCE(pcp->count, pcp->count - 1);
	return page;
}

/* rmqueue_pcplist(): an order-0 page from this CPU's list */
static __always_inline struct page *rmqueue_pcplist(struct pcb_cpu *this, struct zone *zone,
						    int migratetype)
{
	struct per_cpu_pages *pcp;
	struct list_head *list;
	struct page *page;
	unsigned long flags;

#if PCP_TRYLOCK
	pcp = this_cpu_pcp(this);
	if (!pcp_trylock(this, pcp, &flags))
		return NULL;
#else
	flags = pcp_lock(this, this_cpu_pcp(this));
	pcp = this_cpu_pcp(this);
#endif
	/*
	 * On allocation, reduce the number of pages that are batch freed.
	 * See nr_pcp_free() where free_factor is increased for subsequent
	 * frees.
	 */
	pcp->free_factor >>= 1;
	list = &pcp->lists[order_to_pindex(migratetype, 0)];
	page = __rmqueue_pcplist(this, zone, migratetype, pcp, list);
	pcp_hot_unlock(this, pcp, flags);
	if (page)
		pcb_count(this, PCP_EV_PGALLOC);
	return page;
}

/* rmqueue(): the per-CPU list, else (a failed trylock) the zone itself */
static __always_inline struct page *rmqueue(struct pcb_cpu *this, struct zone *zone,
					    int migratetype)
{
	struct page *page = rmqueue_pcplist(this, zone, migratetype);

#if PCP_TRYLOCK
	/* rmqueue_buddy() */
	if (unlikely(!page)) {
		pcb_count(this, PCP_EV_FALLBACK);
		zone_lock(this, zone);
		page = __rmqueue(zone, migratetype);
		if (page)
			__mod_zone_page_state(this, zone, NR_FREE_PAGES, -1);
		zone_unlock(zone);
		if (page)
			pcb_count(this, PCP_EV_PGALLOC);
	}
#endif
	return page;
}

/* drain_pages_zone(): cpu's pages back to the zone, from `this` (cpu itself, or not) */
static inline void drain_pages_zone(struct pcb_cpu *this, struct pcb_cpu *cpu, struct zone *zone)
{
	struct per_cpu_pages *pcp = this_cpu_pcp(cpu);
	unsigned long flags;

	flags = pcp_lock(this, pcp);
	if (pcp->count)
		free_pcppages_bulk(this, zone, pcp->count, pcp);
	pcp_unlock(this, pcp, flags);
}

/* drain_local_pages(zone): this CPU's lists of the one zone */
static inline void drain_local_pages(struct pcb_cpu *this, struct zone *zone)
{
	pcb_drain_window(this);
	drain_pages_zone(this, this, zone);
	pcb_drain_window(this);
}

/* the pages the list holds, each marked; and how many were already marked */
static inline long pcp_walk_lists(const struct per_cpu_pages *pcp, int mark, long *twice)
{
	long n = 0;

	for (int pindex = 0; pindex < NR_PCP_LISTS; pindex++)
		for (struct list_head *p = pcp->lists[pindex].next; p != &pcp->lists[pindex];
		     p = p->next) {
			struct page *page = page_of(p);

			*twice += page->where != 0;
			page->where = mark;
			n++;
		}
	return n;
}

/* DEFINE_MUTEX(pcpu_drain_mutex) */
extern pthread_mutex_t pcpu_drain_mutex;

/* drain_all_pages(), as the design's flavour does it */
#include PCP_DRAIN_HEADER

#endif
