/* SPDX-License-Identifier: MIT */
/*
 * __drain_all_pages() of v5.16: the CPUs with pages on their lists
 * (cpus_with_pcps) get drain_local_pages_wq() queued (queue_work_on()),
 * and the caller flushes every work item before it returns, while each
 * CPU's kworker runs drain_local_pages_wq() on its CPU: idle virtual CPUs'
 * on helper threads in parallel where the machine has CPUs for them
 * (pcb_flush_work()). The caller's own lists are drained by its own work
 * item too in the kernel; here by a direct call, the same drain on the
 * same CPU. PCB_DRAIN_QPW drains isolated
 * CPUs from the calling CPU instead, under their lock, as
 * queue_percpu_work_on() does with qpw=1 (designs/qpw.h). A drain flavour:
 * included at the end of page_alloc.h.
 */
#ifndef PCB_PCP_DRAIN_WORK_H
#define PCB_PCP_DRAIN_WORK_H

/* __drain_all_pages() flushes the work it queued */
#define PCB_DRAIN_FLUSHES 1
#include "../drain/work.h"

static inline void drain_all_pages(struct pcb_cpu *this, struct zone *zone,
				   struct pcb_cpu *const *cpus, int nr)
{
	/* cpus_with_pcps, static in the kernel, under pcpu_drain_mutex */
	PCB_WALK_ARRAY(struct pcb_cpu *, with_pcps, nr);
	bool self = false;
	int n = 0;

	/* Do not drain if one is already in progress */
	if (!mutex_trylock(&pcpu_drain_mutex))
		return;
	for (int i = 0; i < nr; i++) {
		if (!READ_ONCE(this_cpu_pcp(cpus[i])->count))
			continue;
		if (PCB_DRAIN_QPW && cpus[i]->isolated && cpus[i] != this) {
			/* queue_percpu_work_on(): the work runs here, under the CPU's lock */
			this->h.remote_drains++;
			pcb_drain_window_open(cpus[i]);
			drain_pages_zone(this, cpus[i], zone);
			pcb_drain_window_close(cpus[i]);
			continue;
		}
		with_pcps[n++] = cpus[i];
	}
	for (int i = 0; i < n; i++) {
		if (with_pcps[i] == this) {
			self = true;
			continue;
		}
		/* ONCE: the harness's flush_work() gives up at the run's end, the kernel's never */
		WRITE_ONCE(pcp_cpu(with_pcps[i])->drain.zone, zone);
		pcb_schedule_work_on(with_pcps[i]);
	}
	/* the caller's own work item runs on its CPU while it flushes: here, first */
	if (self)
		drain_local_pages(this, zone);
	/* for_each_cpu(cpu, &cpus_with_pcps) flush_work(...) */
	pcb_flush_work(with_pcps, n);
	mutex_unlock(&pcpu_drain_mutex);
}

#endif
