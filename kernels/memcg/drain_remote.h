/* SPDX-License-Identifier: MIT */
/*
 * The remote drain of seed 000's series (patch 4, and patch 5 without the
 * flags): drain_all_stock() takes each stock's lock from the calling CPU
 * and drains it there (drain_stock_from()), with no work. After patch 4
 * alone, as the seed measured, a stock is still claimed first with
 * test_and_set_bit(FLUSHING_CACHED_CHARGE) and drain_stock_from() clears
 * it; patch 5 removes both. A drain flavour: included at the end of
 * memcg_stock.h; drain_rseq.h includes it after its own glue.
 */
#ifndef PCB_MEMCG_DRAIN_REMOTE_H
#define PCB_MEMCG_DRAIN_REMOTE_H

/* the remote drain's glue, unless rseq's, which drains the same way, came first */
#ifndef PCB_DRAIN_FLAVOUR
#include "../drain/remote.h"
#endif

static inline void drain_all_stock(struct pcb_cpu *this, struct mem_cgroup *root_memcg,
				   struct pcb_cpu *const *cpus, int nr)
{
	if (!drain_all_stock_begin(this))
		return;

	for (int i = 0; i < nr; i++) {
		struct pcb_cpu *cpu = cpus[i];
		struct memcg_stock_pcp *stock = this_cpu_stock(cpu);

		if (is_drain_needed(this, stock, root_memcg) && stock_claim_flush(stock)) {
			this->h.remote_drains += cpu != this;
			drain_stock_from(this, stock, this_cpu_stock(this));
		}
	}
	drain_all_stock_end(this);
}

#endif
