/* SPDX-License-Identifier: MIT */
/*
 * The zone and its pages, and the invariant: every page in exactly one
 * place (a free block of the buddy allocator, a CPU's per_cpu_pages, or
 * held by a worker), every free block aligned to its order and merged
 * with any free buddy, every count equal to its list, and page faults'
 * charges balanced.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "buddy.h"
#include "pcp_model.h"

DEFINE_MUTEX(pcpu_drain_mutex);

/* every zone's counters summed (mm/vmstat.c) */
atomic_long vm_zone_stat[PCP_NR_ZONE_STAT] ____cacheline_aligned;

/*
 * Every page of the zone free, as memblock_free_all() leaves a zone: each
 * range freed in the largest blocks its alignment allows
 * (__free_pages_memory()), __free_one_page() merging what it can and
 * counting each block through the boot CPU's boot_zonestats, whose
 * threshold is still 0 (refresh_zone_stat_thresholds() comes later): each
 * count goes straight to the zone's counter.
 */
static void zone_free_all(struct zone *zone)
{
	struct per_cpu_zonestat boot_zonestats = { .stat_threshold = 0 };

	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			INIT_LIST_HEAD(&zone->free_area[o].free_list[mt]);
		zone->free_area[o].nr_free = 0;
	}
	for (unsigned long pfn = 0; pfn < zone->nr_pages;) {
		unsigned int order = pfn ? pcb_min(MAX_ORDER - 1, __builtin_ctzl(pfn)) : MAX_ORDER - 1;

		while (pfn + (1ul << order) > zone->nr_pages)
			order--;
		__free_one_page(&boot_zonestats, zone, pfn_to_page(zone, pfn), pfn, order,
				MIGRATE_MOVABLE);
		pfn += 1ul << order;
	}
}

/* every pageblock MIGRATE_MOVABLE, as memmap_init_range() sets them */
static unsigned long *pageblock_flags_create(unsigned long nr_pages)
{
	unsigned long blocks = (nr_pages + (1ul << pageblock_order) - 1) >> pageblock_order;
	unsigned long words = (blocks * NR_PAGEBLOCK_BITS + 63) / 64;
	unsigned long *bits = calloc(words, sizeof(*bits));

	for (unsigned long b = 0; bits && b < blocks; b++)
		bits[b * NR_PAGEBLOCK_BITS / 64] |=
			(unsigned long)MIGRATE_MOVABLE << (b * NR_PAGEBLOCK_BITS % 64);
	return bits;
}

int pcp_zone_create(struct zone *zone, unsigned long nr_pages, char *err, size_t errlen)
{
	size_t map = nr_pages * sizeof(struct page);

	memset(zone, 0, sizeof(*zone));
	spin_lock_init(&zone->lock);
	zone->mem = mmap(NULL, nr_pages * PCB_PAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	zone->memmap = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (zone->mem == MAP_FAILED || zone->memmap == MAP_FAILED) {
		snprintf(err, errlen, "a zone of %lu pages: %s", nr_pages, strerror(errno));
		if (zone->mem != MAP_FAILED)
			munmap(zone->mem, nr_pages * PCB_PAGE_SIZE);
		if (zone->memmap != MAP_FAILED)
			munmap(zone->memmap, map);
		zone->mem = NULL;
		zone->memmap = NULL;
		return -1;
	}
	zone->nr_pages = nr_pages;
	zone->pageblock_flags = pageblock_flags_create(nr_pages);
	if (!zone->pageblock_flags) {
		snprintf(err, errlen, "a zone of %lu pages: out of memory", nr_pages);
		pcp_zone_destroy(zone);
		return -1;
	}
	/*
	 * __init_single_page(): _mapcount -1; __free_pages_core(): no
	 * reference left on a page going to the free lists
	 */
	for (unsigned long pfn = 0; pfn < nr_pages; pfn++) {
		struct page *page = pfn_to_page(zone, pfn);

		page_mapcount_reset(page);
		set_page_count(page, 0);
		page->migratetype = MIGRATE_MOVABLE;
	}
	zone_free_all(zone);
	return 0;
}

void pcp_zone_destroy(struct zone *zone)
{
	if (zone->mem)
		munmap(zone->mem, zone->nr_pages * PCB_PAGE_SIZE);
	if (zone->memmap)
		munmap(zone->memmap, zone->nr_pages * sizeof(struct page));
	free(zone->pageblock_flags);
	memset(zone, 0, sizeof(*zone));
}

/* the places a page can be, as marks */
enum { NOWHERE, ON_FREE_LIST, ON_PCP_LIST, HELD };

/*
 * The blocks of one free list of order o, each page of each marked: a
 * block's head is PG_buddy with its order, aligned to it and inside the
 * zone, and its buddy is not a free block of the same order (the two would
 * have merged). The pages, or -1 with msg.
 */
static long mark_free_list(struct zone *zone, unsigned int o, int mt, long *blocks,
			   long *twice, char *msg, size_t len)
{
	struct list_head *head = &zone->free_area[o].free_list[mt];
	long n = 0;

	for (struct list_head *p = head->next; p != head; p = p->next) {
		struct page *page = page_of(p);
		unsigned long pfn = page_to_pfn(zone, page), size = 1ul << o;

		if (!PageBuddy(page) || page->private != o || pfn & (size - 1) ||
		    pfn + size > zone->nr_pages) {
			snprintf(msg, len, "zone: pfn %lu on the order-%u list: %s", pfn, o,
				 !PageBuddy(page) ? "not PG_buddy" : page->private != o ?
				 "of another order" : "not aligned to its order or past the zone");
			return -1;
		}
		if (o < MAX_ORDER - 1 &&
		    page_is_buddy(zone, page, page + (long)(__find_buddy_pfn(pfn, o) - pfn), o)) {
			snprintf(msg, len, "zone: pfn %lu and its buddy, both free of order %u, "
				 "not merged", pfn, o);
			return -1;
		}
		for (unsigned long i = 0; i < size; i++) {
			*twice += page[i].where != NOWHERE;
			page[i].where = ON_FREE_LIST;
		}
		n += (long)size;
		(*blocks)++;
	}
	return n;
}

/*
 * the zone's free lists: every order's blocks and pages, against nr_free
 * and NR_FREE_PAGES (zone_page_state_snapshot(): the zone's atomic and
 * every CPU's unfolded diff, diff)
 */
static long mark_free(struct zone *zone, long diff, long *twice, char *msg, size_t len)
{
	long free = 0;

	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		long blocks = 0;

		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			long n = mark_free_list(zone, o, mt, &blocks, twice, msg, len);

			if (n < 0)
				return -1;
			free += n;
		}
		if (blocks != (long)zone->free_area[o].nr_free) {
			snprintf(msg, len, "zone: %ld blocks on the order-%u lists, nr_free %lu",
				 blocks, o, zone->free_area[o].nr_free);
			return -1;
		}
	}
	if (free != atomic_load(&zone->vm_stat[NR_FREE_PAGES]) + diff) {
		snprintf(msg, len, "zone: %ld pages on the free lists, NR_FREE_PAGES %ld (%ld "
			 "in the zone, %ld in CPUs' diffs)", free,
			 atomic_load(&zone->vm_stat[NR_FREE_PAGES]) + diff,
			 atomic_load(&zone->vm_stat[NR_FREE_PAGES]), diff);
		return -1;
	}
	return free;
}

