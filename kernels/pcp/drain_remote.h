/* SPDX-License-Identifier: MIT */
/*
 * __drain_all_pages() of seed 004's patch 3: every CPU with pages on its
 * lists is drained from the calling CPU, under that CPU's per_cpu_pages
 * lock (drain_pages_zone()). A drain flavour: included at the end of
 * page_alloc.h.
 */
#ifndef PCB_PCP_DRAIN_REMOTE_H
#define PCB_PCP_DRAIN_REMOTE_H

#include "../drain/remote.h"

static inline void drain_all_pages(struct pcb_cpu *this, struct zone *zone,
				   struct pcb_cpu *const *cpus, int nr)
{
	if (!mutex_trylock(&pcpu_drain_mutex))
		return;
	for (int i = 0; i < nr; i++) {
		struct pcb_cpu *cpu = cpus[i];

		if (!READ_ONCE(this_cpu_pcp(cpu)->count))
			continue;
		this->h.remote_drains++;
		drain_pages_zone(this, cpu, zone);
	}
	mutex_unlock(&pcpu_drain_mutex);
}

#endif
