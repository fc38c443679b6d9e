/* SPDX-License-Identifier: MIT */
/*
 * spinlock: the 2023 series "Introduce memcg_stock_pcp remote draining"
 * (seed 000, patches 1-5). stock_lock becomes a spinlock_t taken with
 * spin_lock_irqsave(); drain_all_stock() drains every CPU's stock from the
 * calling CPU (drain_stock_from()), with no work and no flags.
 *
 * spin_lock_irqsave() on !PREEMPT_RT: local_irq_save(), preempt_disable()
 * and the qspinlock fast path, one cmpxchg of 0 -> locked
 * (queued_spin_lock()), falling back to spinning. spin_unlock is a release
 * store (smp_store_release()). Modeled on Concurrency Kit's CAS spinlock,
 * the same instruction sequence on x86 (lock cmpxchg; plain store).
 */
#ifndef PCB_LOCKS_SPINLOCK_H
#define PCB_LOCKS_SPINLOCK_H

#include <ck_pr.h>
#include <ck_spinlock.h>

#include "../percpu.h"
#include "irq.h"

#define MEMCG_STOCK_DESIGN	spinlock
#define MEMCG_STOCK_LAYOUT	MEMCG_STOCK_REMOTE
#define MEMCG_STOCK_DRAIN	DRAIN_REMOTE

typedef ck_spinlock_cas_t spinlock_t;
typedef spinlock_t memcg_stock_lock_t;

#define memcg_stock_lock_init(stock) ck_spinlock_cas_init(&(stock)->stock_lock)

static inline unsigned long long pcb_rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((unsigned long long)hi << 32) | lo;
}

/*
 * queued_spin_lock(): one cmpxchg when uncontended. When it fails, count the
 * contention and the cycles until the lock was taken, under the calling
 * function, as seed 000's spin_lock_irqsave_cc() did (2.3): exact, no sampling.
 */
static inline void pcb_spin_lock(struct pcb_cpu *this, spinlock_t *lock, const char *fn)
{
	unsigned long long t0;

	if (likely(ck_pr_cas_uint(&lock->value, false, true))) {
		ck_pr_fence_lock();	/* acquire */
		pcb_tsan_acquire(lock);
		return;
	}
	t0 = pcb_rdtsc();
	ck_spinlock_cas_lock(lock);
	pcb_tsan_acquire(lock);
	pcb_contended(this, fn, pcb_rdtsc() - t0);
}

#define memcg_stock_lock(this, stock)					\
	({ unsigned long f_ = local_irq_save_model();			\
	   preempt_disable(this);					\
	   pcb_spin_lock(this, &(stock)->stock_lock, __func__); f_; })

#define memcg_stock_unlock(this, stock, flags)				\
	do { pcb_tsan_release(&(stock)->stock_lock);			\
	     ck_spinlock_cas_unlock(&(stock)->stock_lock);		\
	     preempt_enable(this); local_irq_restore_model(flags); } while (0)

#endif
