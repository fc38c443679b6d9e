/* SPDX-License-Identifier: MIT */
/*
 * drain_all_stock() of linux-source-7.3's mm/memcontrol.c: for each online
 * CPU, each of its two stocks that holds something of root_memcg's subtree
 * and is not being flushed is flagged FLUSHING_CACHED_CHARGE and drained
 * in place (the caller's own) or by its work on its CPU
 * (schedule_drain_work(): queue_work_on() inside an RCU reader, skipping
 * cpu_is_isolated() CPUs, whose flag is cleared again). A drain flavour:
 * included at the end of memcg_stock.h.
 *
 * The harness has one work a CPU, so a CPU whose two stocks both need
 * draining sees a second schedule_work_on() find that work PENDING, where
 * 7.3 enqueues the obj_stock's work item too; the work, once run, drains
 * both (drain_local_stock() in stock_7_3.h).
 */
#ifndef PCB_MEMCG_DRAIN_WORK_7_3_H
#define PCB_MEMCG_DRAIN_WORK_7_3_H

#include "../drain/work.h"

/* schedule_drain_work(): guard(rcu)(), cpu_is_isolated(), queue_work_on() */
static inline bool schedule_drain_work(struct pcb_cpu *this, struct pcb_cpu *cpu)
{
	bool queued = false;

	rcu_read_lock_model(this);
	if (!cpu->isolated) {
		pcb_schedule_work_on(cpu);
		queued = true;
	}
	rcu_read_unlock_model(this);
	return queued;
}

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
			if (cpu == this) {
				pcb_drain_window_open(this);
				drain_local_memcg_stock(this);
				pcb_drain_window_close(this);
			} else if (!schedule_drain_work(this, cpu)) {
				stock_clear_flush(&memcg_st->flags);
			}
		}

		if (obj_stock_claim(this, obj_st, root_memcg)) {
			if (cpu == this) {
				pcb_drain_window_open(this);
				drain_local_obj_stock(this);
				pcb_drain_window_close(this);
			} else if (!schedule_drain_work(this, cpu)) {
				stock_clear_flush(&obj_st->flags);
			}
		}
	}
	drain_all_stock_end(this);
}

#endif
