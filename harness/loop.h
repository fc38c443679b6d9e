/* SPDX-License-Identifier: MIT */
/*
 * The worker loop, instantiated once per design and build variant: include
 * a header from kernels/locks/ first, then this file, then
 * PCB_DEFINE_VARIANT().
 *
 * call timing: the workload runs the kernel's callers and every stock call
 * is timed by its own pair of TSC reads, like the cover letter's
 * instrumentation.
 *
 * batch timing, charge workload: the stock is driven between empty and
 * MEMCG_CHARGE_BATCH pages, the path its callers take between two misses: a
 * timed batch of MEMCG_CHARGE_BATCH/nr_pages refill_stock() calls, then as
 * many consume_stock() calls that all hit. A batch's ticks, less one empty
 * region, divided by its calls.
 *
 * batch timing, kmalloc workload: the review's benchmark in seed 000, a
 * burst of kmalloc(size, GFP_KERNEL_ACCOUNT) accountings between two reads,
 * then as many frees, untimed.
 */
#ifndef PCB_LOOP_H
#define PCB_LOOP_H

#include "../kernels/memcg_stock.h"
#include "static_key.h"
#include "stats.h"
#include "tsc.h"
#include "work.h"
#include "worker.h"

/* the callers twice: with the cover letter's instrumentation, and bare */
#define CALLER(name) name##_timed
#define PCB_TIMED(fn, expr) ({						\
	uint64_t c0_[PCB_MAX_EVENTS];					\
	pcb_dbg_pmc_begin(this->dbg, c0_);				\
	uint64_t t0_ = pcb_tsc_start();					\
	__typeof__(expr) r_ = (expr);					\
	uint64_t t1_ = pcb_tsc_end();					\
	pcb_stat_record(&this->dbg->stat[PCB_FN_##fn], t1_ - t0_,	\
			this->dbg->overhead, 1);			\
	pcb_dbg_pmc_end(this->dbg, PCB_FN_##fn, c0_);			\
	r_; })
