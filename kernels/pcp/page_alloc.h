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

#include <string.h>

#include "../clear_page.h"
#include "../mutex.h"
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

/* pindex_to_order(): the order of a list's pages (THP's list holds pageblock_order) */
static inline unsigned int pindex_to_order(unsigned int pindex)
{
	unsigned int order = pindex / MIGRATE_PCPTYPES;

	if (order > PAGE_ALLOC_COSTLY_ORDER)
		order = pageblock_order;
	return order;
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

/* this_cpu_ptr(zone->per_cpu_zonestats) */
static __always_inline struct per_cpu_zonestat *this_cpu_zonestats(struct pcb_cpu *this)
{
	return &pcp_cpu(this)->zonestat;
}

/*
 * bad_page(): a page found in a state it must not be in; the kernel
 * reports it, taints itself and leaks the page, PageBuddy cleared. Here
 * it is counted (the invariant then finds the page lost).
 */
static __attribute__((__noinline__, unused)) void bad_page(struct pcb_cpu *this, struct page *page)
{
	pcb_count(this, PCP_EV_BAD_PAGE);
	page_mapcount_reset(page);
}

/*
 * page_expected_state(): a free page is unmapped (_mapcount -1), with no
 * mapping, no reference, no memcg and none of check_flags; one branch for
 * the lot
 */
static __always_inline bool page_expected_state(const struct page *page, unsigned long check_flags)
{
	if (unlikely((int)page->page_type != -1))
		return false;
	if (unlikely(((unsigned long)page->mapping | (unsigned long)page_ref_count(page) |
		      (unsigned long)page->memcg_data | (page->flags & check_flags))))
		return false;
	return true;
}

/* check_free_page(): on the way to the free lists */
static __always_inline int check_free_page(struct pcb_cpu *this, struct page *page)
{
	if (likely(page_expected_state(page, PAGE_FLAGS_CHECK_AT_FREE)))
		return 0;
	bad_page(this, page);
	return 1;
}

/* check_new_page(): about to be handed out (check_new_page_bad(): no hwpoison here) */
static __always_inline int check_new_page(struct pcb_cpu *this, struct page *page)
{
	if (likely(page_expected_state(page, PAGE_FLAGS_CHECK_AT_PREP | __PG_HWPOISON)))
		return 0;
	bad_page(this, page);
	return 1;
}

/*
 * Without CONFIG_DEBUG_VM, v5.16 checks an order-0 page once between its
 * free and its next allocation: when a bulk free moves it from a pcp list
 * to the free lists (bulkfree_pcp_prepare()), and when a refill takes it
 * from the free lists, under the zone lock (check_pcp_refill()); not on
 * the pcp fast paths (free_pcp_prepare() without check_free,
 * check_new_pcp() behind debug_pagealloc's static key, off)
 */
static __always_inline bool bulkfree_pcp_prepare(struct pcb_cpu *this, struct page *page)
{
	return check_free_page(this, page);
}

static __always_inline bool check_pcp_refill(struct pcb_cpu *this, struct page *page)
{
	return check_new_page(this, page);
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
		if (unlikely(check_pcp_refill(this, page)))
			continue;
		/*
		 * Split buddy pages returned by expand() are received here in
		 * physical page order; the list stays in that order
		 */
		list_add_tail(&page->lru, list);
		allocated++;
	}
	/*
	 * i pages were removed from the buddy list even if some leak due
	 * to check_pcp_refill failing: NR_FREE_PAGES by i
	 */
	__mod_zone_page_state(this_cpu_zonestats(this), zone, NR_FREE_PAGES, -i);
	zone_hold_end(this, zone, PCP_EV_REFILL_HELD, held);
	zone_unlock(zone);
	return allocated;
}

/* prefetch_buddy(): the order-0 buddy's struct page, which __free_one_page() will read */
static __always_inline void prefetch_buddy(const struct zone *zone, struct page *page)
{
	unsigned long pfn = page_to_pfn(zone, page);
	unsigned long buddy_pfn = __find_buddy_pfn(pfn, 0);

	__builtin_prefetch(page + (long)(buddy_pfn - pfn));
}

