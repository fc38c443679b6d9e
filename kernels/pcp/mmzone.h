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

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../list.h"
#include "../locks/spinlock.h"
#include "../memcg/memcontrol.h"

/*
 * include/linux/mmzone.h, enum migratetype of a kernel with
 * CONFIG_MEMORY_ISOLATION and without CONFIG_CMA
 */
#define MIGRATE_UNMOVABLE	0
#define MIGRATE_MOVABLE		1
#define MIGRATE_RECLAIMABLE	2
#define MIGRATE_PCPTYPES	3
#define MIGRATE_HIGHATOMIC	MIGRATE_PCPTYPES
#define MIGRATE_ISOLATE		4
#define MIGRATE_TYPES		5
#define is_migrate_isolate(migratetype) ((migratetype) == MIGRATE_ISOLATE)
#define PAGE_ALLOC_COSTLY_ORDER	3
#define NR_PCP_THP		1
#define NR_PCP_LISTS		(MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1 + NR_PCP_THP))
/* free_pcppages_bulk() keeps a page's order beside its migratetype, in these low bits */
#define NR_PCP_ORDER_WIDTH	8
#define NR_PCP_ORDER_MASK	((1 << NR_PCP_ORDER_WIDTH) - 1)
/* include/linux/pagevec.h, include/linux/swap.h */
#define PAGEVEC_SIZE		15
#define SWAP_CLUSTER_MAX	32

/* include/linux/mmzone.h: orders 0..MAX_ORDER-1 (v5.16, 4 KiB pages) */
#define MAX_ORDER		11

/*
 * struct page, mm_types.h: one cache line of the memmap, each field at the
 * kernel's offset (64-bit, CONFIG_MEMCG). Where the kernel keeps index,
 * the model keeps the migratetype set_pcppage_migratetype() puts there,
 * and beside it the invariant's mark.
 */
struct page {
	unsigned long flags;		/* page-flags.h's, and the last cpupid */
	struct list_head lru;		/* a pcp list, a zone free list, or an LRU */
	void *mapping;			/* an anon_vma or address_space, tagged in its low bits */
	int migratetype;		/* page->index: get_pcppage_migratetype() */
	int where;			/* the invariant's mark */
	unsigned long private;		/* its order, on a free list (set_buddy_order()) */
	unsigned int page_type;		/* _mapcount: -1, less PG_buddy where a free block starts */
	atomic_int _refcount;
	struct mem_cgroup *memcg_data;	/* the memcg charged for it, NULL if none */
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct page) == 64, "struct page is one cache line, as the kernel's");
_Static_assert(offsetof(struct page, private) == 40 && offsetof(struct page, page_type) == 48 &&
	       offsetof(struct page, _refcount) == 52 && offsetof(struct page, memcg_data) == 56,
	       "struct page: private, _mapcount, _refcount and memcg_data where v5.16 has them");

/*
 * page-flags.h: page_type shares _mapcount's word, -1 on a page nothing
 * maps; a type is a cleared bit under PAGE_TYPE_BASE, so __SetPageBuddy()
 * clears PG_buddy and __ClearPageBuddy() sets it back
 */
#define PAGE_TYPE_BASE	0xf0000000u
#define PG_buddy	0x00000080u

static inline int PageBuddy(const struct page *page)
{
	return (page->page_type & (PAGE_TYPE_BASE | PG_buddy)) == PAGE_TYPE_BASE;
}

static inline void __SetPageBuddy(struct page *page)
{
	page->page_type &= ~PG_buddy;
}

static inline void __ClearPageBuddy(struct page *page)
{
	page->page_type |= PG_buddy;
}

/* page_mapcount_reset(): _mapcount back to -1 */
static inline void page_mapcount_reset(struct page *page)
{
	page->page_type = ~0u;
}

/* include/linux/page_ref.h: atomic_read(), atomic_set(), atomic_dec_and_test() */
static inline int page_ref_count(const struct page *page)
{
	return atomic_load_explicit(&page->_refcount, memory_order_relaxed);
}

static inline void set_page_count(struct page *page, int v)
{
	atomic_store_explicit(&page->_refcount, v, memory_order_relaxed);
}

/* mm/internal.h: set_page_refcounted(), a freshly allocated page's one reference */
static inline void set_page_refcounted(struct page *page)
{
	set_page_count(page, 1);
}

