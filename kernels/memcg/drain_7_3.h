/* SPDX-License-Identifier: MIT */
/*
 * drain_all_stock() of linux-source-7.3's mm/memcontrol.c: for each online
 * CPU, each of its two stocks that holds something of root_memcg's subtree
 * and is not being flushed is flagged FLUSHING_CACHED_CHARGE
 * (memcg_stock_claim(), obj_stock_claim(), stock_7_3.h). What a claimed
 * stock gets is all the two drains differ in:
 *
 *   7.3			drained in place (the caller's own) or by its
 *				work on its CPU (schedule_drain_work():
 *				queue_work_on() inside an RCU reader, skipping
 *				cpu_is_isolated() CPUs, whose flag is cleared
 *				again)
 *   MEMCG_STOCK_REMOTE_DRAIN	rig/series/spinlock-7.3 (patch 2/2): drained
 *				from the calling CPU under the stock's lock
 *				(drain_memcg_stock_from(), drain_obj_stock_from()),
 *				which clears the flag: no work, isolated CPUs
 *				drained too, no migrate_disable()
 *
 * The harness has one work a CPU, so a CPU whose two stocks both need
 * draining sees a second schedule_work_on() find that work PENDING, where
 * 7.3 enqueues the obj_stock's work item too; the work, once run, drains
 * both (drain_local_stock() in stock_7_3.h). A drain flavour: included at
 * the end of memcg_stock.h.
 */
#ifndef PCB_MEMCG_DRAIN_7_3_H
#define PCB_MEMCG_DRAIN_7_3_H

#if MEMCG_STOCK_REMOTE_DRAIN

#include "../drain/remote.h"

static inline void drain_claimed_memcg_stock(struct pcb_cpu *this, struct pcb_cpu *cpu,
					     struct memcg_stock_pcp *stock)
{
	this->h.remote_drains += cpu != this;
	drain_memcg_stock_from(this, stock);
}

static inline void drain_claimed_obj_stock(struct pcb_cpu *this, struct pcb_cpu *cpu,
					   struct obj_stock_pcp *stock)
{
	this->h.remote_drains += cpu != this;
	drain_obj_stock_from(this, stock);
}

#else

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

static inline void drain_claimed_memcg_stock(struct pcb_cpu *this, struct pcb_cpu *cpu,
					     struct memcg_stock_pcp *stock)
{
	if (cpu == this) {
		pcb_drain_window_open(this);
		drain_local_memcg_stock(this);
		pcb_drain_window_close(this);
	} else if (!schedule_drain_work(this, cpu)) {
		stock_clear_flush(&stock->flags);
	}
}

static inline void drain_claimed_obj_stock(struct pcb_cpu *this, struct pcb_cpu *cpu,
					   struct obj_stock_pcp *stock)
{
	if (cpu == this) {
		pcb_drain_window_open(this);
		drain_local_obj_stock(this);
		pcb_drain_window_close(this);
	} else if (!schedule_drain_work(this, cpu)) {
		stock_clear_flush(&stock->flags);
	}
}

#endif

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

		if (memcg_stock_claim(this, memcg_st, root_memcg))
			drain_claimed_memcg_stock(this, cpu, memcg_st);
		if (obj_stock_claim(this, obj_st, root_memcg))
			drain_claimed_obj_stock(this, cpu, obj_st);
	}
	drain_all_stock_end(this);
}

#endif