/*
 * free_pcppages_bulk() (v5.16): count pages back to the zone. The lists
 * are taken round robin, up to batch_free pages a turn: batch_free counts
 * the lists looked at since the last turn ended, so a list reached past
 * empty ones gives more pages, and one found after all NR_PCP_LISTS gives
 * all that is left to free. Each page passes bulkfree_pcp_prepare() and
 * leaves with its order encoded below its migratetype; the first
 * pcp->batch have their buddies prefetched. Under the zone lock each goes
 * to __free_one_page(), its pageblock's migratetype read again if any
 * pageblock is isolated.
 */
static inline void free_pcppages_bulk(struct pcb_cpu *this, struct zone *zone, int count,
				      struct per_cpu_pages *pcp)
{
	int pindex = 0, batch_free = 0, nr_freed = 0, prefetch_nr = READ_ONCE(pcp->batch);
	struct list_head head, *pos, *next;
	bool isolated_pageblocks;
	unsigned int order;
	uint64_t held;

	pcb_count(this, PCP_EV_SPILL);
	INIT_LIST_HEAD(&head);
	/* a count past pcp->count would loop forever below, looking for a page */
	count = pcb_min(pcp->count, count);
	while (count > 0) {
		struct list_head *list;

		do {
			batch_free++;
			if (++pindex == NR_PCP_LISTS)
				pindex = 0;
			list = &pcp->lists[pindex];
		} while (list_empty(list));

		/* This is the only non-empty list. Free them all. */
		if (batch_free == NR_PCP_LISTS)
			batch_free = count;

		order = pindex_to_order((unsigned int)pindex);
		do {
			struct page *page = page_of(list->prev);

			/* must delete to avoid corrupting pcp list */
			list_del(&page->lru);
			nr_freed += 1 << order;
			count -= 1 << order;

			if (bulkfree_pcp_prepare(this, page))
				continue;

			/* Encode order with the migratetype */
			page->migratetype <<= NR_PCP_ORDER_WIDTH;
			page->migratetype |= (int)order;
			list_add_tail(&page->lru, &head);
			if (prefetch_nr) {
				prefetch_buddy(zone, page);
				prefetch_nr--;
			}
		} while (count > 0 && --batch_free && !list_empty(list));
	}
	/* drain_all_pages() reads count without the lock: WRITE_ONCE(), as KCSAN would have it */
	WRITE_ONCE(pcp->count, pcp->count - nr_freed);

	zone_lock(this, zone);
	held = zone_hold_start(zone);
	isolated_pageblocks = has_isolate_pageblock(zone);
	/* after __free_one_page(), the page's lru no longer leads to the next */
	for (pos = head.next; pos != &head; pos = next) {
		struct page *page = page_of(pos);
		int mt = page->migratetype;

		next = pos->next;
		/* mt has been encoded with the order (see above) */
		order = (unsigned int)mt & NR_PCP_ORDER_MASK;
		mt >>= NR_PCP_ORDER_WIDTH;
		/* Pageblock could have been isolated meanwhile */
		if (unlikely(isolated_pageblocks))
			mt = get_pfnblock_migratetype(zone, page_to_pfn(zone, page));
		__free_one_page(this_cpu_zonestats(this), zone, page, page_to_pfn(zone, page), order,
				mt);
	}
	zone_hold_end(this, zone, PCP_EV_SPILL_HELD, held);
	zone_unlock(zone);
}

/*
 * free_one_page(): one page straight to the zone (a failed pcp trylock),
 * its pageblock's migratetype read again if pageblocks are isolated
 */
