/* SPDX-License-Identifier: MIT */
/*
 * The zone's buddy allocator of mm/page_alloc.c around v5.16 (seed 004's
 * base): free blocks of orders 0..MAX_ORDER-1 on per-order free lists,
 * __rmqueue_smallest() splitting a larger block with expand(), and
 * __free_one_page() merging a freed block with its buddy as far as it
 * goes. Callers hold the zone lock. No design in it: the zone's set-up and
 * the invariant use it too.
 */
#ifndef PCB_PCP_BUDDY_H
#define PCB_PCP_BUDDY_H

#include "mmzone.h"

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

/*
 * page_is_buddy(): buddy is a free block of this order (PageBuddy and its
 * order), so the two may merge; the zone ends at nr_pages
 */
static inline int page_is_buddy(struct zone *zone, unsigned long buddy_pfn, unsigned int order)
{
	const struct page *buddy;

	if (buddy_pfn >= zone->nr_pages)
		return 0;
	buddy = pfn_to_page(zone, buddy_pfn);
	return PageBuddy(buddy) && buddy->private == order;
}

/*
 * __free_one_page(): a block of order back to the zone, merged with its
 * buddy (pfn ^ (1 << order)) for as long as the buddy is free and of the
 * same order, the merged block onto the free list of its final order
 */
static inline void __free_one_page(struct zone *zone, struct page *page, unsigned long pfn,
				   unsigned int order, int migratetype)
{
	while (order < MAX_ORDER - 1) {
		unsigned long buddy_pfn = pfn ^ (1ul << order), combined_pfn;

		if (!page_is_buddy(zone, buddy_pfn, order))
			break;
		del_page_from_free_list(pfn_to_page(zone, buddy_pfn), zone, order);
		combined_pfn = buddy_pfn & pfn;
		page = pfn_to_page(zone, combined_pfn);
		pfn = combined_pfn;
		order++;
	}
	set_buddy_order(page, order);
	page->migratetype = migratetype;
	add_to_free_list(page, zone, order, migratetype);
}

#endif
