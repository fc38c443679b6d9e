/* SPDX-License-Identifier: MIT */
/*
 * flush_all_cpus_locked() flushing every CPU's sheaves from the calling
 * CPU, under flush_lock, each under that CPU's lock (pcs_flush_all(s,
 * cpu)), as seed 000's remote drain and the QPW series' spinlocks do: no
 * work queued, nothing to wait for. A drain flavour.
 */
#ifndef PCB_SHEAVES_DRAIN_REMOTE_H
#define PCB_SHEAVES_DRAIN_REMOTE_H

#include "../drain/remote.h"

static inline void flush_all_cpus_locked(struct pcb_cpu *this, struct kmem_cache *s,
					 struct pcb_cpu *const *cpus, int nr)
{
	pcs_mutex_lock(this, &s->flush_lock);
	for (int i = 0; i < nr; i++) {
		struct pcb_cpu *cpu = cpus[i];

		if (!slub_cpu_used(cpu))
			continue;
		this->h.remote_drains++;
		pcb_drain_window_open(cpu);
		pcs_flush_all(this, s, cpu);
		pcb_drain_window_close(cpu);
	}
	pcs_mutex_unlock(this, &s->flush_lock);
}

#endif
