/* SPDX-License-Identifier: MIT */
/*
 * drain_all_stock() of rig/series/spinlock-7.3 (patch 2/2) on 7.3's two
 * stocks: for each online CPU, each stock that holds something of
 * root_memcg's subtree and is not being flushed is flagged
 * FLUSHING_CACHED_CHARGE and drained from the calling CPU under its lock
 * (drain_memcg_stock_from(), drain_obj_stock_from(), stock_7_3.h), which
 * clears the flag: no work, isolated CPUs drained too, no
 * migrate_disable(). A drain flavour: included at the end of
 * memcg_stock.h.
 */
#ifndef PCB_MEMCG_DRAIN_REMOTE_7_3_H
#define PCB_MEMCG_DRAIN_REMOTE_7_3_H

#include "../drain/remote.h"

/* drain_all_stock(): cpus[] are the online CPUs, `this` the caller's */
static inline void drain_all_stock(struct pcb_cpu *this, struct mem_cgroup *root_memcg,
				   struct pcb_cpu *const *cpus, int nr)
{
	if (!drain_all_stock_begin(this))
		return;

	for (int i = 0; i < nr; i++) {
		struct pcb_cpu *cpu = cpus[i];
		struct memcg_stock_pcp *memcg_st = this_cpu_stock(cpu);
		struct obj_stock_pcp *obj_st = this_cpu_obj_stock(cpu);

		if (memcg_stock_claim(this, memcg_st, root_memcg)) {
			this->h.remote_drains += cpu != this;
			drain_memcg_stock_from(this, memcg_st);
		}
		if (obj_stock_claim(this, obj_st, root_memcg)) {
			this->h.remote_drains += cpu != this;
			drain_obj_stock_from(this, obj_st);
		}
	}
	drain_all_stock_end(this);
}

#endif
