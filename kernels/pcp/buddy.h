/* SPDX-License-Identifier: MIT */
/*
 * The zone's buddy allocator of mm/page_alloc.c around v5.16 (seed 004's
 * base): free blocks of orders 0..MAX_ORDER-1 on per-order free lists,
 * __rmqueue_smallest() splitting a larger block with expand(), and
 * __free_one_page() counting a freed block into NR_FREE_PAGES and merging
 * it with its buddy as far as it goes. Callers hold the zone lock. No
 * design in it: the zone's set-up and the invariant use it too.
 *
 * Static keys off without debug options are left out, as their nops:
 * page reporting (page_reported(), page_reporting_notify_free()), guard
 * pages (set_page_guard(), page_is_guard()), free-area shuffling
 * (is_shuffle_order()). CONFIG_COMPACTION's task_capc() is not modeled:
 * there is no task whose capture_control it would read.
 */
#ifndef PCB_PCP_BUDDY_H
#define PCB_PCP_BUDDY_H

#include "vmstat.h"

/* set_buddy_order(), del_page_from_free_list(), add_to_free_list() */
static inline void set_buddy_order(struct page *page, unsigned int order)
{
	page->private = order;
	__SetPageBuddy(page);
}

static inline void del_page_from_free_list(struct page *page, struct zone *zone,
					   unsigned int order)
{
	list_del(&page->lru);
	__ClearPageBuddy(page);
	page->private = 0;
	zone->free_area[order].nr_free--;
}

static inline void add_to_free_list(struct page *page, struct zone *zone, unsigned int order,
				    int migratetype)
{
	list_add(&page->lru, &zone->free_area[order].free_list[migratetype]);
	zone->free_area[order].nr_free++;
}

static inline void add_to_free_list_tail(struct page *page, struct zone *zone, unsigned int order,
					 int migratetype)
{
	list_add_tail(&page->lru, &zone->free_area[order].free_list[migratetype]);
	zone->free_area[order].nr_free++;
}

/*
 * expand(): the upper halves of a block of order high split down to low,
 * each onto the free list of its order
 */
static inline void expand(struct zone *zone, struct page *page, unsigned int low,
			  unsigned int high, int migratetype)
{
	unsigned long size = 1ul << high;

	while (high > low) {
		high--;
		size >>= 1;
		add_to_free_list(&page[size], zone, high, migratetype);
		set_buddy_order(&page[size], high);
	}
}

/* __rmqueue_smallest(): the smallest free block of order or above, split to order */
static inline struct page *__rmqueue_smallest(struct zone *zone, unsigned int order,
					      int migratetype)
{
	for (unsigned int current_order = order; current_order < MAX_ORDER; ++current_order) {
		struct list_head *list = &zone->free_area[current_order].free_list[migratetype];
		struct page *page;

		if (list_empty(list))
			continue;
		page = page_of(list->next);
		del_page_from_free_list(page, zone, current_order);
		expand(zone, page, order, current_order, migratetype);
		page->migratetype = migratetype;	/* set_pcppage_migratetype() */
		return page;
	}
	return NULL;
}

/* __rmqueue(): an order-0 page; no fallback, every page here is MOVABLE */
static inline struct page *__rmqueue(struct zone *zone, int migratetype)
{
	return __rmqueue_smallest(zone, 0, migratetype);
}

/* get_pfnblock_migratetype(): the page's pageblock's migratetype, from the zone's bitmap */
static __always_inline int get_pfnblock_migratetype(const struct zone *zone, unsigned long pfn)
{
	unsigned long bitidx = (pfn >> pageblock_order) * NR_PAGEBLOCK_BITS;
	unsigned long word = READ_ONCE(zone->pageblock_flags[bitidx / 64]);

	return (int)((word >> (bitidx & 63)) & MIGRATETYPE_MASK);
}

