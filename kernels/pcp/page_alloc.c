/* SPDX-License-Identifier: MIT */
/*
 * The zone and its pages, and the invariant: every page in exactly one
 * place (a zone free list, a CPU's per_cpu_pages, or held by a worker),
 * every count equal to its list, and page faults' charges balanced.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "pcp_model.h"

pthread_mutex_t pcpu_drain_mutex = PTHREAD_MUTEX_INITIALIZER;

int pcp_zone_create(struct zone *zone, unsigned long nr_pages, char *err, size_t errlen)
{
	memset(zone, 0, sizeof(*zone));
	spin_lock_init(&zone->lock);
	zone->mem = mmap(NULL, nr_pages * PCB_PAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (zone->mem == MAP_FAILED) {
		zone->mem = NULL;
		snprintf(err, errlen, "a zone of %lu pages: %s", nr_pages, strerror(errno));
		return -1;
	}
	zone->nr_pages = nr_pages;
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		INIT_LIST_HEAD(&zone->free_area[0].free_list[mt]);
	for (unsigned long pfn = 0; pfn < nr_pages; pfn++) {
		struct page *page = pfn_to_page(zone, pfn);

		page->migratetype = MIGRATE_MOVABLE;
		list_add_tail(&page->lru, &zone->free_area[0].free_list[MIGRATE_MOVABLE]);
	}
	zone->free_area[0].nr_free = nr_pages;
	atomic_store(&zone->vm_stat[NR_FREE_PAGES], (long)nr_pages);
	return 0;
}

void pcp_zone_destroy(struct zone *zone)
{
	if (zone->mem)
		munmap(zone->mem, zone->nr_pages * PCB_PAGE_SIZE);
	memset(zone, 0, sizeof(*zone));
}

/* the places a page can be, as marks */
enum { NOWHERE, ON_FREE_LIST, ON_PCP_LIST, HELD };

static long mark_list(struct list_head *head, int mark, long *twice)
{
	long n = 0;

	for (struct list_head *p = head->next; p != head; p = p->next) {
		struct page *page = page_of(p);

		*twice += page->where != NOWHERE;
		page->where = mark;
		n++;
	}
	return n;
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
	long free = 0, on_pcp = 0, held = 0, twice = 0;

	for (unsigned long pfn = 0; pfn < zone->nr_pages; pfn++)
		pfn_to_page(zone, pfn)->where = NOWHERE;
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		free += mark_list(&zone->free_area[0].free_list[mt], ON_FREE_LIST, &twice);
	if (free != (long)zone->free_area[0].nr_free ||
	    free != atomic_load(&zone->vm_stat[NR_FREE_PAGES])) {
		snprintf(msg, len, "zone: %ld pages on the free lists, nr_free %lu, NR_FREE_PAGES "
			 "%ld", free, zone->free_area[0].nr_free,
			 atomic_load(&zone->vm_stat[NR_FREE_PAGES]));
		return -1;
	}
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
	snprintf(msg, len, "ok");
	return check_charges(q, msg, len);
}
