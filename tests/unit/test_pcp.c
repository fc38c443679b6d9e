/* SPDX-License-Identifier: MIT */

/*
 * The page allocator model's torture (tests/unit/torture.h): for every design,
 * build variant, work delivery and workload, workers pinned two to a CPU
 * allocate and free pages (or fault them in and unmap them, charging a
 * memcg) while another thread fires drain_all_pages() as fast as it can.
 * At each quiescent point every page is in exactly one place (a zone free
 * list, a CPU's lists, or held by a worker), every count equals its list,
 * charges balance; a drain then empties every CPU's lists; at the end
 * nothing is left on them. The last worker's CPU is isolated, which qpw
 * drains from the drainer's CPU under its lock. The check is shown to
 * catch a page in two places, a lost page, a count that lies and a page
 * bad_page() leaked.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "testing.h"
#include "torture.h"
#include "../../kernels/locks/irq.h"
#include "../../kernels/pcp/buddy.h"
#include "../../kernels/pcp/pcp_model.h"
/* the bulk paths themselves, in one design's build, for the tests of their order */
#include "../../kernels/pcp/designs/local_lock.h"
#include "../../kernels/pcp/page_alloc.h"

#define OPS 8000

/* the test's own CPU for the buddy allocator: threshold 0, each count straight to the zone */
static struct per_cpu_zonestat test_zonestats;

static struct pcp_shared *shared_of(struct torture *t)
{
	return t->shared;
}

static int check(struct torture *t, char *msg, size_t len)
{
	return torture_check(t, msg, len);
}

/* call timing on even workers, batch on odd ones */
static void pcp_torture_worker(struct torture *t, int i)
{
	t->w[i]->timing = i & 1 ? PCB_TIMING_BATCH : PCB_TIMING_CALL;
}

/*
 * zone_statistics() counted every allocation: NUMA_HIT summed over the
 * CPUs equals PGALLOC summed (the test, unlike a run, never resets the
 * vm events)
 */
static void numa_hits(struct torture *t, const char *when)
{
	unsigned long hit = 0, alloc = 0;

	for (int c = 0; c <= TORTURE_WORKERS; c++) {
		hit += pcp_cpu(t->cpu[c])->zonestat.vm_numa_event[NUMA_HIT];
		alloc += t->cpu[c]->ev[PCP_EV_PGALLOC];
	}
	CHECK(hit == alloc && alloc > 0, "%s, %s: %lu NUMA_HIT, %lu allocations", t->name, when,
	      hit, alloc);
}

static void pcp_torture_round(struct torture *t, int r)
{
	numa_hits(t, "a round");
}

/*
 * NR_FREE_PAGES as zone_page_state_snapshot() reads it: the zone's atomic
 * and every CPU's vm_stat_diff. A page moved from one to the other keeps
 * the check whole; a diff that lies breaks it. The threshold is
 * calculate_normal_threshold()'s: 2 fls(4 CPUs) (1 + fls(16 MB / 128 MB)).
 */
static void vmstat_breaks(struct torture *t)
{
	struct zone *zone = &shared_of(t)->zone;
	struct per_cpu_zonestat *zs = &pcp_cpu(t->cpu[0])->zonestat;
	signed char keep = zs->vm_stat_diff[NR_FREE_PAGES];
	char msg[256];

	CHECK(zs->stat_threshold == 6, "%s: stat_threshold %d", t->name, zs->stat_threshold);
	zs->vm_stat_diff[NR_FREE_PAGES] = (signed char)(keep + 1);
	CHECK(check(t, msg, sizeof(msg)) < 0 && strstr(msg, "NR_FREE_PAGES"),
	      "%s: a lying diff: %s", t->name, msg);
	atomic_fetch_sub(&zone->vm_stat[NR_FREE_PAGES], 1);
	CHECK(check(t, msg, sizeof(msg)) == 0, "%s: a page in the diff, not the zone: %s",
	      t->name, msg);
	atomic_fetch_add(&zone->vm_stat[NR_FREE_PAGES], 1);
	zs->vm_stat_diff[NR_FREE_PAGES] = keep;
}