/* __find_buddy_pfn(): the block of this order that page_pfn's merges with */
static inline unsigned long __find_buddy_pfn(unsigned long page_pfn, unsigned int order)
{
	return page_pfn ^ (1ul << order);
}

/*
 * page_is_buddy(): buddy is a free block of this order (PageBuddy and its
 * order), so the two may merge; the test of the two pages' zone ids is
 * the model's end of the memmap, where the zone ends
 */
static inline bool page_is_buddy(const struct zone *zone, const struct page *page,
				 const struct page *buddy, unsigned int order)
{
	(void)page;
	if (page_to_pfn(zone, buddy) >= zone->nr_pages)
		return false;
	if (!PageBuddy(buddy))
		return false;
	return buddy->private == order;
}

/*
 * buddy_merge_likely(): is the buddy of the next order up free? Then the
 * block goes to the tail of its list, where it stays free longer and may
 * merge
 */
static inline bool buddy_merge_likely(const struct zone *zone, unsigned long pfn,
				      unsigned long buddy_pfn, struct page *page,
				      unsigned int order)
{
	struct page *higher_page, *higher_buddy;
	unsigned long combined_pfn;

	if (order >= MAX_ORDER - 2)
		return false;
	combined_pfn = buddy_pfn & pfn;
	higher_page = page + (long)(combined_pfn - pfn);
	buddy_pfn = __find_buddy_pfn(combined_pfn, order + 1);
	higher_buddy = higher_page + (long)(buddy_pfn - combined_pfn);
	return page_is_buddy(zone, higher_page, higher_buddy, order + 1);
}

/*
 * __free_one_page(): a block of order back to the zone, counted into
 * NR_FREE_PAGES, merged with its buddy (pfn ^ (1 << order)) for as long as
 * the buddy is free and of the same order: up to pageblock_order, and on
 * past it unless one of the two pageblocks is isolated; the merged block
 * onto the free list of its final order, at the tail where it may merge
 * again soon. pzstats: the calling CPU's.
 */
static inline void __free_one_page(struct per_cpu_zonestat *pzstats, struct zone *zone,
				   struct page *page, unsigned long pfn, unsigned int order,
				   int migratetype)
{
	unsigned int max_order = pcb_min(MAX_ORDER - 1, pageblock_order);
	unsigned long buddy_pfn = 0, combined_pfn;
	struct page *buddy;

	if (likely(!is_migrate_isolate(migratetype)))
		__mod_zone_freepage_state(pzstats, zone, 1 << order, migratetype);
continue_merging:
	while (order < max_order) {
		buddy_pfn = __find_buddy_pfn(pfn, order);
		buddy = page + (long)(buddy_pfn - pfn);
		if (!page_is_buddy(zone, page, buddy, order))
			goto done_merging;
		del_page_from_free_list(buddy, zone, order);
		combined_pfn = buddy_pfn & pfn;
		page = page + (long)(combined_pfn - pfn);
		pfn = combined_pfn;
		order++;
	}
	if (order < MAX_ORDER - 1) {
		/* order >= pageblock_order: an isolated pageblock merges with no other */
		if (unlikely(has_isolate_pageblock(zone))) {
			int buddy_mt;

			buddy_pfn = __find_buddy_pfn(pfn, order);
			/* past the zone's end, no pageblock (and page_is_buddy() says no) */
			buddy_mt = buddy_pfn < zone->nr_pages ?
				   get_pfnblock_migratetype(zone, buddy_pfn) : migratetype;
			if (migratetype != buddy_mt &&
			    (is_migrate_isolate(migratetype) || is_migrate_isolate(buddy_mt)))
				goto done_merging;
		}
		max_order = order + 1;
		goto continue_merging;
	}
done_merging:
	set_buddy_order(page, order);
	if (buddy_merge_likely(zone, pfn, buddy_pfn, page, order))
		add_to_free_list_tail(page, zone, order, migratetype);
	else
		add_to_free_list(page, zone, order, migratetype);
}

#endif
