/* SPDX-License-Identifier: MIT */
/*
 * The RCU-based drain (the RFC cited in seed 004), with liburcu QSBR: each
 * stock that needs draining is swapped for the CPU's empty spare
 * (rcu_xchg_pointer()), synchronize_rcu() waits until every owner passed a
 * quiescent state, then the old stocks, now private, are drained from the
 * calling CPU and kept as the next spares. Owners report a quiescent state
 * between operations. A drain flavour: included at the end of memcg_stock.h.
 */
#ifndef PCB_MEMCG_DRAIN_QSBR_H
#define PCB_MEMCG_DRAIN_QSBR_H

#include "../drain/qsbr.h"

static inline void drain_all_stock(struct pcb_cpu *this, struct mem_cgroup *root_memcg,
				   struct pcb_cpu *const *cpus, int nr)
{
	PCB_WALK_ARRAY(struct pcb_cpu *, swapped, nr);
	PCB_WALK_ARRAY(struct memcg_stock_pcp *, old, nr);
	int n = 0;

	if (!drain_all_stock_begin(this))
		return;

	for (int i = 0; i < nr; i++) {
		struct pcb_cpu *cpu = cpus[i];

		if (!is_drain_needed(this, this_cpu_stock(cpu), root_memcg) || !cpu->stock_spare)
			continue;
		old[n] = qsbr_swap_in_spare(cpu);
		swapped[n++] = cpu;
	}
	qsbr_wait_swapped(this, swapped, n);
	for (int i = 0; i < n; i++) {
		drain_stock_from(this, old[i], this_cpu_stock(this));
		swapped[i]->stock_spare = old[i];
	}
	drain_all_stock_end(this);
}

#endif
