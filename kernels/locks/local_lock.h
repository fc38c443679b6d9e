/* SPDX-License-Identifier: MIT */
/*
 * local_lock: upstream before the 2023 series (v6.2). memcg_stock.stock_lock
 * is a local_lock_t, taken with local_lock_irqsave(); a drain of another CPU
 * is a work item scheduled on that CPU (schedule_work_on() +
 * drain_local_stock()).
 *
 * On !PREEMPT_RT without lockdep, local_lock_t is an empty struct and
 * local_lock_irqsave() is local_irq_save(): the CPU cannot be preempted
 * inside. Modeled as the owner's preempt counter and compiler barriers: no
 * atomics, nothing another CPU can take.
 */
#ifndef PCB_LOCKS_LOCAL_LOCK_H
#define PCB_LOCKS_LOCAL_LOCK_H

#include "../percpu.h"

#define MEMCG_STOCK_DESIGN	local_lock
#define MEMCG_STOCK_LAYOUT	MEMCG_STOCK_V6_2

typedef struct { } local_lock_t;
typedef local_lock_t memcg_stock_lock_t;

struct memcg_stock_pcp;

#define memcg_stock_lock_init(stock) do { (void)(stock); } while (0)

static inline unsigned long memcg_stock_lock(struct pcb_cpu *this,
					     struct memcg_stock_pcp *stock)
{
	(void)stock;
	preempt_disable(this);
	return 0;
}

static inline void memcg_stock_unlock(struct pcb_cpu *this,
				      struct memcg_stock_pcp *stock,
				      unsigned long flags)
{
	(void)stock;
	(void)flags;
	preempt_enable(this);
}

#endif