/* put_page_testzero(): drop a reference, true for the last (fully ordered, as lock decl) */
static inline bool put_page_testzero(struct page *page)
{
	return atomic_fetch_sub(&page->_refcount, 1) == 1;
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

/*
 * PAGE_FLAGS_CHECK_AT_FREE: the flags a page on its way to the free lists
 * must not have (enum pageflags' numbers, CONFIG_MMU); with the model's
 * 22 page flags, no __PG_HWPOISON among them
 */
#define PG_locked		0
#define PG_lru			4
#define PG_active		5
#define PG_slab			9
#define PG_reserved		12
#define PG_private		13
#define PG_private_2		14
#define PG_writeback		15
#define PG_unevictable		20
#define PG_mlocked		21
#define PAGE_FLAGS_CHECK_AT_FREE					\
	(1ul << PG_lru | 1ul << PG_locked | 1ul << PG_private | 1ul << PG_private_2 |	\
	 1ul << PG_writeback | 1ul << PG_reserved | 1ul << PG_slab | 1ul << PG_active |	\
	 1ul << PG_unevictable | 1ul << PG_mlocked)
#define __PG_HWPOISON		0ul

/* include/linux/pageblock-flags.h: 512-page pageblocks, 4 bits each, the migratetype in 3 */
#define pageblock_order		9
#define NR_PAGEBLOCK_BITS	4
#define MIGRATETYPE_MASK	7ul

#define PCB_PAGE_SIZE 4096
#define page_of(ptr) ((struct page *)((char *)(ptr) - offsetof(struct page, lru)))

/* struct free_area: a free list per migrate type, of blocks of one order */
struct free_area {
	struct list_head free_list[MIGRATE_TYPES];
	unsigned long nr_free;		/* blocks, not pages */
};

/* enum zone_flags: test_bit() numbers in zone->flags */
#define ZONE_BOOSTED_WATERMARK	0	/* watermarks recently boosted; cleared when kswapd is woken */
#define ZONE_RECLAIM_ACTIVE	1	/* kswapd may be scanning the zone */

/* enum zone_stat_item: of the zone's counters, NR_FREE_PAGES */
enum pcp_zone_stat {
	NR_FREE_PAGES,
	PCP_NR_ZONE_STAT,
};

/* enum numa_stat_item (CONFIG_NUMA): the events zone_statistics() counts */
enum numa_stat_item {
	NUMA_HIT,		/* allocated in intended node */
	NUMA_MISS,		/* allocated in non intended node */
	NUMA_FOREIGN,		/* was intended here, hit elsewhere */
	NUMA_INTERLEAVE_HIT,	/* interleaver preferred this zone */
	NUMA_LOCAL,		/* allocation from local node */
	NUMA_OTHER,		/* allocation from other node */
	NR_VM_NUMA_EVENT_ITEMS
};

/*
 * struct per_cpu_zonestat (v5.16): a CPU's not yet folded part of each
 * zone counter, s8 as the kernel keeps it, and the threshold past which
 * __mod_zone_page_state() folds it into the zone's atomic; then the NUMA
 * events, "low priority inaccurate counters that are only folded on
 * demand"
 */
struct per_cpu_zonestat {
	signed char vm_stat_diff[PCP_NR_ZONE_STAT];
	signed char stat_threshold;
	unsigned long vm_numa_event[NR_VM_NUMA_EVENT_ITEMS];
};

/*
 * struct zone in v5.16's order: the read-mostly fields, then (after
 * ZONE_PADDING(_pad1_)) the free areas, the flags and the lock the page
 * allocator writes, then the counters. Beside the kernel's read-mostly
 * fields, the model's own: its memmap, the memory it stands for, and
 * whether the bulk paths time the lock's hold.
 */
struct zone {
	/* Read-mostly fields */
	int node;
	unsigned long nr_isolate_pageblock;	/* CONFIG_MEMORY_ISOLATION: pageblocks isolated */
	unsigned long *pageblock_flags;
	struct page *memmap;
	char *mem;
	unsigned long nr_pages;
	int time_hold;			/* pcp.zone_lock_hold: the bulk paths read the TSC */
	/* Write-intensive fields used from the page allocator: every CPU's */
	struct free_area free_area[MAX_ORDER] ____cacheline_aligned;
	unsigned long flags;		/* enum zone_flags */
	spinlock_t lock;		/* primarily protects free_area */
	/* the counters, on lines of their own */
	atomic_long vm_stat[PCP_NR_ZONE_STAT] ____cacheline_aligned;
};

/*
 * the lock right after the free areas and flags, as v5.16 lays them out:
 * with five migrate types 968 bytes of free_area, the flags word at 968
 * and the lock at 976, on the line that holds order 10's nr_free
 */
_Static_assert(offsetof(struct zone, flags) - offsetof(struct zone, free_area) == 968 &&
	       offsetof(struct zone, lock) - offsetof(struct zone, free_area) == 976,
	       "struct zone: free_area, flags and lock as v5.16 with MIGRATE_TYPES 5");

/* test_bit() on zone->flags: a plain read of the word, as x86's constant_test_bit() */
static inline bool zone_test_bit(int nr, const struct zone *zone)
{
	return (READ_ONCE(zone->flags) >> nr) & 1;
}

/* has_isolate_pageblock(): zone->nr_isolate_pageblock, read under the zone lock */
static inline bool has_isolate_pageblock(const struct zone *zone)
{
	return zone->nr_isolate_pageblock;
}

/* struct lruvec: one node's LRU, with its lock (mm/swap.c's pagevecs fill it) */
struct lruvec {
	spinlock_t lru_lock ____cacheline_aligned;
	struct list_head list;
	long nr;
};

#ifdef __KERNEL__
/* the kernel's are its memmap's (asm-generic/memory_model.h); the zone's are its own */
#undef pfn_to_page
#undef page_to_pfn
#endif

static inline struct page *pfn_to_page(struct zone *zone, unsigned long pfn)
{
	return &zone->memmap[pfn];
}

static inline unsigned long page_to_pfn(const struct zone *zone, const struct page *page)
{
	return (unsigned long)(page - zone->memmap);
}

/* page_address(): the 4 KiB the page stands for */
static inline void *page_address(struct zone *zone, const struct page *page)
{
	return zone->mem + page_to_pfn(zone, page) * PCB_PAGE_SIZE;
}

#endif
