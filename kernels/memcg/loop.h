/* SPDX-License-Identifier: MIT */
/*
 * The memcg model's worker loop, instantiated once per design and build
 * variant by the design template (variant.h): a design header first, then
 * this file.
 *
 * call timing: the workload runs the kernel's callers and every stock call
 * is timed by its own pair of TSC reads, like the cover letter's
 * instrumentation.
 *
 * batch timing, charge workload: the stock is driven between empty and
 * MEMCG_CHARGE_BATCH pages, the path its callers take between two misses: a
 * timed batch of MEMCG_CHARGE_BATCH/nr_pages refill_stock() calls, then as
 * many consume_stock() calls that all hit. A row's timed regions hold all
 * of a batch's calls or half of them in turn, the rest made up untimed, and
 * a call costs the difference of the two (pcb_batch_calls()).
 *
 * batch timing, kmalloc workload: the review's benchmark in seed 000, a
 * burst of kmalloc(size, GFP_KERNEL_ACCOUNT) accountings between two reads,
 * then as many frees, untimed.
 */
#ifndef PCB_MEMCG_LOOP_H
#define PCB_MEMCG_LOOP_H

#include <sys/syscall.h>
#include <unistd.h>

#include "../clear_page.h"
#include "memcg_model.h"
#include "memcg_stock.h"

/* the callers twice: with the cover letter's instrumentation, and bare */
#define MEMCG_FN_consume_stock MEMCG_FN_CONSUME_STOCK
#define MEMCG_FN_refill_stock MEMCG_FN_REFILL_STOCK
#define MEMCG_FN_mod_objcg_state MEMCG_FN_MOD_OBJCG_STATE
#define MEMCG_FN_consume_obj_stock MEMCG_FN_CONSUME_OBJ_STOCK
#define MEMCG_FN_refill_obj_stock MEMCG_FN_REFILL_OBJ_STOCK
#define CALLER(name) name##_timed
#define MEMCG_TIMED(fn, expr) PCB_TIMED(this->h.dbg, MEMCG_FN_##fn, expr)
#define MEMCG_TIMED_VOID(fn, stmt) PCB_TIMED_VOID(this->h.dbg, MEMCG_FN_##fn, stmt)
#include "memcg_charge.h"
#include "memcg_charge.h"
#include "memcg_hooks.h"

/* the next memcg this worker charges: its only one, or M in turn */
static inline struct mem_cgroup *pcb_next_memcg(struct memcg_worker *w)
{
	struct mem_cgroup *memcg = w->memcg[w->next];

	if (++w->next == w->nr_memcgs)
		w->next = 0;
	return memcg;
}

/*
 * workload.clear_pages: do_anonymous_page() zeroes the new page
 * (vma_alloc_zeroed_movable_folio()) just before mem_cgroup_charge(), so
 * the charge's stock operations run behind clear_page()'s stores. The
 * pages are taken in turn: their number sets where the last one's lines
 * still are when the charge begins.
 */
static inline void memcg_clear_page(struct memcg_worker *w)
{
	clear_page(w->clear_area + (size_t)w->clear_next * PCB_CLEAR_PAGE_SIZE);
	if (++w->clear_next == w->clear_pages)
		w->clear_next = 0;
}

