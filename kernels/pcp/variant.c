/* SPDX-License-Identifier: MIT */
/*
 * One build variant of one page allocator design: meson compiles this file
 * once per design of designs.def (PCP_DESIGN) and variant (PCP_LOCK_FIRST:
 * the lock after the lists, as the series has it, or beside count, high
 * and batch; PCB_IRQ_MODEL: with or without the irq_model cost). The first
 * variant also defines the design's registry entry.
 *
 * Page faults charge memcgs as seed 002's base kernel does: the memcg model's
 * local_trylock stock, kept in this CPU's struct pcp_cpu.
 */
#define PCB_CAT_(a, b) a##b
#define PCB_CAT(a, b) PCB_CAT_(a, b)
#define PCB_STR_(a) #a
#define PCB_STR(a) PCB_STR_(a)

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

#include PCB_STR(designs/PCP_DESIGN.h)
#include "loop.h"

#define VARIANT_SUFFIX PCB_CAT(PCB_CAT(_l, PCP_LOCK_FIRST), PCB_CAT(_i, PCB_IRQ_MODEL))
#define FN(name) PCB_CAT(PCB_CAT(pcp_, PCP_DESIGN), PCB_CAT(_##name, VARIANT_SUFFIX))
#define VARIANT_OF(design, suffix) PCB_CAT(PCB_CAT(pcp_variant_, design), suffix)

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

static atomic_long *FN(work_data)(struct pcb_cpu *cpu)
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
	.pcp_count = FN(pcp_count),
	.pcp_set = FN(pcp_set),
	.pcp_miscount = FN(pcp_miscount),
	.pcp_walk = FN(pcp_walk),
	.memcg_stock_pages = FN(memcg_stock_pages),
	.memcg_stock_refs = FN(memcg_stock_refs),
};

const struct pcb_variant VARIANT_OF(PCP_DESIGN, VARIANT_SUFFIX) = {
	.cpu_size = sizeof(struct pcp_cpu),
	.stock_size = sizeof(struct per_cpu_pages),
	.stock_hot_bytes = offsetof(struct per_cpu_pages, lists) +
			   sizeof(struct list_head) * MIGRATE_PCPTYPES,
	.stock_init = FN(stock_init),
	.thread_start = PCB_DRAIN_THREAD_START,
	.thread_stop = PCB_DRAIN_THREAD_STOP,
	.run = FN(run),
	.release = FN(release),
	.work_data = FN(work_data),
	.drain_local = FN(drain_local),
	.drain_all = FN(drain_all),
	.prefill = FN(prefill),
	.ops = &FN(ops),
};

#if PCP_LOCK_FIRST == 0 && PCB_IRQ_MODEL == 0
extern const struct pcb_variant VARIANT_OF(PCP_DESIGN, _l0_i1), VARIANT_OF(PCP_DESIGN, _l0_i2),
	VARIANT_OF(PCP_DESIGN, _l1_i0), VARIANT_OF(PCP_DESIGN, _l1_i1), VARIANT_OF(PCP_DESIGN, _l1_i2);

const struct pcb_design PCB_CAT(pcp_design_, PCP_DESIGN) = {
	.name = PCB_STR(PCP_DESIGN),
	.summary = DESIGN_SUMMARY,
	.follows = DESIGN_FOLLOWS,
	.promise = DESIGN_PROMISE,
	.drain = PCB_DRAIN_FLAVOUR,
	.variant = {
		&VARIANT_OF(PCP_DESIGN, _l0_i0), &VARIANT_OF(PCP_DESIGN, _l0_i1),
		&VARIANT_OF(PCP_DESIGN, _l0_i2), &VARIANT_OF(PCP_DESIGN, _l1_i0),
		&VARIANT_OF(PCP_DESIGN, _l1_i1), &VARIANT_OF(PCP_DESIGN, _l1_i2),
	},
};
#endif
