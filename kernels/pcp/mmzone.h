/* SPDX-License-Identifier: MIT */
/*
 * The page allocator's data, include/linux/mmzone.h and mm_types.h around
 * v5.16 (seed 004's base), reduced to what the per-CPU page lists touch:
 * pages, a zone with its free lists and its lock, and the LRU a page fault
 * adds its page to.
 *
 * A page is a 64-byte struct page in the zone's memmap, apart from the
 * 4 KiB of memory it stands for, as the kernel's vmemmap keeps them: list
 * operations touch the struct pages' lines, and clearing a page touches
 * its memory. (The first line of each 4 KiB page would put every page's
 * list linkage in the same L1 set.)
 */
#ifndef PCB_PCP_MMZONE_H
#define PCB_PCP_MMZONE_H

#include <stdint.h>

#include "../list.h"
#include "../locks/spinlock.h"
#include "../memcg/memcontrol.h"

/* include/linux/mmzone.h */
#define MIGRATE_UNMOVABLE	0
#define MIGRATE_MOVABLE		1
#define MIGRATE_RECLAIMABLE	2
#define MIGRATE_PCPTYPES	3
#define PAGE_ALLOC_COSTLY_ORDER	3
#define NR_PCP_THP		1
#define NR_PCP_LISTS		(MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1 + NR_PCP_THP))
/* include/linux/pagevec.h, include/linux/swap.h */
#define PAGEVEC_SIZE		15
#define SWAP_CLUSTER_MAX	32

/* include/linux/mmzone.h: orders 0..MAX_ORDER-1 (v5.16, 4 KiB pages) */
#define MAX_ORDER		11

/* struct page, mm_types.h: one cache line of the memmap */
struct page {
	unsigned long flags;		/* page-flags.h's, and the last cpupid */
	struct list_head lru;		/* a pcp list, a zone free list, or an LRU */
	void *mapping;			/* an anon_vma or address_space, tagged in its low bits */
	unsigned long private;		/* its order, on a free list (set_buddy_order()) */
	int migratetype;
	int where;			/* the invariant's mark */
	struct mem_cgroup *memcg_data;	/* the memcg charged for it, NULL if none */
	unsigned int page_type;		/* PG_buddy where the page heads a free block */
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct page) == 64, "struct page is one cache line, as the kernel's");

/* page-flags.h: PageBuddy(), as page_type's inverted bit (PG_buddy) */
#define PG_buddy	0x00000080u

static inline int PageBuddy(const struct page *page)
{
	return page->page_type & PG_buddy;
}

static inline void __SetPageBuddy(struct page *page)
{
	page->page_type |= PG_buddy;
}

static inline void __ClearPageBuddy(struct page *page)
{
	page->page_type &= ~PG_buddy;
}

/*
 * What free_pages_prepare() clears without debug options: the flags a page
 * must not carry into the allocator (PAGE_FLAGS_CHECK_AT_PREP, all but the
 * section, node and zone bits of a 64-bit layout), and the last cpupid
 * (page_cpupid_reset_last(): all ones)
 */
#define PAGE_FLAGS_CHECK_AT_PREP	((1ul << 22) - 1)
#define LAST_CPUPID_SHIFT		22
#define LAST_CPUPID_MASK		(((1ul << 21) - 1) << LAST_CPUPID_SHIFT)
#define PAGE_MAPPING_FLAGS		0x3ul

/* include/linux/pageblock-flags.h: 512-page pageblocks, 4 bits each, the migratetype in 3 */
#define pageblock_order		9
#define NR_PAGEBLOCK_BITS	4
#define MIGRATETYPE_MASK	7ul

#define PCB_PAGE_SIZE 4096
#define page_of(ptr) ((struct page *)((char *)(ptr) - offsetof(struct page, lru)))

/* struct free_area: a free list per migrate type, of blocks of one order */
struct free_area {
	struct list_head free_list[MIGRATE_PCPTYPES];
	unsigned long nr_free;		/* blocks, not pages */
};

/* NR_FREE_PAGES and the PGALLOC/PGFREE events, as the zone counts them */
enum pcp_zone_stat {
	NR_FREE_PAGES,
	PCP_NR_ZONE_STAT,
};

/*
 * struct per_cpu_zonestat (v5.16): a CPU's not yet folded part of each
 * zone counter, s8 as the kernel keeps it, and the threshold past which
 * __mod_zone_page_state() folds it into the zone's atomic
 */
struct per_cpu_zonestat {
	signed char vm_stat_diff[PCP_NR_ZONE_STAT];
	signed char stat_threshold;
};

struct zone {
	/* the zone's free lists and their lock: shared by every CPU */
	spinlock_t lock ____cacheline_aligned;
	struct free_area free_area[MAX_ORDER];
	atomic_long vm_stat[PCP_NR_ZONE_STAT];
	/* the memmap, the pageblocks' bits, and the memory its pages stand for */
	struct page *memmap ____cacheline_aligned;
	unsigned long *pageblock_flags;
	char *mem;
	unsigned long nr_pages;
	int node;
	int time_hold;			/* pcp.zone_lock_hold: the bulk paths read the TSC */
};

/* struct lruvec: one node's LRU, with its lock (mm/swap.c's pagevecs fill it) */
struct lruvec {
	spinlock_t lru_lock ____cacheline_aligned;
	struct list_head list;
	long nr;
};

static inline struct page *pfn_to_page(struct zone *zone, unsigned long pfn)
{
	return &zone->memmap[pfn];
}

static inline unsigned long page_to_pfn(struct zone *zone, const struct page *page)
{
	return (unsigned long)(page - zone->memmap);
}

/* page_address(): the 4 KiB the page stands for */
static inline void *page_address(struct zone *zone, const struct page *page)
{
	return zone->mem + page_to_pfn(zone, page) * PCB_PAGE_SIZE;
}

#endif
