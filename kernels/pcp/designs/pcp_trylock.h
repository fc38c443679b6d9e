/* SPDX-License-Identifier: MIT */
/*
 * pcp_trylock: what upstream did afterwards, as of v6.2 (Mel Gorman, 2022:
 * "mm/page_alloc: protect PCP lists with a spinlock", v6.0, then "leave
 * IRQs enabled for per-cpu page allocations", v6.2). The allocation and
 * free paths pin the task (preempt_disable() on !PREEMPT_RT) and
 * spin_trylock() the per_cpu_pages lock with interrupts left on
 * (pcp_spin_trylock()); when it fails, allocation takes the zone lock
 * (rmqueue_buddy()) and free gives the page to the zone (free_one_page()).
 * Drains lock each CPU's lists remotely with spin_lock(). As in v6.2 the
 * preempt count rises twice: pcpu_task_pin(), then spin_trylock(), which
 * is _raw_spin_trylock() out of line (kernel/locking/spinlock.c) with its
 * own preempt_disable(); the unlock is spin_unlock()'s release and
 * preempt_enable(), inline, then pcpu_task_unpin(). Drains lock a CPU's
 * lists with spin_lock(), its preempt count included. v6.2's struct
 * per_cpu_pages has spinlock_t lock as its first member and is
 * ____cacheline_aligned_in_smp: the lock shares the first line with
 * count, high and batch, the layout this design runs by default
 * (pcp.lock_placement = design). Not modeled: v6.2 takes the zone lock
 * with spin_lock_irqsave() (the irq_model cost).
 */
#ifndef PCB_PCP_DESIGN_PCP_TRYLOCK_H
#define PCB_PCP_DESIGN_PCP_TRYLOCK_H

#include "../../locks/spinlock.h"

#define DESIGN_SUMMARY "pcp_spin_trylock(); a failed trylock uses the zone lock; remote drains"
#define DESIGN_FOLLOWS "Mel Gorman's PCP spinlock and trylock, as of v6.2, after seed 004"
#define DESIGN_PROMISE "every CPU's lists empty when drain_all_pages() returns"

#define PCP_DRAIN_HEADER "drain_remote.h"
#define PCP_TRYLOCK 1
/* include/linux/mmzone.h, v6.2: the lock first in struct per_cpu_pages */
#define PCP_DESIGN_LOCK_FIRST 1

typedef spinlock_t pcp_lock_t;

/* pcp_spin_trylock(): pcpu_task_pin(), then spin_trylock(); no irq save */
static inline bool pcp_spin_trylock(struct pcb_cpu *this, spinlock_t *lock)
{
	preempt_disable(this);
	if (likely(spin_trylock(this, lock)))
		return true;
	preempt_enable(this);
	return false;
}

/* pcp_spin_unlock(): spin_unlock(), then pcpu_task_unpin() */
static inline void pcp_spin_unlock(struct pcb_cpu *this, spinlock_t *lock)
{
	spin_unlock(this, lock);
	preempt_enable(this);
}

#define pcp_lock_init(cpu, pcp) do { (void)(cpu); spin_lock_init(&(pcp)->lock); } while (0)
/* drain_pages_zone()'s spin_lock(&pcp->lock) */
#define pcp_lock(this, pcp) (spin_lock(this, &(pcp)->lock, __func__), 0UL)
#define pcp_unlock(this, pcp, flags) do { (void)(flags); spin_unlock(this, &(pcp)->lock); } while (0)
#define pcp_trylock(this, pcp, flagsp) (*(flagsp) = 0, pcp_spin_trylock(this, &(pcp)->lock))
#define pcp_tryunlock(this, pcp) pcp_spin_unlock(this, &(pcp)->lock)

#endif