/* a page charge or uncharge, a random walk over the pages held */
static inline void pcb_page_op(struct memcg_worker *w, struct pcb_cpu *this,
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
		if (w->clear_pages)
			memcg_clear_page(w);
		if (charge_memcg_timed(this, memcg, nr) == 0) {
			w->held[id] += nr;
			w->css_held[id]++;
			w->charged += nr;
		} else {
			w->w.failed++;
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

/*
 * netperf (seed 002): which memcg this CPU charges next. In softirq, one of
 * the flows whose packets arrive here, in turn; else the task running here.
 */
static inline struct mem_cgroup *pcb_netperf_memcg(struct memcg_worker *w, uint64_t r)
{
	if (w->nr_flows && (int)((r >> 16) % 100) < w->softirq_share) {
		struct mem_cgroup *flow = w->memcg[w->next_flow];

		if (++w->next_flow == w->nr_flows)
			w->next_flow = 0;
		return flow;
	}
	return w->task;
}

/*
 * A socket's memory charged (mem_cgroup_charge_skmem(): try_charge_memcg(),
 * timed whole: the stock or the page_counter) or given back through the
 * stock (mem_cgroup_uncharge_skmem()), a random walk over the pages held.
 */
static inline void pcb_netperf_op(struct memcg_worker *w, struct pcb_cpu *this,
				  struct mem_cgroup *memcg, uint64_t r)
{
	unsigned int nr = w->nr_pages, id = memcg->css.id;
	int charge = w->held[id] < (long)nr ? 1 : w->held[id] + (long)nr > w->hold ? 0 : (int)(r & 1);

	if (charge) {
		if (PCB_TIMED(this->h.dbg, MEMCG_FN_CHARGE, charge_memcg(this, memcg, nr)) == 0) {
			w->held[id] += nr;
			w->css_held[id]++;
			w->charged += nr;
		} else {
			w->w.failed++;
		}
	} else {
		mem_cgroup_uncharge_skmem(this, memcg, nr);
		w->held[id] -= nr;
		w->css_held[id]--;
		w->uncharged += nr;
	}
}

/* a kmalloc() or kfree() of one accounted object, a random walk over objects */
static inline void pcb_obj_op(struct memcg_worker *w, struct pcb_cpu *this,
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
			w->w.failed++;
	} else {
		memcg_slab_free_hook_timed(this, memcg->objcg, w->pgdat, w->obj_size);
		w->objs[id]--;
	}
}

/*
 * The rest of the system call between two stock operations: real work on
 * the worker's own lines (a walk over a 4 KiB buffer, read and written)
 * until think_ticks have passed, so that the stock is held only part of the
 * time, as in the seed's stress loop.
 */
static __attribute__((__noinline__)) void memcg_think(struct memcg_worker *w)
{
	uint64_t until = pcb_tsc_now() + w->think_ticks;

	/* past the run's end the chunk's last operations go on without it: no run outlasts its time */
	if (!w->w.ops_limit && until > w->w.deadline)
		until = w->w.deadline;

	do {
		for (size_t i = 0; i < sizeof(w->think_buf); i += SMP_CACHE_BYTES)
			w->think_buf[i]++;
		barrier();
	} while (pcb_tsc_now() < until);
}

/*
 * workload.between = syscall: a real system call between two operations.
 * Seed 000's stock calls were reached from a read() of /proc/interrupts,
 * so each began on a CPU just through the kernel's entry (and, before the
 * next, its exit): serialising, the store buffer drained, with pti a CR3
 * switch. getppid() is the cheapest call that makes both.
 */
static __attribute__((__noinline__)) void memcg_between(void)
{
	(void)syscall(SYS_getppid);
}

/* the call-timed loop for one workload, a constant once inlined */
static inline __attribute__((always_inline)) void
pcb_loop_call_wl(struct memcg_worker *w, const enum memcg_workload wl)
{
	struct pcb_cpu *this = w->w.cpu;

	do {
		for (int i = 0; i < PCB_CHUNK; i++) {
			uint64_t r = pcb_rng_next(&w->w.rng);
			struct mem_cgroup *memcg = wl == MEMCG_WL_NETPERF ? pcb_netperf_memcg(w, r)
									  : pcb_next_memcg(w);

			if (wl == MEMCG_WL_NETPERF)
				pcb_netperf_op(w, this, memcg, r);
			else if (wl == MEMCG_WL_KMALLOC ||
			    (wl == MEMCG_WL_MIXED && (int)((r >> 8) % 100) < w->obj_share))
				pcb_obj_op(w, this, memcg, r);
			else
				pcb_page_op(w, this, memcg, r);
			pcb_drain_between_ops(this);
			if (w->think_ticks)
				memcg_think(w);
			if (w->between)
				memcg_between();
			pcb_gap_watch(&w->w.gaps, &this->win, pcb_tsc_now());
		}
		w->w.ops += PCB_CHUNK;
		pcb_dbg_time_empty(this->h.dbg);
	} while (!pcb_loop_done(&w->w));
}

/* the workload is chosen once per run, not per operation */
static inline void pcb_loop_call(struct memcg_worker *w)
{
	switch (w->workload) {
	case MEMCG_WL_KMALLOC:
		pcb_loop_call_wl(w, MEMCG_WL_KMALLOC);
		break;
	case MEMCG_WL_MIXED:
		pcb_loop_call_wl(w, MEMCG_WL_MIXED);
		break;
	case MEMCG_WL_NETPERF:
		pcb_loop_call_wl(w, MEMCG_WL_NETPERF);
		break;
	default:
		pcb_loop_call_wl(w, MEMCG_WL_CHARGE);
		break;
	}
}

static inline void pcb_loop_batch_charge(struct memcg_worker *w)
{
	struct pcb_cpu *this = w->w.cpu;
	struct mem_cgroup *memcg = w->memcg[0];
	struct pcb_dbg *dbg = this->h.dbg;
	const unsigned int nr = w->nr_pages;
	const unsigned int n = MEMCG_CHARGE_BATCH / nr;
	const long pages = (long)n * nr;
	unsigned int id = memcg->css.id;
	struct page_counter *fail;

	/* the pages the first refill batch hands back, charged untimed */
	if (!page_counter_try_charge(&memcg->memory, (unsigned long)pages, &fail)) {
		w->w.failed++;
		return;
	}
	w->held[id] += pages;
	w->charged += (uint64_t)pages;

	do {
		for (int c = 0; c < PCB_CHUNK / 2 / (int)n + 1; c++) {
			unsigned int hits = 0;
			uint64_t t0, t1;

			unsigned int k = pcb_batch_calls(dbg, MEMCG_FN_REFILL_STOCK, n), i;

			t0 = pcb_tsc_start();
			for (i = 0; i < k; i++)
				refill_stock(this, memcg, nr);
			t1 = pcb_tsc_end();
			pcb_dbg_record(dbg, MEMCG_FN_REFILL_STOCK, t1 - t0, k);
			for (; i < n; i++)
				refill_stock(this, memcg, nr);

			k = pcb_batch_calls(dbg, MEMCG_FN_CONSUME_STOCK, n);
			t0 = pcb_tsc_start();
			for (i = 0; i < k; i++)
				hits += consume_stock(this, memcg, nr);
			t1 = pcb_tsc_end();
			pcb_dbg_record(dbg, MEMCG_FN_CONSUME_STOCK, t1 - t0, k);
			for (; i < n; i++)
				hits += consume_stock(this, memcg, nr);

			w->uncharged += (uint64_t)pages;
			w->charged += (uint64_t)hits * nr;
			if (unlikely(hits != n)) {
				/* the stock was drained under us: charge the rest directly */
				unsigned long miss = (unsigned long)(n - hits) * nr;

				w->w.misses += n - hits;
				while (!page_counter_try_charge(&memcg->memory, miss, &fail))
					;
				w->charged += miss;
			}
			w->w.ops += 2 * n;
			pcb_drain_between_ops(this);
			pcb_gap_watch(&w->w.gaps, &this->win, pcb_tsc_now());
		}
		pcb_dbg_time_empty(dbg);
	} while (!pcb_loop_done(&w->w));

	/* hand the held pages back, as uncharge_batch() would */
	memcg_uncharge(this, memcg, (unsigned int)pages);
	w->held[id] -= pages;
	w->uncharged += (uint64_t)pages;
}

/* seed 000's review benchmark: a burst of kmalloc()s timed as one */
static inline void pcb_loop_batch_kmalloc(struct memcg_worker *w)
{
	struct pcb_cpu *this = w->w.cpu;
	struct mem_cgroup *memcg = w->memcg[0];
	struct obj_cgroup *objcg = memcg->objcg;
	struct pcb_dbg *dbg = this->h.dbg;
	unsigned int id = memcg->css.id;

	do {
		uint64_t t0, t1, n = 0;

		t0 = pcb_tsc_start();
		for (uint64_t i = 0; i < w->burst; i++)
			n += memcg_slab_alloc_hook(this, objcg, w->pgdat, w->obj_size) == 0;
		t1 = pcb_tsc_end();
		/* the burst is the figure: the best of them is reported, none set aside */
		pcb_stat_record(&dbg->stat[MEMCG_FN_KMALLOC], t1 - t0, dbg->overhead, w->burst,
				PCB_NO_LIMIT);
		w->w.failed += w->burst - n;
		w->objs[id] += (long)n;
		pcb_drain_between_ops(this);
		for (uint64_t i = 0; i < n; i++)
			memcg_slab_free_hook(this, objcg, w->pgdat, w->obj_size);
		w->objs[id] -= (long)n;
		w->w.ops += w->burst;
		pcb_drain_between_ops(this);
	} while (!pcb_loop_done(&w->w));
}

/*
 * Seed 003's three kernels, around one page charge and uncharge with only
 * the root memcg: nomemcg (no hooks compiled in), base (the hooks always
 * called: mem_cgroup_disabled() is a load and a test), bypassed (the hooks
 * behind a jump label that stays a nop until a memcg exists). A batch of
 * MEMCG_CHARGE_BATCH pages between two reads, per page.
 */
#define PCB_HOOKED(enabled) do {					\
	if (enabled) {							\
		if (__mem_cgroup_charge(this, memcg, &memcg_data) == 0)	\
			__mem_cgroup_uncharge(this, &memcg_data);	\
	}								\
	barrier();							\
} while (0)

