/* SPDX-License-Identifier: MIT */
/*
 * spinlock_t taken with spin_lock_irqsave() on !PREEMPT_RT:
 * local_irq_save(), preempt_disable() and the qspinlock fast path, one
 * cmpxchg of 0 -> locked (queued_spin_lock()), falling back to spinning.
 * spin_unlock is a release store (smp_store_release()). Modeled on
 * Concurrency Kit's CAS spinlock, the same instruction sequence on x86
 * (lock cmpxchg; plain store).
 */
#ifndef PCB_LOCKS_SPINLOCK_H
#define PCB_LOCKS_SPINLOCK_H

#include <ck_pr.h>
#include <ck_spinlock.h>

#include "../percpu.h"
#include "irq.h"

typedef ck_spinlock_cas_t spinlock_t;

static inline void spin_lock_init(spinlock_t *lock)
{
	ck_spinlock_cas_init(lock);
}

/*
 * queued_spin_lock(): one cmpxchg when uncontended. When it fails, count the
 * contention and the cycles until the lock was taken, under the calling
 * function, as seed 000's spin_lock_irqsave_cc() did (2.3): exact, no sampling.
 */
static inline void pcb_spin_lock(struct pcb_cpu *this, spinlock_t *lock, const char *fn)
{
	uint64_t t0;

	if (likely(ck_pr_cas_uint(&lock->value, false, true))) {
		ck_pr_fence_lock();	/* acquire */
		pcb_tsan_acquire(lock);
		return;
	}
	t0 = pcb_tsc_now();
	ck_spinlock_cas_lock(lock);
	pcb_tsan_acquire(lock);
	pcb_contended(this, fn, pcb_tsc_now() - t0);
}

static inline void pcb_spin_unlock(spinlock_t *lock)
{
	pcb_tsan_release(lock);
	ck_spinlock_cas_unlock(lock);
}

/* spin_lock_irqsave(), counted under fn when contended */
static inline unsigned long spin_lock_irqsave_cc(struct pcb_cpu *this, spinlock_t *lock,
						 const char *fn)
{
	unsigned long flags = local_irq_save_model();

	preempt_disable(this);
	pcb_spin_lock(this, lock, fn);
	return flags;
}

static inline void spin_unlock_irqrestore(struct pcb_cpu *this, spinlock_t *lock,
					  unsigned long flags)
{
	pcb_spin_unlock(lock);
	preempt_enable(this);
	local_irq_restore_model(flags);
}

#endif