/* a split block, a misaligned block and a lying nr_free: each caught, each put back */
static void buddy_block_breaks(struct torture *t, struct zone *zone, unsigned int o)
{
	struct page *a = page_of(zone->free_area[o].free_list[MIGRATE_MOVABLE].next);
	char msg[256];

	del_page_from_free_list(a, zone, o);
	set_buddy_order(a, o - 1);
	add_to_free_list(a, zone, o - 1, MIGRATE_MOVABLE);
	set_buddy_order(&a[1ul << (o - 1)], o - 1);
	add_to_free_list(&a[1ul << (o - 1)], zone, o - 1, MIGRATE_MOVABLE);
	CHECK(check(t, msg, sizeof(msg)) < 0 && strstr(msg, "not merged"), "%s: unmerged: %s",
	      t->name, msg);
	del_page_from_free_list(&a[1ul << (o - 1)], zone, o - 1);
	del_page_from_free_list(a, zone, o - 1);
	set_buddy_order(&a[1], o);
	add_to_free_list(&a[1], zone, o, MIGRATE_MOVABLE);
	CHECK(check(t, msg, sizeof(msg)) < 0 && strstr(msg, "not aligned"), "%s: misaligned: %s",
	      t->name, msg);
	del_page_from_free_list(&a[1], zone, o);
	atomic_fetch_sub(&zone->vm_stat[NR_FREE_PAGES], 1l << o);
	__free_one_page(&test_zonestats, zone, a, page_to_pfn(zone, a), o, MIGRATE_MOVABLE);
	zone->free_area[o].nr_free++;
	CHECK(check(t, msg, sizeof(msg)) < 0 && strstr(msg, "blocks on the order"),
	      "%s: nr_free: %s", t->name, msg);
	zone->free_area[o].nr_free--;
}

/*
 * The buddy allocator's part of the check: a block split by hand and not
 * merged, a block off its alignment, a lying nr_free, and PG_buddy on a
 * page held; and __rmqueue_smallest() then __free_one_page() of a page
 * leaving the free lists as they were (the split merged back).
 */
static void buddy_breaks(struct torture *t)
{
	struct pcp_worker *w0 = pcp_worker(t->w[0]);
	struct zone *zone = &shared_of(t)->zone;
	unsigned long before[MAX_ORDER];
	unsigned int o = MAX_ORDER - 1;
	struct page *p;
	char msg[256];

	while (o && list_empty(&zone->free_area[o].free_list[MIGRATE_MOVABLE]))
		o--;
	CHECK(o > 0, "%s: a free block above order 0", t->name);
	if (!o)
		return;
	buddy_block_breaks(t, zone, o);

	for (unsigned int i = 0; i < MAX_ORDER; i++)
		before[i] = zone->free_area[i].nr_free;
	p = __rmqueue_smallest(zone, 0, MIGRATE_MOVABLE);
	CHECK(p && !PageBuddy(p), "%s: a page off the free lists", t->name);
	if (!p)
		return;
	atomic_fetch_sub(&zone->vm_stat[NR_FREE_PAGES], 1);
	w0->held[w0->nr_held++] = p;
	/* a fault's page has prep_new_page()'s reference */
	set_page_count(p, shared_of(t)->cfg.workload == PCP_WL_PAGE_FAULT);
	CHECK(check(t, msg, sizeof(msg)) == 0, "%s: a page split off: %s", t->name, msg);
	/* of no order a block can have, so that no free neighbour takes it for its buddy */
	__SetPageBuddy(p);
	p->private = MAX_ORDER;
	CHECK(check(t, msg, sizeof(msg)) < 0 && strstr(msg, "PG_buddy but not"),
	      "%s: stray PG_buddy: %s", t->name, msg);
	__ClearPageBuddy(p);
	p->private = 0;
	w0->nr_held--;
	set_page_count(p, 0);
	__free_one_page(&test_zonestats, zone, p, page_to_pfn(zone, p), 0, MIGRATE_MOVABLE);
	for (unsigned int i = 0; i < MAX_ORDER; i++)
		CHECK(zone->free_area[i].nr_free == before[i], "%s: order %u: %lu blocks, %lu before",
		      t->name, i, zone->free_area[i].nr_free, before[i]);
	CHECK(check(t, msg, sizeof(msg)) == 0, "%s: merged back: %s", t->name, msg);
}

