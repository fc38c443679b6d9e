/* SPDX-License-Identifier: MIT */
/*
 * The worker loop, instantiated once per design: include a header from
 * kernels/locks/ first, then this file, then PCB_DEFINE_DESIGN().
 *
 * call mode: the workload runs the kernel's callers (charge_memcg() ->
 * try_charge_memcg() -> consume_stock() / refill_stock(); uncharges through
 * uncharge_batch() or refill_stock()), and every stock call is timed by its
 * own pair of TSC reads, like the cover letter's instrumentation.
 *
 * batch mode: the stock is driven between empty and MEMCG_CHARGE_BATCH
 * pages, the path its callers take between two misses: a timed batch of
 * MEMCG_CHARGE_BATCH/nr_pages refill_stock() calls (uncharges through the
 * stock), then a timed batch of as many consume_stock() calls (charges that
 * all hit). A batch's ticks, less one empty region, divided by its calls.
 */
#ifndef PCB_LOOP_H
#define PCB_LOOP_H

#include "../kernels/memcg_stock.h"
#include "stats.h"
#include "tsc.h"
#include "worker.h"

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

/* one charge or uncharge of the charge workload, a random walk over held */
static inline void pcb_charge_op(struct pcb_worker *w, struct pcb_cpu *this)
{
	uint64_t r = pcb_rng_next(&w->rng);
	unsigned int nr = w->nr_pages;
	int charge;

	if (w->held < (long)nr)
		charge = 1;
	else if (w->held + (long)nr > w->hold_pages)
		charge = 0;
	else
		charge = r & 1;

	if (charge) {
		if (charge_memcg(this, w->memcg, nr) == 0) {
			w->held += nr;
			w->css_held++;
			w->charged += nr;
		} else {
			w->failed++;
		}
	} else {
		if ((int)((r >> 1) % 100) < w->uncharge_refill)
			uncharge_refill(this, w->memcg, nr);
		else
			uncharge_batch(this, w->memcg, nr);
		w->held -= nr;
		w->css_held--;
		w->uncharged += nr;
	}
}

static inline void pcb_loop_call(struct pcb_worker *w)
{
	struct pcb_cpu *this = w->cpu;

	do {
		for (int i = 0; i < PCB_CHUNK; i++)
			pcb_charge_op(w, this);
		w->ops += PCB_CHUNK;
	} while (!pcb_loop_done(w));
}

static inline void pcb_loop_batch(struct pcb_worker *w)
{
	struct pcb_cpu *this = w->cpu;
	struct mem_cgroup *memcg = w->memcg;
	struct pcb_dbg *dbg = this->dbg;
	const unsigned int nr = w->nr_pages;
	const unsigned int n = MEMCG_CHARGE_BATCH / nr;
	const long pages = (long)n * nr;
	struct page_counter *fail;

	/* the pages the first refill batch hands back, charged untimed */
	if (!page_counter_try_charge(&memcg->memory, (unsigned long)pages, &fail)) {
		w->failed++;
		return;
	}
	w->held += pages;
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
		}
	} while (!pcb_loop_done(w));

	/* hand the held pages back, as uncharge_batch() would */
	page_counter_uncharge(&memcg->memory, (unsigned long)pages);
	w->held -= pages;
	w->uncharged += (uint64_t)pages;
}

/* release what the worker still holds (uncharge_batch()), untimed */
static inline void pcb_release_held(struct pcb_worker *w)
{
	struct pcb_cpu *this = w->cpu;

	while (w->held > 0) {
		unsigned int nr = w->held >= (long)w->nr_pages ? w->nr_pages : (unsigned int)w->held;

		page_counter_uncharge(&w->memcg->memory, nr);
		w->held -= nr;
		w->uncharged += nr;
	}
	while (w->css_held > 0) {
		css_put(this, &w->memcg->css);
		w->css_held--;
	}
}

#define PCB_CAT_(a, b) a##b
#define PCB_CAT(a, b) PCB_CAT_(a, b)
#define PCB_STR_(a) #a
#define PCB_STR(a) PCB_STR_(a)
#define PCB_FN(name) PCB_CAT(PCB_CAT(pcb_, MEMCG_STOCK_DESIGN), _##name)

static void PCB_FN(run)(struct pcb_worker *w)
{
	if (w->timing == PCB_TIMING_BATCH)
		pcb_loop_batch(w);
	else
		pcb_loop_call(w);
}

static void PCB_FN(release)(struct pcb_worker *w)
{
	pcb_release_held(w);
}

static void PCB_FN(stock_init)(void *stock)
{
	memcg_stock_init(stock);
}

static void PCB_FN(drain_local)(struct pcb_cpu *this)
{
	drain_local_stock(this);
}

#if MEMCG_STOCK_REMOTE_DRAIN
static void PCB_FN(drain_remote)(struct pcb_cpu *this, struct pcb_cpu *owner)
{
	drain_stock_from(this, this_cpu_stock(owner));
}
#define PCB_DRAIN_REMOTE PCB_FN(drain_remote)
#else
#define PCB_DRAIN_REMOTE NULL
#endif

static unsigned int PCB_FN(stock_pages)(const void *p, const struct mem_cgroup *memcg)
{
	const struct memcg_stock_pcp *stock = p;

	return stock->cached == memcg ? READ_ONCE(stock->nr_pages) : 0;
}

static const struct mem_cgroup *PCB_FN(stock_cached)(const void *p)
{
	const struct memcg_stock_pcp *stock = p;

	return READ_ONCE(stock->cached);
}

#define PCB_DEFINE_DESIGN(summary_, follows_)				\
const struct pcb_design PCB_CAT(pcb_design_, MEMCG_STOCK_DESIGN) = {	\
	.name = PCB_STR(MEMCG_STOCK_DESIGN),				\
	.summary = summary_,						\
	.follows = follows_,						\
	.stock_size = sizeof(struct memcg_stock_pcp),			\
	.stock_hot_bytes = offsetof(struct memcg_stock_pcp, cached_objcg), \
	.remote_drain = MEMCG_STOCK_REMOTE_DRAIN,			\
	.stock_init = PCB_FN(stock_init),				\
	.run = PCB_FN(run),						\
	.release = PCB_FN(release),					\
	.drain_local = PCB_FN(drain_local),				\
	.drain_remote = PCB_DRAIN_REMOTE,				\
	.stock_pages = PCB_FN(stock_pages),				\
	.stock_cached = PCB_FN(stock_cached),				\
}

#endif