static inline void free_one_page(struct pcb_cpu *this, struct zone *zone, struct page *page,
				 int migratetype)
{
	unsigned long pfn = page_to_pfn(zone, page);

	zone_lock(this, zone);
	if (unlikely(has_isolate_pageblock(zone) || is_migrate_isolate(migratetype)))
		migratetype = get_pfnblock_migratetype(zone, pfn);
	__free_one_page(this_cpu_zonestats(this), zone, page, pfn, 0, migratetype);
	zone_unlock(zone);
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

/*
 * nr_pcp_high() (v5.16): pcp->high, or while kswapd reclaims the zone
 * (ZONE_RECLAIM_ACTIVE) four batches at most. No reclaim is modeled: the
 * bit stays clear, but every free reads zone->flags for it.
 */
static inline int nr_pcp_high(struct per_cpu_pages *pcp, struct zone *zone)
{
	int high = READ_ONCE(pcp->high);

	if (unlikely(!high))
		return 0;
	if (!zone_test_bit(ZONE_RECLAIM_ACTIVE, zone))
		return high;
	/* If reclaim is active, limit the number of pages that can be stored on pcp lists */
	return pcb_min(READ_ONCE(pcp->batch) << 2, high);
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
	high = nr_pcp_high(pcp, zone);
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
	/*
	 * Only unmovable, reclaimable and movable go on pcp lists: isolated
	 * pages straight to the zone, HIGHATOMIC ones as movable
	 */
	migratetype = page->migratetype;
	if (unlikely(migratetype >= MIGRATE_PCPTYPES)) {
		if (unlikely(is_migrate_isolate(migratetype))) {
			free_one_page(this, zone, page, migratetype);
			return;
		}
		migratetype = MIGRATE_MOVABLE;
	}
#if PCP_TRYLOCK
	pcp = this_cpu_pcp(this);
	if (!pcp_trylock(this, pcp, &flags)) {
		pcb_count(this, PCP_EV_FALLBACK);
		free_one_page(this, zone, page, migratetype);
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

	/* Prepare pages for freeing; isolated ones go to the zone, off the list (NULL) */
	for (int i = 0; i < nr; i++) {
		free_unref_page_prepare(zone, pages[i], page_to_pfn(zone, pages[i]));
		if (unlikely(is_migrate_isolate(pages[i]->migratetype))) {
			free_one_page(this, zone, pages[i], pages[i]->migratetype);
			pages[i] = NULL;
		}
	}
	for (int i = 0; i < nr; i++) {
		int migratetype;

		if (unlikely(!pages[i]))
			continue;
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
				free_one_page(this, zone, pages[i], pages[i]->migratetype);
				pcp = NULL;
				continue;
			}
#else
			flags = pcp_lock(this, this_cpu_pcp(this));
			pcp = this_cpu_pcp(this);
#endif
		}
		/* Non-isolated types over MIGRATE_PCPTYPES get added to the MIGRATE_MOVABLE pcp list */
		migratetype = pages[i]->migratetype;
		if (unlikely(migratetype >= MIGRATE_PCPTYPES))
			migratetype = MIGRATE_MOVABLE;
		free_unref_page_commit(this, zone, pages[i], pcp, migratetype);
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

		/*
		 * Scale batch relative to order if batch implies free pages
		 * can be stored on the PCP (order 0 here: at least 2)
		 */
		if (batch > 1)
			batch = pcb_max(batch, 2);

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

/*
 * zone_statistics() (CONFIG_NUMA): NUMA_HIT, or NUMA_MISS and
 * NUMA_FOREIGN, by whether the page's zone is on the preferred zone's
 * node, and NUMA_LOCAL or NUMA_OTHER by whether it is on this CPU's; with
 * one zone the preferred zone is the zone. vm_numa_stat_key is on: its
 * static branch falls through, as its nop does, and is left out.
 */
static __always_inline void zone_statistics(struct pcb_cpu *this, struct zone *preferred_zone,
					    struct zone *z, long nr_account)
{
	struct per_cpu_zonestat *pzstats = this_cpu_zonestats(this);
	enum numa_stat_item local_stat = NUMA_LOCAL;

	if (z->node != this->node)		/* numa_node_id() */
		local_stat = NUMA_OTHER;
	if (z->node == preferred_zone->node) {
		__count_numa_events(pzstats, NUMA_HIT, nr_account);
	} else {
		__count_numa_events(pzstats, NUMA_MISS, nr_account);
		__count_numa_events(pzstats, NUMA_FOREIGN, nr_account);
	}
	__count_numa_events(pzstats, local_stat, nr_account);
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
	if (page) {
		pcb_count(this, PCP_EV_PGALLOC);	/* __count_zid_vm_events(PGALLOC) */
		zone_statistics(this, zone, zone, 1);
	}
	return page;
}

#if PCP_TRYLOCK
/*
 * rmqueue_buddy() (v6.2): an order-0 page from the zone under its lock,
 * taken again while check_new_pages() finds it bad
 */
static inline struct page *rmqueue_buddy(struct pcb_cpu *this, struct zone *zone, int migratetype)
{
	struct page *page;

	do {
		zone_lock(this, zone);
		page = __rmqueue(zone, migratetype);
		if (!page) {
			zone_unlock(zone);
			return NULL;
		}
		__mod_zone_freepage_state(this_cpu_zonestats(this), zone, -1, page->migratetype);
		zone_unlock(zone);
	} while (check_new_page(this, page));
	pcb_count(this, PCP_EV_PGALLOC);
	zone_statistics(this, zone, zone, 1);
	return page;
}
#endif

/*
 * include/linux/gfp.h: the bits of a gfp mask post_alloc_hook() and
 * prep_new_page() test (the kernel backend has the kernel's, the same)
 */
#ifndef __GFP_ZERO
#define __GFP_ZERO		0x100u
#define __GFP_COMP		0x40000u
#endif
/* mm/internal.h: get_page_from_freelist()'s first pass, and the flag prep_new_page() tests */
#define ALLOC_WMARK_LOW		0x01u
#define ALLOC_NO_WATERMARKS	0x04u

_Static_assert(PCB_PAGE_SIZE == PCB_CLEAR_PAGE_SIZE, "clear_page() clears one model page");

/* kernel_init_free_pages() without KASAN: clear_highpage() of each page (clear_page.h) */
static __always_inline void kernel_init_free_pages(struct zone *zone, struct page *page,
						   int numpages)
{
	for (int i = 0; i < numpages; i++)
		clear_page(page_address(zone, page + i));
}

/* want_init_on_alloc(): init_on_alloc's static key is off by default, so __GFP_ZERO */
static __always_inline bool want_init_on_alloc(unsigned int gfp_flags)
{
	return gfp_flags & __GFP_ZERO;
}

/*
 * post_alloc_hook() as a kernel without debug options runs it: no
 * private, one reference, and the page cleared if the caller asked (a
 * fault on x86 asks: alloc_zeroed_user_highpage_movable() allocates with
 * __GFP_ZERO). arch_alloc_page() is empty on x86; debug_pagealloc,
 * page poisoning, init_on_free and the page owner are static keys off,
 * and KASAN is not built in.
 */
static __always_inline void post_alloc_hook(struct zone *zone, struct page *page,
					    unsigned int order, unsigned int gfp_flags)
{
	bool init;

	page->private = 0;			/* set_page_private() */
	set_page_refcounted(page);
	init = want_init_on_alloc(gfp_flags);	/* !want_init_on_free() && ... */
	if (init)
		kernel_init_free_pages(zone, page, 1 << order);
}

/* set_page_pfmemalloc(), clear_page_pfmemalloc(): bit 1 of lru.next */
static __always_inline void set_page_pfmemalloc(struct page *page)
{
	page->lru.next = (struct list_head *)2ul;
}

static __always_inline void clear_page_pfmemalloc(struct page *page)
{
	page->lru.next = NULL;
}

/*
 * prep_new_page(): what get_page_from_freelist() does to the page
 * rmqueue() gave it (order 0 here)
 */
static __always_inline void prep_new_page(struct zone *zone, struct page *page,
					  unsigned int order, unsigned int gfp_flags,
					  unsigned int alloc_flags)
{
	post_alloc_hook(zone, page, order, gfp_flags);
	/* prep_compound_page() when order && __GFP_COMP: never, at order 0 */
	/* pfmemalloc where ALLOC_NO_WATERMARKS was needed to get the page */
	if (alloc_flags & ALLOC_NO_WATERMARKS)
		set_page_pfmemalloc(page);
	else
		clear_page_pfmemalloc(page);
}

/*
 * rmqueue(): the per-CPU list, else (a failed trylock) the zone itself;
 * then the zone's boosted watermark tested, as after every allocation
 */
static __always_inline struct page *rmqueue(struct pcb_cpu *this, struct zone *zone,
					    int migratetype)
{
	struct page *page = rmqueue_pcplist(this, zone, migratetype);

#if PCP_TRYLOCK
	if (unlikely(!page)) {
		pcb_count(this, PCP_EV_FALLBACK);
		page = rmqueue_buddy(this, zone, migratetype);
	}
#endif
	/* Separate test+clear to avoid unnecessary atomics (no kswapd here to wake) */
	if (unlikely(zone_test_bit(ZONE_BOOSTED_WATERMARK, zone)))
		__atomic_fetch_and(&zone->flags, ~(1ul << ZONE_BOOSTED_WATERMARK), __ATOMIC_SEQ_CST);
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
	pcb_drain_window_open(this);
	drain_pages_zone(this, this, zone);
	pcb_drain_window_close(this);
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
extern struct mutex pcpu_drain_mutex;

/* drain_all_pages(), as the design's flavour does it */
#include PCP_DRAIN_HEADER

#endif