/* the check catches a page in two places, a lost page, and a lying count */
static void place_breaks(struct torture *t)
{
	struct pcp_worker *w0 = pcp_worker(t->w[0]);
	struct zone *zone = &shared_of(t)->zone;
	unsigned int o = MAX_ORDER - 1;
	struct page *a;
	char msg[256];

	while (o && list_empty(&zone->free_area[o].free_list[MIGRATE_MOVABLE]))
		o--;
	a = page_of(zone->free_area[o].free_list[MIGRATE_MOVABLE].next);
	w0->held[w0->nr_held++] = a;
	CHECK(check(t, msg, sizeof(msg)) < 0 && strstr(msg, "two places"), "%s: twice: %s",
	      t->name, msg);
	w0->nr_held--;
	del_page_from_free_list(a, zone, o);
	atomic_fetch_sub(&zone->vm_stat[NR_FREE_PAGES], 1l << o);
	CHECK(check(t, msg, sizeof(msg)) < 0 && strstr(msg, "pages in the zone"),
	      "%s: lost: %s", t->name, msg);
	__free_one_page(&test_zonestats, zone, a, page_to_pfn(zone, a), o, MIGRATE_MOVABLE);
	pcp_ops(t->v)->pcp_miscount(t->cpu[0]->stock, 1);
	CHECK(check(t, msg, sizeof(msg)) < 0 && strstr(msg, "pcp->count"), "%s: count: %s",
	      t->name, msg);
	pcp_ops(t->v)->pcp_miscount(t->cpu[0]->stock, -1);
	CHECK(check(t, msg, sizeof(msg)) == 0, "%s: restored: %s", t->name, msg);
	set_page_count(a, 1);
	CHECK(check(t, msg, sizeof(msg)) < 0 && strstr(msg, "reference"),
	      "%s: a free page referenced: %s", t->name, msg);
	set_page_count(a, 0);
}

/* a page bad_page() leaked, and a NUMA hit neither local nor other */
static void count_breaks(struct torture *t)
{
	char msg[256];

	t->cpu[0]->ev[PCP_EV_BAD_PAGE]++;
	CHECK(check(t, msg, sizeof(msg)) < 0 && strstr(msg, "bad_page"), "%s: bad page: %s",
	      t->name, msg);
	t->cpu[0]->ev[PCP_EV_BAD_PAGE]--;
	pcp_cpu(t->cpu[1])->zonestat.vm_numa_event[NUMA_HIT]++;
	CHECK(check(t, msg, sizeof(msg)) < 0 && strstr(msg, "NUMA"),
	      "%s: a hit not local: %s", t->name, msg);
	pcp_cpu(t->cpu[1])->zonestat.vm_numa_event[NUMA_HIT]--;
}

static void pcp_torture_end(struct torture *t)
{
	uint64_t allocs = 0;

	numa_hits(t, "at the end");
	for (int i = 0; i < TORTURE_WORKERS; i++)
		allocs += t->cpu[i]->ev[PCP_EV_PGALLOC];
	CHECK(allocs > 0, "%s: the workers allocated", t->name);
	place_breaks(t);
	count_breaks(t);
	vmstat_breaks(t);
	buddy_breaks(t);
}

static const struct torture_ops pcp_torture = {
	.ops = OPS, .worker = pcp_torture_worker, .round = pcp_torture_round,
	.end = pcp_torture_end,
};

static void run_one(const struct pcb_design *d, int lock_first, int irq, int workload,
		    enum pcb_delivery delivery)
{
	struct pcp_config cfg = {
		.workload = workload, .timing = PCB_TIMING_CALL, .irq_model = irq,
		.lock_placement = lock_first ? PCP_LOCK_FIRST_LINE : PCP_LOCK_END, .batch = 7,
		.high = 40, .zone_pages = 4096, .burst = 1 + lock_first * 20, .map_pages = 100,
		.accounting = PCP_ACCT_MEMCG, .depth = 3, .clear = 1,
	};

	torture_run(&pcp_model, d, &cfg, delivery, &pcp_torture);
}

/*
 * __free_one_page() as v5.16 counts and merges: NR_FREE_PAGES by the
 * block freed, once, however far it merges; nothing for an isolated
 * pageblock's block, which stops merging at pageblock_order.
 */