#define PCB_TIMED_VOID(fn, stmt) do {					\
	uint64_t c0_[PCB_MAX_EVENTS];					\
	pcb_dbg_pmc_begin(this->dbg, c0_);				\
	uint64_t t0_ = pcb_tsc_start();					\
	stmt;								\
	uint64_t t1_ = pcb_tsc_end();					\
	pcb_stat_record(&this->dbg->stat[PCB_FN_##fn], t1_ - t0_,	\
			this->dbg->overhead, 1);			\
	pcb_dbg_pmc_end(this->dbg, PCB_FN_##fn, c0_);			\
} while (0)
#include "../kernels/memcg_charge.h"
#include "../kernels/memcg_charge.h"

/* operations between two looks at the clock */
#define PCB_CHUNK 256

static inline uint64_t pcb_rng_next(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static inline int pcb_loop_done(const struct pcb_worker *w)
{
	if (w->ops_limit)
		return w->ops >= w->ops_limit;
	return pcb_tsc_now() >= w->deadline;
}

/* between two operations: a QSBR quiescent state, or a polled work item */
static inline void pcb_between_ops(struct pcb_cpu *this)
{
#if MEMCG_STOCK_DRAIN == DRAIN_QSBR
	rcu_quiescent_state();
#elif MEMCG_STOCK_DRAIN == DRAIN_WORK
	pcb_work_poll(this);
#else
	(void)this;
#endif
}

/* the next memcg this worker charges: its only one, or M in turn */
static inline struct mem_cgroup *pcb_next_memcg(struct pcb_worker *w)
{
	struct mem_cgroup *memcg = w->memcg[w->next];

	if (++w->next == w->nr_memcgs)
		w->next = 0;
	return memcg;
}

/* a page charge or uncharge, a random walk over the pages held */
static inline void pcb_page_op(struct pcb_worker *w, struct pcb_cpu *this,
			       struct mem_cgroup *memcg, uint64_t r)
{
	unsigned int nr = w->nr_pages, id = memcg->css.id;
	int charge;

	if (w->held[id] < (long)nr)
		charge = 1;
	else if (w->held[id] + (long)nr > w->hold)
		charge = 0;
	else
		charge = r & 1;

	if (charge) {
		if (charge_memcg_timed(this, memcg, nr) == 0) {
			w->held[id] += nr;
			w->css_held[id]++;
			w->charged += nr;
		} else {
			w->failed++;
		}
	} else {
		if ((int)((r >> 1) % 100) < w->uncharge_refill)
			mem_cgroup_uncharge_skmem_timed(this, memcg, nr);
		else
			uncharge_batch_timed(this, memcg, nr);
		w->held[id] -= nr;
		w->css_held[id]--;
		w->uncharged += nr;
	}
}

/* a kmalloc() or kfree() of one accounted object, a random walk over objects */
static inline void pcb_obj_op(struct pcb_worker *w, struct pcb_cpu *this,
			      struct mem_cgroup *memcg, uint64_t r)
{
	unsigned int id = memcg->css.id;
	int alloc;

	if (!w->objs[id])
		alloc = 1;
	else if (w->objs[id] >= w->hold)
		alloc = 0;
	else
		alloc = r & 1;

	if (alloc) {
		if (memcg_slab_alloc_hook_timed(this, memcg->objcg, w->pgdat, w->obj_size) == 0)
			w->objs[id]++;
		else
			w->failed++;
	} else {
		memcg_slab_free_hook_timed(this, memcg->objcg, w->pgdat, w->obj_size);
		w->objs[id]--;
	}
}

/* the call-timed loop for one workload, a constant once inlined */
static inline __attribute__((always_inline)) void
pcb_loop_call_wl(struct pcb_worker *w, const enum pcb_workload wl)
{
	struct pcb_cpu *this = w->cpu;

	do {
		for (int i = 0; i < PCB_CHUNK; i++) {
			uint64_t r = pcb_rng_next(&w->rng);
			struct mem_cgroup *memcg = pcb_next_memcg(w);

			if (wl == PCB_WL_KMALLOC ||
			    (wl == PCB_WL_MIXED && (int)((r >> 8) % 100) < w->obj_share))
				pcb_obj_op(w, this, memcg, r);
			else
				pcb_page_op(w, this, memcg, r);
			pcb_between_ops(this);
			pcb_gap_watch(&w->gaps, &this->drain_seq, pcb_tsc_now());
		}
		w->ops += PCB_CHUNK;
	} while (!pcb_loop_done(w));
}

/* the workload is chosen once per run, not per operation */
static inline void pcb_loop_call(struct pcb_worker *w)
{
	switch (w->workload) {
	case PCB_WL_KMALLOC:
		pcb_loop_call_wl(w, PCB_WL_KMALLOC);
		break;
	case PCB_WL_MIXED:
		pcb_loop_call_wl(w, PCB_WL_MIXED);
		break;
	default:
		pcb_loop_call_wl(w, PCB_WL_CHARGE);
		break;
	}
}

static inline void pcb_loop_batch_charge(struct pcb_worker *w)
{
	struct pcb_cpu *this = w->cpu;
	struct mem_cgroup *memcg = w->memcg[0];
	struct pcb_dbg *dbg = this->dbg;
	const unsigned int nr = w->nr_pages;
	const unsigned int n = MEMCG_CHARGE_BATCH / nr;
	const long pages = (long)n * nr;
	unsigned int id = memcg->css.id;
	struct page_counter *fail;

	/* the pages the first refill batch hands back, charged untimed */
	if (!page_counter_try_charge(&memcg->memory, (unsigned long)pages, &fail)) {
		w->failed++;
		return;
	}
	w->held[id] += pages;
	w->charged += (uint64_t)pages;

	do {
		for (int c = 0; c < PCB_CHUNK / 2 / (int)n + 1; c++) {
			unsigned int hits = 0;
			uint64_t t0, t1;

			t0 = pcb_tsc_start();
			for (unsigned int i = 0; i < n; i++)
				refill_stock(this, memcg, nr);
			t1 = pcb_tsc_end();
			pcb_stat_record(&dbg->stat[PCB_FN_REFILL_STOCK], t1 - t0, dbg->overhead, n);

			t0 = pcb_tsc_start();
			for (unsigned int i = 0; i < n; i++)
				hits += consume_stock(this, memcg, nr);
			t1 = pcb_tsc_end();
			pcb_stat_record(&dbg->stat[PCB_FN_CONSUME_STOCK], t1 - t0, dbg->overhead, n);

			w->uncharged += (uint64_t)pages;
			w->charged += (uint64_t)hits * nr;
			if (unlikely(hits != n)) {
				/* the stock was drained under us: charge the rest directly */
				unsigned long miss = (unsigned long)(n - hits) * nr;

				w->misses += n - hits;
				while (!page_counter_try_charge(&memcg->memory, miss, &fail))
					;
				w->charged += miss;
			}
			w->ops += 2 * n;
			pcb_between_ops(this);
			pcb_gap_watch(&w->gaps, &this->drain_seq, pcb_tsc_now());
		}
	} while (!pcb_loop_done(w));

	/* hand the held pages back, as uncharge_batch() would */
	memcg_uncharge(this, memcg, (unsigned int)pages);
	w->held[id] -= pages;
	w->uncharged += (uint64_t)pages;
}

/* seed 000's review benchmark: a burst of kmalloc()s timed as one */
static inline void pcb_loop_batch_kmalloc(struct pcb_worker *w)
{
	struct pcb_cpu *this = w->cpu;
	struct mem_cgroup *memcg = w->memcg[0];
	struct obj_cgroup *objcg = memcg->objcg;
	struct pcb_dbg *dbg = this->dbg;
	unsigned int id = memcg->css.id;

	do {
		uint64_t t0, t1, n = 0;

		t0 = pcb_tsc_start();
		for (uint64_t i = 0; i < w->burst; i++)
			n += memcg_slab_alloc_hook(this, objcg, w->pgdat, w->obj_size) == 0;
		t1 = pcb_tsc_end();
		pcb_stat_record(&dbg->stat[PCB_FN_KMALLOC], t1 - t0, dbg->overhead, w->burst);
		w->failed += w->burst - n;
		w->objs[id] += (long)n;
		pcb_between_ops(this);
		for (uint64_t i = 0; i < n; i++)
			memcg_slab_free_hook(this, objcg, w->pgdat, w->obj_size);
		w->objs[id] -= (long)n;
		w->ops += w->burst;
		pcb_between_ops(this);
	} while (!pcb_loop_done(w));
}

/*
 * Seed 003's three kernels, around one page charge and uncharge with only
 * the root memcg: nomemcg (no hooks compiled in), base (the hooks always
 * called: mem_cgroup_disabled() is a load and a test), bypassed (the hooks
 * behind a jump label that stays a nop until a memcg exists). A batch of
 * MEMCG_CHARGE_BATCH pages between two reads, per page.
 */
#define PCB_HOOKED(enabled) do {						if (enabled) {									if (charge_memcg(this, memcg, 1) == 0)						uncharge_batch(this, memcg, 1);				}									barrier();							} while (0)

#define PCB_ACCOUNTING_LOOP(name, enabled)				static inline void pcb_loop_acct_##name(struct pcb_worker *w)		{										struct pcb_cpu *this = w->cpu;						struct mem_cgroup *memcg = w->memcg[0];					struct pcb_dbg *dbg = this->dbg;														(void)memcg;								do {										for (int c = 0; c < 4; c++) {							uint64_t t0 = pcb_tsc_start(), t1;														for (unsigned int i = 0; i < MEMCG_CHARGE_BATCH; i++) 				PCB_HOOKED(enabled);						t1 = pcb_tsc_end();							pcb_stat_record(&dbg->stat[PCB_FN_MEMCG_HOOKS], t1 - t0, 					dbg->overhead, MEMCG_CHARGE_BATCH); 		}									w->ops += 4 * MEMCG_CHARGE_BATCH;				} while (!pcb_loop_done(w));					}

PCB_ACCOUNTING_LOOP(none, 0)
PCB_ACCOUNTING_LOOP(always, !READ_ONCE(mem_cgroup_subsys_disabled))
PCB_ACCOUNTING_LOOP(static_key, pcb_static_branch_unlikely(memcg_in_use_key))
/* where the text cannot be patched: a test of the key, and labelled so */
PCB_ACCOUNTING_LOOP(key_branch, unlikely(READ_ONCE(memcg_in_use_key.enabled)))

/* give back what the worker holds, untimed */
static inline void pcb_release_held(struct pcb_worker *w)
{
	struct pcb_cpu *this = w->cpu;

	for (int m = 0; m < w->nr_memcgs; m++) {
		struct mem_cgroup *memcg = w->memcg[m];
		unsigned int id = memcg->css.id;

		for (; w->objs[id] > 0; w->objs[id]--)
			memcg_slab_free_hook(this, memcg->objcg, w->pgdat, w->obj_size);
		while (w->held[id] > 0) {
			unsigned int nr = w->held[id] >= (long)w->nr_pages ? w->nr_pages
									   : (unsigned int)w->held[id];

			memcg_uncharge(this, memcg, nr);
			w->held[id] -= nr;
			w->uncharged += nr;
		}
		for (; w->css_held[id] > 0; w->css_held[id]--)
			css_put(this, &memcg->css);
	}
}

#define PCB_CAT_(a, b) a##b
#define PCB_CAT(a, b) PCB_CAT_(a, b)
#define PCB_CAT3(a, b, c) PCB_CAT(PCB_CAT(a, b), c)
#define PCB_STR_(a) #a
#define PCB_STR(a) PCB_STR_(a)
#define PCB_VARIANT_SUFFIX PCB_CAT3(_s, MEMCG_STOCK_SLOTS, PCB_CAT(_i, PCB_IRQ_MODEL))
#define PCB_FN(name) PCB_CAT(PCB_CAT3(pcb_, MEMCG_STOCK_DESIGN, _##name), PCB_VARIANT_SUFFIX)

static void PCB_FN(run)(struct pcb_worker *w)
{
#if MEMCG_STOCK_DRAIN == DRAIN_QSBR
	rcu_thread_online();
#endif
	if (w->accounting == PCB_ACCT_NONE)
		pcb_loop_acct_none(w);
	else if (w->accounting == PCB_ACCT_ALWAYS)
		pcb_loop_acct_always(w);
	else if (w->accounting >= PCB_ACCT_STATIC_KEY && w->key_patched)
		pcb_loop_acct_static_key(w);
	else if (w->accounting >= PCB_ACCT_STATIC_KEY)
		pcb_loop_acct_key_branch(w);
	else if (w->timing == PCB_TIMING_BATCH && w->workload == PCB_WL_KMALLOC)
		pcb_loop_batch_kmalloc(w);
	else if (w->timing == PCB_TIMING_BATCH)
		pcb_loop_batch_charge(w);
	else
		pcb_loop_call(w);
#if MEMCG_STOCK_DRAIN == DRAIN_QSBR
	rcu_thread_offline();
#endif
}

static void PCB_FN(release)(struct pcb_worker *w)
{
	pcb_release_held(w);
}

static void PCB_FN(stock_init)(void *stock)
{
	memcg_stock_init(stock);
}

#if MEMCG_STOCK_DRAIN == DRAIN_QSBR
static void PCB_FN(thread_start)(void)
{
	rcu_register_thread();
	rcu_thread_offline();
}

static void PCB_FN(thread_stop)(void)
{
	rcu_unregister_thread();
}
#define PCB_THREAD_START PCB_FN(thread_start)
#define PCB_THREAD_STOP PCB_FN(thread_stop)
#else
#define PCB_THREAD_START NULL
#define PCB_THREAD_STOP NULL
#endif

static atomic_long *PCB_FN(work_data)(void *p)
{
#if MEMCG_STOCK_LAYOUT == MEMCG_STOCK_V6_2
	return &((struct memcg_stock_pcp *)p)->work.data;
#else
	(void)p;
	return NULL;
#endif
}

static void PCB_FN(drain_local)(struct pcb_cpu *this)
{
	drain_local_stock(this);
}

static void PCB_FN(drain_all)(struct pcb_cpu *this, struct mem_cgroup *root,
			      struct pcb_cpu *const *cpus, int nr)
{
	drain_all_stock(this, root, cpus, nr);
}

static void PCB_FN(prefill)(struct pcb_cpu *cpu, struct mem_cgroup *memcg, unsigned int nr)
{
	struct page_counter *fail;

	if (page_counter_try_charge(&memcg->memory, nr, &fail))
		refill_stock(cpu, memcg, nr);
}

static bool PCB_FN(consume)(struct pcb_cpu *cpu, struct mem_cgroup *memcg, unsigned int nr)
{
	return consume_stock(cpu, memcg, nr);
}

static unsigned long PCB_FN(lock_stock)(struct pcb_cpu *this, struct pcb_cpu *owner)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(owner);

	return memcg_stock_lock(this, stock);
}

static void PCB_FN(unlock_stock)(struct pcb_cpu *this, struct pcb_cpu *owner, unsigned long flags)
{
	struct memcg_stock_pcp *stock = this_cpu_stock(owner);

	memcg_stock_unlock(this, stock, flags);
}

static unsigned int PCB_FN(stock_pages)(const void *stock, const struct mem_cgroup *memcg)
{
	return stock_pages_of(stock, memcg);
}

static int PCB_FN(stock_refs)(const void *p, const struct mem_cgroup *memcg)
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

static void PCB_FN(stock_view)(const void *p, struct pcb_stock_view *view)
{
	const struct memcg_stock_pcp *stock = p;

	view->objcg = READ_ONCE(stock->cached_objcg);
	view->nr_bytes = stock->nr_bytes;
	view->slab_reclaimable = stock->nr_slab_reclaimable_b;
	view->slab_unreclaimable = stock->nr_slab_unreclaimable_b;
}

#define PCB_DEFINE_VARIANT()						\
const struct pcb_variant PCB_CAT3(pcb_variant_, MEMCG_STOCK_DESIGN, PCB_VARIANT_SUFFIX) = { \
	.stock_size = sizeof(struct memcg_stock_pcp),			\
	.stock_hot_bytes = PCB_MEMCG_STOCK_HOT_BYTES,			\
	.slots = MEMCG_STOCK_SLOTS,					\
	.irq_model = PCB_IRQ_MODEL,					\
	.spare_stock = MEMCG_STOCK_DRAIN == DRAIN_QSBR,			\
	.stock_init = PCB_FN(stock_init),				\
	.thread_start = PCB_THREAD_START,				\
	.thread_stop = PCB_THREAD_STOP,					\
	.run = PCB_FN(run),						\
	.release = PCB_FN(release),					\
	.work_data = PCB_FN(work_data),					\
	.drain_local = PCB_FN(drain_local),				\
	.drain_all = PCB_FN(drain_all),					\
	.prefill = PCB_FN(prefill),					\
	.consume = PCB_FN(consume),					\
	.lock_stock = PCB_FN(lock_stock),				\
	.unlock_stock = PCB_FN(unlock_stock),				\
	.stock_pages = PCB_FN(stock_pages),				\
	.stock_refs = PCB_FN(stock_refs),				\
	.stock_view = PCB_FN(stock_view),				\
}

#endif
