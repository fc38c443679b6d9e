/* SPDX-License-Identifier: MIT */
/*
 * The page allocator's data, include/linux/mmzone.h and mm_types.h around
 * v5.16 (seed 004's base), reduced to what the per-CPU page lists touch:
 * pages, a zone with its free lists and its lock, and the LRU a page fault
 * adds its page to.
 *
 * A page here is real memory: 4 KiB, its list linkage in its first bytes,
 * so that list operations touch the lines the kernel's touch (in the
 * kernel the linkage is in struct page, one cache line per page, beside the
 * page itself).
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

/* a page: 4 KiB of memory, the kernel's struct page fields in its first line */
struct page {
	struct list_head lru;		/* a pcp list, a zone free list, or an LRU */
	unsigned long private;		/* order on free lists */
	int migratetype;
	int where;			/* the invariant's mark */
	struct mem_cgroup *memcg_data;	/* the memcg charged for it, NULL if none */
};

#define PCB_PAGE_SIZE 4096
#define page_of(ptr) ((struct page *)((char *)(ptr) - offsetof(struct page, lru)))

/* struct free_area: order 0 only; pages are never merged into higher orders */
struct free_area {
	struct list_head free_list[MIGRATE_PCPTYPES];
	unsigned long nr_free;
};

/* NR_FREE_PAGES and the PGALLOC/PGFREE events, as the zone counts them */
enum pcp_zone_stat {
	NR_FREE_PAGES,
	PCP_NR_ZONE_STAT,
};

struct zone {
	/* the zone's free lists and their lock: shared by every CPU */
	spinlock_t lock ____cacheline_aligned;
	struct free_area free_area[1];
	atomic_long vm_stat[PCP_NR_ZONE_STAT];
	/* where the pages are */
	char *mem ____cacheline_aligned;
	unsigned long nr_pages;
	int node;
};

/* struct lruvec: one node's LRU, with its lock (mm/swap.c's pagevecs fill it) */
struct lruvec {
	spinlock_t lru_lock ____cacheline_aligned;
	struct list_head list;
	long nr;
};

static inline struct page *pfn_to_page(struct zone *zone, unsigned long pfn)
{
	return (struct page *)(zone->mem + pfn * PCB_PAGE_SIZE);
}

static inline unsigned long page_to_pfn(struct zone *zone, const struct page *page)
{
	return (unsigned long)((const char *)page - zone->mem) / PCB_PAGE_SIZE;
}

#endif
