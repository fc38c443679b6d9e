/* SPDX-License-Identifier: MIT */
/*
 * cpu_vm_stats_fold() of every CPU with differences from the calling CPU,
 * under that CPU's lock, as queue_percpu_work_on() would run
 * refresh_cpu_vm_stats() for it with qpw=1. A drain flavour: included at
 * the end of zonestat.h.
 */
#ifndef PCB_VMSTAT_DRAIN_REMOTE_H
#define PCB_VMSTAT_DRAIN_REMOTE_H

#include "drain/remote.h"

static inline void vmstat_fold_remote(struct pcb_cpu *this, struct zone *zone,
				      struct pcb_cpu *const *cpus, int nr)
{
	for (int i = 0; i < nr; i++) {
		if (!need_update(cpus[i]))
			continue;
		if (cpus[i] != this)
			this->h.remote_drains++;
		cpu_vm_stats_fold(this, cpus[i], zone);
	}
}

#define vmstat_drain_all vmstat_fold_remote

#endif
