/* SPDX-License-Identifier: MIT */
/*
 * The work-item drain of v6.2: drain_all_stock() sets
 * FLUSHING_CACHED_CHARGE on each stock that needs draining and schedules
 * drain_local_stock() on its CPU (schedule_work_on()); the caller's own
 * stock is drained in place. MEMCG_STOCK_SKIP_ISOLATED leaves
 * cpu_is_isolated() CPUs alone (Michal Hocko's patch in seed 000, today's
 * upstream). PCB_DRAIN_QPW drains them from the calling CPU instead,
 * under their spinlock, as queue_percpu_work_on() does with qpw=1 (the QPW
 * series, Bras and Tosatti). A drain flavour: included at the end of
 * memcg_stock.h.
 */
#ifndef PCB_MEMCG_DRAIN_WORK_H
#define PCB_MEMCG_DRAIN_WORK_H

#include "../drain/work.h"

/*
 * drain_all_stock(): cpus[] are the online CPUs, `this` the caller's.
 */
static inline void drain_all_stock(struct pcb_cpu *this, struct mem_cgroup *root_memcg,
				   struct pcb_cpu *const *cpus, int nr)
{
	if (!drain_all_stock_begin(this))
		return;

	for (int i = 0; i < nr; i++) {
		struct pcb_cpu *cpu = cpus[i];
		struct memcg_stock_pcp *stock = this_cpu_stock(cpu);
		bool flush = is_drain_needed(this, stock, root_memcg);

		if (flush && stock_claim_flush(stock)) {
			if (cpu == this) {
				drain_local_stock(this);
			} else if (PCB_DRAIN_QPW && cpu->isolated) {
				/* queue_percpu_work_on(): the work runs here, under cpu's lock */
				this->h.remote_drains++;
				pcb_drain_window_open(cpu);
				drain_stock_from(this, stock, this_cpu_stock(this));
				pcb_drain_window_close(cpu);
			} else if (!(MEMCG_STOCK_SKIP_ISOLATED && cpu->isolated)) {
				pcb_schedule_work_on(cpu);
			}
		}
	}
	drain_all_stock_end(this);
}

#endif
