/* SPDX-License-Identifier: MIT */
/*
 * The page allocator model's part of the design template (kernels/template/):
 * one design (PCB_DESIGN_HEADER) in one build variant (PCP_LOCK_FIRST: the
 * lock after the lists, as the series has it, or first, beside count, high
 * and batch, as v6.2 has it; PCB_IRQ_MODEL: the irq_model cost; its
 * variants.def). The design's header says which layout its kernel has
 * (PCP_DESIGN_LOCK_FIRST), the default of pcp.lock_placement.
 *
 * Page faults charge memcgs as seed 002's base kernel does: the memcg model's
 * local_trylock stock, kept in this CPU's struct pcp_cpu.
 */
#ifndef PCB_PCP_VARIANT_H
#define PCB_PCP_VARIANT_H

#include "pcp_model.h"

/* the memcg charge path of a fault */
#define MEMCG_STOCK_OF(cpu) ((void *)pcp_cpu(cpu)->memcg_stock)
#include "../memcg/designs/local_trylock.h"
#undef MEMCG_STOCK_DRAIN_HEADER		/* pcp's drain is the design's, not the stock's */
#include "../memcg/memcg_stock.h"
#include "../memcg/memcg_charge.h"
#include "../memcg/memcg_hooks.h"
#undef DESIGN_SUMMARY
#undef DESIGN_FOLLOWS
#undef DESIGN_PROMISE
_Static_assert(sizeof(struct memcg_stock_pcp) <= PCP_MEMCG_STOCK_BYTES,
	       "the memcg stock fits the room struct pcp_cpu keeps for it");

#include PCB_DESIGN_HEADER
#include "loop.h"

#define MODEL_CPU		struct pcp_cpu
#define MODEL_STOCK		struct per_cpu_pages
#define MODEL_STOCK_HOT_BYTES	(offsetof(struct per_cpu_pages, lists) + \
				 sizeof(struct list_head) * MIGRATE_PCPTYPES)

/* where the design's kernel keeps the per_cpu_pages lock: pcp.lock_placement = design */
#ifndef PCP_DESIGN_LOCK_FIRST
#define PCP_DESIGN_LOCK_FIRST 0		/* after the lists: the series, or no lock there */
#endif
#define MODEL_DESIGN_INFO_TYPE	struct pcp_design_info
#define MODEL_DESIGN_INFO	{ .lock_first = PCP_DESIGN_LOCK_FIRST }

static void FN(run)(struct pcb_worker *pw)
{
	struct pcp_worker *w = pcp_worker(pw);

	pcb_drain_online();
	if (w->workload == PCP_WL_PAGE_FAULT)
		pcp_loop_page_fault(w);
	else
		pcp_loop_alloc_free(w);
	pcb_drain_offline();
}

static void FN(release)(struct pcb_worker *w)
{
	pcp_release_held(pcp_worker(w));
}

static void FN(stock_init)(const struct pcb_cpu *cpu, void *pcp)
{
	per_cpu_pages_init(cpu, pcp);
}

static pcb_work_data_t *FN(work_data)(struct pcb_cpu *cpu)
{
	return &pcp_cpu(cpu)->drain.work.data;
}

static void FN(drain_local)(struct pcb_cpu *this)
{
	/* drain_local_pages_wq(): the zone the drainer put in this CPU's pcpu_drain */
	struct zone *zone = READ_ONCE(pcp_cpu(this)->drain.zone);

	drain_local_pages(this, zone ? zone : pcp_cpu(this)->zone);
}

static void FN(drain_all)(struct pcb_cpu *this, void *zone, struct pcb_cpu *const *cpus, int nr)
{
	drain_all_pages(this, zone, cpus, nr);
}

/* an idle CPU's lists hold a batch, as a refill left them */
static void FN(prefill)(struct pcb_cpu *cpu, void *shared)
{
	struct zone *zone = &((struct pcp_shared *)shared)->zone;
	struct per_cpu_pages *pcp = this_cpu_pcp(cpu);
	unsigned long flags = pcp_lock(cpu, pcp);
	int n = rmqueue_bulk(cpu, zone, (unsigned int)READ_ONCE(pcp->batch),
			     &pcp->lists[order_to_pindex(MIGRATE_MOVABLE, 0)], MIGRATE_MOVABLE);

	WRITE_ONCE(pcp->count, pcp->count + n);
	pcp_unlock(cpu, pcp, flags);
}

static int FN(pcp_count)(const void *pcp)
{
	return READ_ONCE(((const struct per_cpu_pages *)pcp)->count);
}

static void FN(pcp_miscount)(void *p, int n)
{
	((struct per_cpu_pages *)p)->count += n;
}

static void FN(pcp_set)(void *p, int high, int batch)
{
	struct per_cpu_pages *pcp = p;

	pcp->high = high;
	pcp->batch = batch;
}

static long FN(pcp_walk)(const void *pcp, int mark, long *twice)
{
	return pcp_walk_lists(pcp, mark, twice);
}

static unsigned int FN(memcg_stock_pages)(struct pcb_cpu *cpu, const struct mem_cgroup *memcg)
{
	return stock_pages_of(this_cpu_stock(cpu), memcg);
}

static int FN(memcg_stock_refs)(struct pcb_cpu *cpu, const struct mem_cgroup *memcg)
{
	return READ_ONCE(this_cpu_stock(cpu)->cached) == memcg;
}

static const struct pcp_ops FN(ops) = {
	.lock_first = PCP_LOCK_FIRST,
	.lock_offset = offsetof(struct per_cpu_pages, lock),
	.lock_size = sizeof(pcp_lock_t),
	.pcp_count = FN(pcp_count),
	.pcp_set = FN(pcp_set),
	.pcp_miscount = FN(pcp_miscount),
	.pcp_walk = FN(pcp_walk),
	.memcg_stock_pages = FN(memcg_stock_pages),
	.memcg_stock_refs = FN(memcg_stock_refs),
};

#endif