/*
 * Each page's state where it is: PG_buddy only at the head of a free
 * block (the allocator would merge with it anywhere else), and a
 * reference only on a page a fault mapped (prep_new_page()'s; the
 * pcp_alloc_free workload calls rmqueue() alone, and a page on a free or
 * pcp list has none)
 */
static int check_page_states(struct zone *zone, int faulted, char *msg, size_t len)
{
	for (unsigned long pfn = 0; pfn < zone->nr_pages; pfn++) {
		const struct page *page = pfn_to_page(zone, pfn);
		int refs = page->where == HELD && faulted;

		if (PageBuddy(page) && page->where != ON_FREE_LIST) {
			snprintf(msg, len, "zone: pfn %lu is PG_buddy but not on a free list", pfn);
			return -1;
		}
		if (page_ref_count(page) != refs) {
			snprintf(msg, len, "zone: pfn %lu %s has %d reference(s), not %d", pfn,
				 page->where == HELD ? "held" : page->where == ON_PCP_LIST ?
				 "on a pcp list" : "free", page_ref_count(page), refs);
			return -1;
		}
	}
	return 0;
}

/*
 * zone_statistics()'s events summed over the CPUs: every allocation is a
 * NUMA_HIT (one zone: its node is the preferred one) and either
 * NUMA_LOCAL or NUMA_OTHER, never a NUMA_MISS or NUMA_FOREIGN
 */
static int check_numa_events(struct pcb_cpu *const *cpus, int nr_cpus, char *msg, size_t len)
{
	unsigned long ev[NR_VM_NUMA_EVENT_ITEMS] = { 0 };

	for (int c = 0; c < nr_cpus; c++)
		for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++)
			ev[i] += pcp_cpu(cpus[c])->zonestat.vm_numa_event[i];
	if (ev[NUMA_HIT] + ev[NUMA_MISS] != ev[NUMA_LOCAL] + ev[NUMA_OTHER] || ev[NUMA_MISS] ||
	    ev[NUMA_FOREIGN]) {
		snprintf(msg, len, "NUMA events: %lu hit + %lu miss, but %lu local + %lu other; "
			 "%lu foreign", ev[NUMA_HIT], ev[NUMA_MISS], ev[NUMA_LOCAL], ev[NUMA_OTHER],
			 ev[NUMA_FOREIGN]);
		return -1;
	}
	return 0;
}