/* batches of MEMCG_CHARGE_BATCH pages a look at the clock */
#define MEMCG_ACCT_BATCHES 4

#define PCB_ACCOUNTING_LOOP(name, enabled)				\
static inline void pcb_loop_acct_##name(struct memcg_worker *w)	\
{									\
	struct pcb_cpu *this = w->w.cpu;				\
	struct mem_cgroup *memcg = w->memcg[0];				\
	struct mem_cgroup *memcg_data = NULL;	/* the page's */	\
	struct pcb_dbg *dbg = this->h.dbg;				\
									\
	(void)memcg;							\
	(void)memcg_data;						\
	do {								\
		for (int c = 0; c < MEMCG_ACCT_BATCHES; c++) {		\
			unsigned int k = pcb_batch_calls(dbg, MEMCG_FN_MEMCG_HOOKS, \
							 MEMCG_CHARGE_BATCH), i; \
			uint64_t t0 = pcb_tsc_start(), t1;		\
									\
			for (i = 0; i < k; i++)				\
				PCB_HOOKED(enabled);			\
			t1 = pcb_tsc_end();				\
			pcb_dbg_record(dbg, MEMCG_FN_MEMCG_HOOKS, t1 - t0, k); \
			for (; i < MEMCG_CHARGE_BATCH; i++)		\
				PCB_HOOKED(enabled);			\
		}							\
		w->w.ops += MEMCG_ACCT_BATCHES * MEMCG_CHARGE_BATCH;	\
	} while (!pcb_loop_done(&w->w));				\
}

PCB_ACCOUNTING_LOOP(none, 0)
PCB_ACCOUNTING_LOOP(always, !READ_ONCE(mem_cgroup_subsys_disabled))
PCB_ACCOUNTING_LOOP(static_key, pcb_static_branch_unlikely(memcg_in_use_key))
/* where the text cannot be patched: a test of the key, and labelled so */
PCB_ACCOUNTING_LOOP(key_branch, unlikely(pcb_static_key_enabled(memcg_in_use_key)))

/* give back what the worker holds, untimed */
static inline void pcb_release_held(struct memcg_worker *w)
{
	struct pcb_cpu *this = w->w.cpu;

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

#endif