static void buddy_counts(void)
{
	struct per_cpu_zonestat zs = { .stat_threshold = 100 };
	struct zone *zone = aligned_alloc(64, sizeof(*zone));
	struct page *p, *a, *b;
	char err[256];
	long before;

	CHECK(zone && pcp_zone_create(zone, 4096, err, sizeof(err)) == 0, "zone: %s", err);
	if (!zone || !zone->memmap) {
		free(zone);
		return;
	}
	CHECK(atomic_load(&zone->vm_stat[NR_FREE_PAGES]) == 4096 &&
	      zone->free_area[MAX_ORDER - 1].nr_free == 4,
	      "boot: NR_FREE_PAGES %ld, %lu blocks of order 10",
	      atomic_load(&zone->vm_stat[NR_FREE_PAGES]), zone->free_area[MAX_ORDER - 1].nr_free);

	p = __rmqueue_smallest(zone, 0, MIGRATE_MOVABLE);
	__mod_zone_freepage_state(&zs, zone, -1, MIGRATE_MOVABLE);
	CHECK(zs.vm_stat_diff[NR_FREE_PAGES] == -1, "one page taken: diff %d",
	      zs.vm_stat_diff[NR_FREE_PAGES]);
	for (unsigned int o = 0; o < MAX_ORDER - 1; o++)
		CHECK(zone->free_area[o].nr_free == 1, "split: order %u has %lu blocks", o,
		      zone->free_area[o].nr_free);
	__free_one_page(&zs, zone, p, page_to_pfn(zone, p), 0, MIGRATE_MOVABLE);
	CHECK(zs.vm_stat_diff[NR_FREE_PAGES] == 0 && zone->free_area[MAX_ORDER - 1].nr_free == 4,
	      "freed and merged ten times: diff %d, %lu blocks of order 10",
	      zs.vm_stat_diff[NR_FREE_PAGES], zone->free_area[MAX_ORDER - 1].nr_free);

	/* two halves of an order-10 block; the second's pageblock isolated */
	a = __rmqueue_smallest(zone, pageblock_order, MIGRATE_MOVABLE);
	b = __rmqueue_smallest(zone, pageblock_order, MIGRATE_MOVABLE);
	CHECK(a && b && (page_to_pfn(zone, a) ^ page_to_pfn(zone, b)) == 1ul << pageblock_order,
	      "two buddies of order %d", pageblock_order);
	if (!a || !b)
		goto out;
	__mod_zone_freepage_state(&zs, zone, -(2 << pageblock_order), MIGRATE_MOVABLE);
	{
		unsigned long bitidx = (page_to_pfn(zone, b) >> pageblock_order) * NR_PAGEBLOCK_BITS;

		zone->pageblock_flags[bitidx / 64] &= ~(MIGRATETYPE_MASK << (bitidx & 63));
		zone->pageblock_flags[bitidx / 64] |= (unsigned long)MIGRATE_ISOLATE << (bitidx & 63);
		zone->nr_isolate_pageblock = 1;
	}
	before = atomic_load(&zone->vm_stat[NR_FREE_PAGES]) + zs.vm_stat_diff[NR_FREE_PAGES];

	__free_one_page(&zs, zone, a, page_to_pfn(zone, a), pageblock_order, MIGRATE_MOVABLE);
	__free_one_page(&zs, zone, b, page_to_pfn(zone, b), pageblock_order, MIGRATE_ISOLATE);
	CHECK(atomic_load(&zone->vm_stat[NR_FREE_PAGES]) + zs.vm_stat_diff[NR_FREE_PAGES] ==
	      before + (1l << pageblock_order), "the isolated block is not counted free");
	CHECK(zone->free_area[pageblock_order].nr_free == 2 &&
	      !list_empty(&zone->free_area[pageblock_order].free_list[MIGRATE_ISOLATE]),
	      "an isolated pageblock's block does not merge with its buddy: %lu of order %d",
	      zone->free_area[pageblock_order].nr_free, pageblock_order);
out:
	pcp_zone_destroy(zone);
	free(zone);
}

/*
 * The checks v5.16 makes without CONFIG_DEBUG_VM: a page still referenced
 * found by bulkfree_pcp_prepare() as a spill takes it off a pcp list, and
 * a page still charged found by check_pcp_refill() as a refill takes it
 * off the free lists; each is leaked (bad_page()) and not counted free,
 * and the refill's NR_FREE_PAGES still counts it taken.
 */
