/* SPDX-License-Identifier: MIT */
/*
 * vmstat_shepherd(): vmstat_update queued on every CPU with differences
 * (queue_delayed_work_on(), no delay), which runs refresh_cpu_vm_stats()
 * there; the caller's own are folded in place. A drain flavour: included
 * at the end of zonestat.h.
 */
#ifndef PCB_VMSTAT_DRAIN_WORK_H
#define PCB_VMSTAT_DRAIN_WORK_H

#include "drain/work.h"

static inline void vmstat_shepherd(struct pcb_cpu *this, struct zone *zone,
				   struct pcb_cpu *const *cpus, int nr)
{
	(void)zone;
	for (int i = 0; i < nr; i++) {
		if (!need_update(cpus[i]))
			continue;
		if (cpus[i] == this)
			refresh_cpu_vm_stats(this);
		else
			pcb_schedule_work_on(cpus[i]);
	}
}

#define vmstat_drain_all vmstat_shepherd

#endif
