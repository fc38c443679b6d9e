/* SPDX-License-Identifier: MIT */
/*
 * One build variant of one memcg design: meson compiles this file once per
 * design of designs.def (MEMCG_DESIGN) and variant (MEMCG_STOCK_SLOTS: one
 * slot or seed 002's seven; PCB_IRQ_MODEL: with or without the irq_model
 * cost). The first variant also defines the design's registry entry, from
 * the metadata its header states.
 */
#define PCB_CAT_(a, b) a##b
#define PCB_CAT(a, b) PCB_CAT_(a, b)
#define PCB_STR_(a) #a
#define PCB_STR(a) PCB_STR_(a)

#include PCB_STR(designs/MEMCG_DESIGN.h)
#include "loop.h"

#ifndef DESIGN_UNAVAILABLE
#define DESIGN_UNAVAILABLE NULL	/* runs wherever pcpbench does */
#endif

#define VARIANT_SUFFIX PCB_CAT(PCB_CAT(_s, MEMCG_STOCK_SLOTS), PCB_CAT(_i, PCB_IRQ_MODEL))
#define FN(name) PCB_CAT(PCB_CAT(memcg_, MEMCG_DESIGN), PCB_CAT(_##name, VARIANT_SUFFIX))
#define VARIANT_OF(design, suffix) PCB_CAT(PCB_CAT(memcg_variant_, design), suffix)

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

static atomic_long *FN(work_data)(struct pcb_cpu *cpu)
{
#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V6_2
	return &((struct memcg_stock_pcp *)cpu->stock)->work.data;
#else
	(void)cpu;
	return NULL;
#endif
}

static void FN(drain_local)(struct pcb_cpu *this)
{
	drain_local_stock(this);
}

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

	return memcg_stock_lock(this, stock);
}

static void FN(unlock_stock)(struct pcb_cpu *this, struct pcb_cpu *owner, unsigned long flags)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(owner);

	memcg_stock_unlock(this, stock, flags);
}

static unsigned int FN(stock_pages)(const void *stock, const struct mem_cgroup *memcg)
{
	return stock_pages_of(stock, memcg);
}

static int FN(stock_refs)(const void *p, const struct mem_cgroup *memcg)
{
	const struct memcg_stock_pcp *stock = p;
	int refs = 0;

#if MEMCG_STOCK_SLOTS > 1
	for (int i = 0; i < NR_MEMCG_STOCK; i++)
		refs += READ_ONCE(stock->cached[i]) == memcg;
#else
	refs = READ_ONCE(stock->cached) == memcg;
#endif
	return refs;
}

static void FN(stock_view)(const void *p, struct memcg_stock_view *view)
{
	const struct memcg_stock_pcp *stock = p;

	view->objcg = READ_ONCE(stock->cached_objcg);
	view->nr_bytes = stock->nr_bytes;
	view->slab_reclaimable = stock->nr_slab_reclaimable_b;
	view->slab_unreclaimable = stock->nr_slab_unreclaimable_b;
}

static const struct memcg_ops FN(ops) = {
	.slots = MEMCG_STOCK_SLOTS,
	.consume = FN(consume),
	.lock_stock = FN(lock_stock),
	.unlock_stock = FN(unlock_stock),
	.stock_pages = FN(stock_pages),
	.stock_refs = FN(stock_refs),
	.stock_view = FN(stock_view),
};

const struct pcb_variant VARIANT_OF(MEMCG_DESIGN, VARIANT_SUFFIX) = {
	.cpu_size = sizeof(struct memcg_cpu),
	.stock_size = sizeof(struct memcg_stock_pcp),
	.stock_hot_bytes = PCB_MEMCG_STOCK_HOT_BYTES,
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

#if MEMCG_STOCK_SLOTS == 1 && PCB_IRQ_MODEL == 0
/* the registry entry: variant[] is indexed as memcg_variant_index() says */
extern const struct pcb_variant VARIANT_OF(MEMCG_DESIGN, _s1_i1), VARIANT_OF(MEMCG_DESIGN, _s1_i2),
	VARIANT_OF(MEMCG_DESIGN, _s7_i0), VARIANT_OF(MEMCG_DESIGN, _s7_i1),
	VARIANT_OF(MEMCG_DESIGN, _s7_i2);

const struct pcb_design PCB_CAT(memcg_design_, MEMCG_DESIGN) = {
	.name = PCB_STR(MEMCG_DESIGN),
	.summary = DESIGN_SUMMARY,
	.follows = DESIGN_FOLLOWS,
	.promise = DESIGN_PROMISE,
	.drain = PCB_DRAIN_FLAVOUR,
	.skips_isolated = MEMCG_STOCK_SKIP_ISOLATED,
	.nocache = MEMCG_STOCK_NOCACHE,
	.unavailable = DESIGN_UNAVAILABLE,
	.variant = {
		&VARIANT_OF(MEMCG_DESIGN, _s1_i0), &VARIANT_OF(MEMCG_DESIGN, _s1_i1),
		&VARIANT_OF(MEMCG_DESIGN, _s1_i2), &VARIANT_OF(MEMCG_DESIGN, _s7_i0),
		&VARIANT_OF(MEMCG_DESIGN, _s7_i1), &VARIANT_OF(MEMCG_DESIGN, _s7_i2),
	},
};
#endif