static void bad_pages(struct pcb_cpu *this, struct zone *zone, struct per_cpu_pages *pcp)
{
	struct per_cpu_zonestat *zs = &pcp_cpu(this)->zonestat;
	struct list_head list, *l = &pcp->lists[order_to_pindex(MIGRATE_MOVABLE, 0)];
	struct page *bad = page_of(l->prev), *next = NULL;
	int diff = zs->vm_stat_diff[NR_FREE_PAGES], n;

	set_page_count(bad, 1);
	free_pcppages_bulk(this, zone, pcp->count, pcp);
	CHECK(this->ev[PCP_EV_BAD_PAGE] == 1 && pcp->count == 0 && !PageBuddy(bad) &&
	      zs->vm_stat_diff[NR_FREE_PAGES] == diff + 4,
	      "a referenced page spilled: %lu bad, count %d, NR_FREE_PAGES diff %d (was %d)",
	      this->ev[PCP_EV_BAD_PAGE], pcp->count, zs->vm_stat_diff[NR_FREE_PAGES], diff);
	set_page_count(bad, 0);

	/* the block the refill's first __rmqueue() takes: the smallest order's first */
	for (unsigned int o = 0; o < MAX_ORDER && !next; o++)
		if (!list_empty(&zone->free_area[o].free_list[MIGRATE_MOVABLE]))
			next = page_of(zone->free_area[o].free_list[MIGRATE_MOVABLE].next);
	CHECK(next != NULL, "a free block");
	if (!next)
		return;
	next->memcg_data = (struct mem_cgroup *)zone;
	diff = zs->vm_stat_diff[NR_FREE_PAGES];
	INIT_LIST_HEAD(&list);
	n = rmqueue_bulk(this, zone, 3, &list, MIGRATE_MOVABLE);
	CHECK(n == 2 && this->ev[PCP_EV_BAD_PAGE] == 2 && zs->vm_stat_diff[NR_FREE_PAGES] == diff - 3,
	      "a charged page refilled: %d of 3 on the list, %lu bad, NR_FREE_PAGES diff %d (was %d)",
	      n, this->ev[PCP_EV_BAD_PAGE], zs->vm_stat_diff[NR_FREE_PAGES], diff);
	next->memcg_data = NULL;
}

/*
 * free_pcppages_bulk()'s round robin as v5.16 has it: five pages on the
 * order-0 UNMOVABLE list, five on MOVABLE, two on RECLAIMABLE, seven to
 * free. From MOVABLE one page (batch_free 1), from RECLAIMABLE one, then
 * past twelve empty lists to UNMOVABLE with batch_free 13: its five. (One
 * list emptied before the next, as v5.18 does, would leave UNMOVABLE's
 * five and nothing else.) Each freed page is counted into NR_FREE_PAGES.
 */
static void bulk_free_order(void)
{
	static const int per_list[MIGRATE_PCPTYPES] = { 5, 5, 2 }, left[MIGRATE_PCPTYPES] = { 0, 4, 1 };
	struct pcp_cpu *pc = aligned_alloc(64, sizeof(*pc));
	struct zone *zone = aligned_alloc(64, sizeof(*zone));
	struct per_cpu_pages pcp;
	struct pcb_cpu *this;
	char err[256];

	CHECK(pc && zone && pcp_zone_create(zone, 4096, err, sizeof(err)) == 0, "zone: %s", err);
	if (!pc || !zone || !zone->memmap) {
		free(pc);
		free(zone);
		return;
	}
	memset(pc, 0, sizeof(*pc));
	this = &pc->memcg.cpu;
	pc->zonestat.stat_threshold = 100;
	per_cpu_pages_init(this, &pcp);
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		for (int i = 0; i < per_list[mt]; i++) {
			struct page *page = __rmqueue_smallest(zone, 0, MIGRATE_MOVABLE);

			__mod_zone_freepage_state(&pc->zonestat, zone, -1, MIGRATE_MOVABLE);
			page->migratetype = mt;
			list_add(&page->lru, &pcp.lists[order_to_pindex(mt, 0)]);
			pcp.count++;
		}
	free_pcppages_bulk(this, zone, 7, &pcp);
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
		int n = 0;

		for (struct list_head *p = pcp.lists[mt].next; p != &pcp.lists[mt]; p = p->next)
			n++;
		CHECK(n == left[mt], "free_pcppages_bulk(7): migratetype %d keeps %d, not %d", mt, n,
		      left[mt]);
	}
	CHECK(pcp.count == 5 && pc->zonestat.vm_stat_diff[NR_FREE_PAGES] == -5,
	      "free_pcppages_bulk(7): count %d, NR_FREE_PAGES diff %d", pcp.count,
	      pc->zonestat.vm_stat_diff[NR_FREE_PAGES]);
	bad_pages(this, zone, &pcp);
	pcp_zone_destroy(zone);
	free(zone);
	free(pc);
}

