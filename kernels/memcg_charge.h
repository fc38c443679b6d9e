/* SPDX-License-Identifier: MIT */
/*
 * The callers of the charge stock (mm/memcontrol.c, v6.2), so that a
 * workload calls consume_stock() and refill_stock() in the kernel's
 * proportions. Include after memcg_stock.h.
 *
 * PCB_TIMED(fn, expr) and PCB_TIMED_VOID(fn, stmt) wrap the stock calls
 * the way the cover letter of 000 instrumented them; without a definition
 * they compile to the bare call.
 */
#ifndef PCB_KERNELS_MEMCG_CHARGE_H
#define PCB_KERNELS_MEMCG_CHARGE_H

#include <errno.h>

#include "memcg_stock.h"

#ifndef PCB_TIMED
#define PCB_TIMED(fn, expr) (expr)
#define PCB_TIMED_VOID(fn, stmt) do { stmt; } while (0)
#endif

/*
 * try_charge_memcg(): the stock first, else a batch on the page_counter
 * with the excess refilled into the stock. Reclaim, OOM and the
 * memory.high throttling are not modeled: a failed charge returns -ENOMEM
 * after the retry with nr_pages alone, as when reclaim makes no progress.
 */
static inline int try_charge_memcg(struct pcb_cpu *this, struct mem_cgroup *memcg,
				   unsigned int nr_pages)
{
	unsigned int batch = pcb_max(MEMCG_CHARGE_BATCH, nr_pages);
	struct page_counter *counter;

retry:
	if (PCB_TIMED(consume_stock, consume_stock(this, memcg, nr_pages)))
		return 0;

	if (page_counter_try_charge(&memcg->memory, batch, &counter))
		goto done_restock;

	if (batch > nr_pages) {
		batch = nr_pages;
		goto retry;
	}
	return -ENOMEM;

done_restock:
	if (batch > nr_pages)
		PCB_TIMED_VOID(refill_stock, refill_stock(this, memcg, batch - nr_pages));

	/* the memory.high walk after done_restock reads usage at each level */
	do {
		bool mem_high = page_counter_read(&memcg->memory) > READ_ONCE(memcg->memory.high);

		if (unlikely(mem_high))
			break;	/* set_notify_resume(): not modeled */
	} while ((memcg = parent_mem_cgroup(memcg)));

	return 0;
}

static inline int try_charge(struct pcb_cpu *this, struct mem_cgroup *memcg,
			     unsigned int nr_pages)
{
	if (mem_cgroup_is_root(memcg))
		return 0;

	return try_charge_memcg(this, memcg, nr_pages);
}

/* charge_memcg(): a folio charge holds a css reference */
static inline int charge_memcg(struct pcb_cpu *this, struct mem_cgroup *memcg,
			       unsigned int nr_pages)
{
	int ret = try_charge(this, memcg, nr_pages);

	if (ret == 0)
		css_get(this, &memcg->css);
	return ret;
}

/* uncharge_batch() for one folio: straight to the page_counter */
static inline void uncharge_batch(struct pcb_cpu *this, struct mem_cgroup *memcg,
				  unsigned int nr_pages)
{
	if (!mem_cgroup_is_root(memcg))
		page_counter_uncharge(&memcg->memory, nr_pages);
	css_put(this, &memcg->css);
}

/*
 * obj_cgroup_uncharge_pages() and mem_cgroup_uncharge_skmem(): uncharges
 * that go back through the stock. The folio-style css reference taken by
 * charge_memcg() is dropped here too, to keep the workload's refs paired.
 */
static inline void uncharge_refill(struct pcb_cpu *this, struct mem_cgroup *memcg,
				   unsigned int nr_pages)
{
	PCB_TIMED_VOID(refill_stock, refill_stock(this, memcg, nr_pages));
	css_put(this, &memcg->css);
}

#endif