/* the charges of page faults: usage and references of every memcg of the tree */
static int check_charges(const struct pcb_quiescent *q, char *msg, size_t len)
{
	struct pcp_shared *s = q->shared;
	const struct pcb_variant *v = q->v;
	struct pcb_worker *const *w = q->w;
	struct pcb_cpu *const *cpus = q->cpus;
	int nr_workers = q->nr_workers, nr_cpus = q->nr_cpus;

	for (int m = 0; m < s->tree.nr; m++) {
		struct mem_cgroup *memcg = s->tree.memcg[m];
		long usage = (long)page_counter_read(&memcg->memory), expect = 0, refs = 0;

		for (int d = 0; d < s->tree.nr; d++) {
			struct mem_cgroup *desc = s->tree.memcg[d];

			if (!mem_cgroup_is_descendant(desc, memcg))
				continue;
			for (int i = 0; i < nr_workers; i++)
				for (int p = 0; p < pcp_worker(w[i])->nr_held; p++)
					expect += pcp_worker(w[i])->held[p]->memcg_data == desc &&
						  !mem_cgroup_is_root(desc);
			for (int c = 0; c < nr_cpus; c++)
				expect += pcp_ops(v)->memcg_stock_pages(cpus[c], desc);
		}
		if (usage != expect) {
			snprintf(msg, len, "memcg level %d: page_counter usage %ld, but charged "
				 "pages held and stocked are %ld", memcg_level(memcg), usage, expect);
			return -1;
		}
		if (mem_cgroup_is_root(memcg))
			continue;	/* CSS_NO_REF */
		for (int i = 0; i < nr_workers; i++)
			for (int p = 0; p < pcp_worker(w[i])->nr_held; p++)
				refs += pcp_worker(w[i])->held[p]->memcg_data == memcg;
		for (int c = 0; c < nr_cpus; c++)
			refs += pcp_ops(v)->memcg_stock_refs(cpus[c], memcg);
		if (memcg_css_refs(memcg, cpus, nr_cpus) != refs) {
			snprintf(msg, len, "memcg level %d: %ld css references, expected %ld",
				 memcg_level(memcg), memcg_css_refs(memcg, cpus, nr_cpus), refs);
			return -1;
		}
	}
	return 0;
}

int pcp_check(const struct pcb_quiescent *q, char *msg, size_t len)
{
	struct pcp_shared *s = q->shared;
	const struct pcb_variant *v = q->v;
	struct pcb_worker *const *w = q->w;
	struct pcb_cpu *const *cpus = q->cpus;
	int nr_workers = q->nr_workers, nr_cpus = q->nr_cpus;
	struct zone *zone = &s->zone;
	long free = 0, on_pcp = 0, held = 0, twice = 0, diff = 0, bad = 0;

	for (unsigned long pfn = 0; pfn < zone->nr_pages; pfn++)
		pfn_to_page(zone, pfn)->where = NOWHERE;
	for (int c = 0; c < nr_cpus; c++) {
		diff += pcp_cpu(cpus[c])->zonestat.vm_stat_diff[NR_FREE_PAGES];
		bad += (long)cpus[c]->ev[PCP_EV_BAD_PAGE];
	}
	if (bad) {
		snprintf(msg, len, "%ld page(s) not in their expected state at a check_free_page() "
			 "or check_new_page() (bad_page(): leaked)", bad);
		return -1;
	}
	if (check_numa_events(cpus, nr_cpus, msg, len) < 0)
		return -1;
	free = mark_free(zone, diff, &twice, msg, len);
	if (free < 0)
		return -1;
	for (int c = 0; c < nr_cpus; c++) {
		const void *pcps[2] = { cpus[c]->stock, cpus[c]->stock_spare };

		for (int k = 0; k < 2; k++) {
			long n;

			if (!pcps[k])
				continue;
			n = pcp_ops(v)->pcp_walk(pcps[k], ON_PCP_LIST, &twice);
			if (n != pcp_ops(v)->pcp_count(pcps[k])) {
				snprintf(msg, len, "CPU %u: %ld pages on its lists, pcp->count %d",
					 cpus[c]->cpu, n, pcp_ops(v)->pcp_count(pcps[k]));
				return -1;
			}
			on_pcp += n;
		}
	}
	for (int i = 0; i < nr_workers; i++)
		for (int p = 0; p < pcp_worker(w[i])->nr_held; p++) {
			struct page *page = pcp_worker(w[i])->held[p];

			twice += page->where != NOWHERE;
			page->where = HELD;
			held++;
		}
	if (twice) {
		snprintf(msg, len, "%ld page(s) in two places at once", twice);
		return -1;
	}
	if (free + on_pcp + held != (long)zone->nr_pages) {
		snprintf(msg, len, "%lu pages in the zone, but %ld free + %ld on pcp lists + %ld "
			 "held = %ld", zone->nr_pages, free, on_pcp, held, free + on_pcp + held);
		return -1;
	}
	if (check_page_states(zone, s->cfg.workload == PCP_WL_PAGE_FAULT, msg, len) < 0)
		return -1;
	snprintf(msg, len, "ok");
	return check_charges(q, msg, len);
}
