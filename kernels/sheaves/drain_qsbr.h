/* SPDX-License-Identifier: MIT */
/*
 * The RCU swap of seed 004's RFC, on the sheaves: under flush_lock, each
 * CPU whose sheaves hold something has its struct slub_percpu_sheaves
 * swapped for its spare set (rcu_xchg_pointer()); synchronize_rcu() waits
 * until every owner passed a quiescent state; then the old sets, private
 * now, are flushed from the calling CPU without a lock
 * (__pcs_flush_all_cpu(), as for a CPU that went away) and become the
 * spares. liburcu QSBR in userspace, the kernel's RCU in the kernel
 * backend (../drain/qsbr.h). A drain flavour.
 */
#ifndef PCB_SHEAVES_DRAIN_QSBR_H
#define PCB_SHEAVES_DRAIN_QSBR_H

#include "../drain/qsbr.h"

static inline void flush_all_cpus_locked(struct pcb_cpu *this, struct kmem_cache *s,
					 struct pcb_cpu *const *cpus, int nr)
{
	struct pcb_cpu **swapped = s->flush_cpus;
	void **old = s->flush_old;
	int n = 0;

	pcs_mutex_lock(this, &s->flush_lock);
	for (int i = 0; i < nr; i++) {
		struct pcb_cpu *cpu = cpus[i];

		if (!slub_cpu_used(cpu) || !cpu->stock_spare)
			continue;
		old[n] = qsbr_swap_in_spare(cpu);
		swapped[n++] = cpu;
	}
	qsbr_wait_swapped(this, swapped, n);
	for (int i = 0; i < n; i++) {
		__pcs_flush_all_cpu(this, s, old[i]);
		swapped[i]->stock_spare = old[i];
	}
	pcs_mutex_unlock(this, &s->flush_lock);
}

#endif
