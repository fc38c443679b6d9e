/* SPDX-License-Identifier: MIT */
/*
 * The memcg model's part of the design template (kernels/template/): one
 * design (PCB_DESIGN_HEADER) in one build variant (MEMCG_STOCK_SLOTS: one
 * slot or seed 002's seven; PCB_IRQ_MODEL: the irq_model cost; its
 * variants.def), its loop and the operations its invariant and tests use.
 */
#ifndef PCB_MEMCG_VARIANT_H
#define PCB_MEMCG_VARIANT_H

#include PCB_DESIGN_HEADER
#include "loop.h"

#define MODEL_CPU		struct memcg_cpu
#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3
#define MODEL_STOCK		struct memcg_stocks	/* memcg_stock and obj_stock */
#else
#define MODEL_STOCK		struct memcg_stock_pcp
#endif
#define MODEL_STOCK_HOT_BYTES	PCB_MEMCG_STOCK_HOT_BYTES
#define MODEL_SKIPS_ISOLATED	MEMCG_STOCK_SKIP_ISOLATED
#define MODEL_NOCACHE		MEMCG_STOCK_NOCACHE

/* where the design's kernel defines memcg_stock: stock.placement = design */
#define MODEL_DESIGN_INFO_TYPE	struct memcg_design_info
#ifndef MEMCG_DESIGN_SLOTS
#define MEMCG_DESIGN_SLOTS	0	/* stock.slots decides */
#endif
#define MODEL_DESIGN_INFO	{ .stock_aligned = MEMCG_STOCK_ALIGNED, \
				  .slots = MEMCG_DESIGN_SLOTS, \
				  .split = MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3 }

static void FN(run)(struct pcb_worker *pw)
{
	struct memcg_worker *w = memcg_worker(pw);

	pcb_drain_online();
	if (w->accounting == MEMCG_ACCT_NONE)
		pcb_loop_acct_none(w);
	else if (w->accounting == MEMCG_ACCT_ALWAYS)
		pcb_loop_acct_always(w);
	else if (w->accounting >= MEMCG_ACCT_STATIC_KEY && w->key_patched)
		pcb_loop_acct_static_key(w);
	else if (w->accounting >= MEMCG_ACCT_STATIC_KEY)
		pcb_loop_acct_key_branch(w);
	else if (pw->timing == PCB_TIMING_BATCH && w->workload == MEMCG_WL_KMALLOC)
		pcb_loop_batch_kmalloc(w);
	else if (pw->timing == PCB_TIMING_BATCH)
		pcb_loop_batch_charge(w);
	else
		pcb_loop_call(w);
	pcb_drain_offline();
}

static void FN(release)(struct pcb_worker *w)
{
	pcb_release_held(memcg_worker(w));
}

static void FN(stock_init)(const struct pcb_cpu *cpu, void *stock)
{
	memcg_stock_init(cpu, stock);
}

static pcb_work_data_t *FN(work_data)(struct pcb_cpu *cpu)
{
#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V6_2
	return &((struct memcg_stock_pcp *)cpu->stock)->work.data;
#elif MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3 && !MEMCG_STOCK_REMOTE_DRAIN
	/* memcg_stock's work; its obj_stock's is not a separate item here (drain_7_3.h) */
	return &((struct memcg_stocks *)cpu->stock)->memcg.work.data;
#else
	(void)cpu;
	return NULL;
#endif
}

static void FN(drain_local)(struct pcb_cpu *this)
{
	drain_local_stock(this);
}

#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3
/* memcg_hotplug_cpu_dead(): both stocks, whatever a drain left flagged */
#define MODEL_DRAIN_DEAD
static void FN(drain_dead)(struct pcb_cpu *cpu)
{
	memcg_hotplug_cpu_dead(cpu);
}
#endif

static void FN(drain_all)(struct pcb_cpu *this, void *root, struct pcb_cpu *const *cpus, int nr)
{
	drain_all_stock(this, root, cpus, nr);
}