/* nr_pcp_high() reads zone->flags: four batches at most while reclaim is active */
static void pcp_high_reclaim(void)
{
	struct zone *zone = aligned_alloc(64, sizeof(*zone));
	struct per_cpu_pages pcp = { .high = 378, .batch = 63 };

	if (!zone)
		return;
	memset(zone, 0, sizeof(*zone));
	CHECK(nr_pcp_high(&pcp, zone) == 378, "no reclaim: high %d", nr_pcp_high(&pcp, zone));
	zone->flags |= 1ul << ZONE_RECLAIM_ACTIVE;
	CHECK(nr_pcp_high(&pcp, zone) == 4 * 63, "reclaim active: high %d",
	      nr_pcp_high(&pcp, zone));
	pcp.high = 0;
	CHECK(nr_pcp_high(&pcp, zone) == 0, "pcp disabled: high %d", nr_pcp_high(&pcp, zone));
	free(zone);
}

/* the variant a configuration runs is the build meson named for it: both read variants.def */
static void variant_names(const struct pcb_design *d)
{
	for (int lock_first = 0; lock_first <= 1; lock_first++)
		for (int irq = 0; irq < PCB_IRQ_MODELS; irq++) {
			struct pcp_config cfg = { .irq_model = irq,
				.lock_placement = lock_first ? PCP_LOCK_FIRST_LINE : PCP_LOCK_END };
			int index = pcp_model.ops.variant_index(&cfg, d);
			const struct pcb_variant *v = d->variant[index];
			char name[16];

			snprintf(name, sizeof(name), "l%d_i%d", lock_first, irq);
			CHECK(!strcmp(v->name, name), "%s: lock_first %d, irq_model %d: variant %s",
			      d->name, lock_first, irq, v->name);
			CHECK(pcp_ops(v)->lock_first == lock_first &&
			      (!pcp_ops(v)->lock_size || !lock_first || pcp_ops(v)->lock_offset == 0),
			      "%s %s: the build's lock at %zu", d->name, v->name,
			      pcp_ops(v)->lock_offset);
		}
}

/*
 * pcp.lock_placement = design: the layout of the design's kernel, v6.2's
 * (the lock first, whole cache lines) for pcp_trylock, the series' for
 * the rest
 */
static void design_layout(const struct pcb_design *d)
{
	struct pcp_config cfg = { .lock_placement = PCP_LOCK_DESIGN };
	const struct pcb_variant *v = d->variant[pcp_model.ops.variant_index(&cfg, d)];
	const struct pcp_ops *ops = pcp_ops(v);
	int v62 = !strcmp(d->name, "pcp_trylock");

	CHECK(ops->lock_first == v62, "%s: by default the lock %s, not %s", d->name,
	      v62 ? "first" : "after the lists", v->name);
	if (v62)
		CHECK(ops->lock_offset == 0 && v->stock_size % 64 == 0,
		      "pcp_trylock: v6.2's per_cpu_pages has the lock at 0 (here %zu), %zu bytes",
		      ops->lock_offset, v->stock_size);
	else if (ops->lock_size)
		CHECK(ops->lock_offset == 256, "%s: the series' lock at 256, here %zu", d->name,
		      ops->lock_offset);
}

int main(void)
{
	buddy_counts();
	bulk_free_order();
	pcp_high_reclaim();
	for (int i = 0; pcp_model.designs[i]; i++) {
		const struct pcb_design *d = pcp_model.designs[i];

		variant_names(d);
		design_layout(d);
		for (int wl = 0; wl < PCP_WL_NR; wl++) {
			for (int del = 0; del <= PCB_DELIVER_POLL; del++)
				if (torture_delivers(d, del))
					run_one(d, 0, 0, wl, (enum pcb_delivery)del);
			run_one(d, 1, 1, wl, PCB_DELIVER_POLL);
			run_one(d, 0, PCB_IRQ_KERNEL, wl, PCB_DELIVER_POLL);
		}
	}
	return check_summary();
}
