/* SPDX-License-Identifier: MIT */
/*
 * The RCU-based drain of the RFC seed 004 links, with liburcu QSBR: each
 * CPU with pages has its per_cpu_pages swapped for its empty spare
 * (rcu_xchg_pointer()), synchronize_rcu() waits until every owner passed a
 * quiescent state, then the old lists, now private, go to the zone from the
 * calling CPU and become the next spare. A drain flavour: included at the
 * end of page_alloc.h.
 */
#ifndef PCB_PCP_DRAIN_QSBR_H
#define PCB_PCP_DRAIN_QSBR_H

#include "../drain/qsbr.h"

static inline void drain_all_pages(struct pcb_cpu *this, struct zone *zone,
				   struct pcb_cpu *const *cpus, int nr)
{
	/* under pcpu_drain_mutex, below */
	PCB_WALK_ARRAY(struct pcb_cpu *, swapped, nr);
	PCB_WALK_ARRAY(struct per_cpu_pages *, old, nr);
	int n = 0;

	if (!mutex_trylock(&pcpu_drain_mutex))
		return;
	for (int i = 0; i < nr; i++) {
		struct pcb_cpu *cpu = cpus[i];

		if (!READ_ONCE(this_cpu_pcp(cpu)->count) || !cpu->stock_spare)
			continue;
		old[n] = qsbr_swap_in_spare(cpu);
		swapped[n++] = cpu;
	}
	qsbr_wait_swapped(this, swapped, n);
	for (int i = 0; i < n; i++) {
		if (old[i]->count)
			free_pcppages_bulk(this, zone, old[i]->count, old[i]);
		swapped[i]->stock_spare = old[i];
	}
	mutex_unlock(&pcpu_drain_mutex);
}

#endif