/* an idle CPU's stock holds a batch of the first leaf's charges, as its owner left it */
static void FN(prefill)(struct pcb_cpu *cpu, void *shared)
{
	struct mem_cgroup *memcg = ((struct memcg_shared *)shared)->tree.leaf[0];
	struct page_counter *fail;

	if (page_counter_try_charge(&memcg->memory, MEMCG_CHARGE_BATCH, &fail))
		refill_stock(cpu, memcg, MEMCG_CHARGE_BATCH);
}

static bool FN(consume)(struct pcb_cpu *cpu, struct mem_cgroup *memcg, unsigned int nr)
{
	return consume_stock(cpu, memcg, nr);
}

static unsigned long FN(lock_stock)(struct pcb_cpu *this, struct pcb_cpu *owner)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(owner);

#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3
	/* local_lock(&memcg_stock.lock), or the series' spin_lock(): the charge stock's, no flags */
	stock_lock(this, &stock->lock);
	return 0;
#else
	return memcg_stock_lock(this, stock);
#endif
}

static void FN(unlock_stock)(struct pcb_cpu *this, struct pcb_cpu *owner, unsigned long flags)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(owner);

#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3
	(void)flags;
	stock_unlock(this, &stock->lock);
#else
	memcg_stock_unlock(this, stock, flags);
#endif
}

static unsigned int FN(stock_pages)(const void *stock, const struct mem_cgroup *memcg)
{
	return stock_pages_of(stock, memcg);
}

static int FN(stock_refs)(const void *p, const struct mem_cgroup *memcg)
{
	int refs = 0;

#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3
	const struct memcg_stock_pcp *stock = &((const struct memcg_stocks *)p)->memcg;
#else
	const struct memcg_stock_pcp *stock = p;
#endif
#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3 || MEMCG_STOCK_SLOTS > 1
	for (int i = 0; i < NR_MEMCG_STOCK; i++)
		refs += READ_ONCE(stock->cached[i]) == memcg;
#else
	refs = READ_ONCE(stock->cached) == memcg;
#endif
	return refs;
}

/* what the object stock holds for objcg (for any objcg where objcg is NULL) */
static void FN(obj_view)(const void *p, const struct obj_cgroup *objcg,
			 struct memcg_stock_view *view)
{
#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3
	const struct obj_stock_pcp *stock = &((const struct memcg_stocks *)p)->obj;

	*view = (struct memcg_stock_view){ 0 };
	for (int i = 0; i < NR_OBJ_STOCK; i++) {
		const struct obj_cgroup *cached = READ_ONCE(stock->cached[i]);

		if (!cached || (objcg && cached != objcg))
			continue;
		view->refs++;
		view->nr_bytes += stock->nr_bytes[i];
		/* the statistics cached belong to slot index's objcg */
		if (stock->index == i)
			view->slab += stock->nr_slab_reclaimable_b +
				      stock->nr_slab_unreclaimable_b;
	}
#else
	const struct memcg_stock_pcp *stock = p;
	const struct obj_cgroup *cached = READ_ONCE(stock->cached_objcg);

	*view = (struct memcg_stock_view){ 0 };
	if (!cached || (objcg && cached != objcg))
		return;
	view->refs = 1;
	view->nr_bytes = stock->nr_bytes;
	view->slab = stock->nr_slab_reclaimable_b + stock->nr_slab_unreclaimable_b;
#endif
}

static const struct memcg_ops FN(ops) = {
#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V7_3
	.slots = NR_MEMCG_STOCK,
#else
	.slots = MEMCG_STOCK_SLOTS,
#endif
	.consume = FN(consume),
	.lock_stock = FN(lock_stock),
	.unlock_stock = FN(unlock_stock),
	.stock_pages = FN(stock_pages),
	.stock_refs = FN(stock_refs),
	.obj_view = FN(obj_view),
};

#endif
