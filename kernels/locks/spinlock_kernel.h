/* SPDX-License-Identifier: MIT */
/*
 * spinlock_t in the kernel backend (locks/spinlock.h is what a model
 * includes): the kernel's own, with the paravirt hooks and the
 * out-of-line _raw_spin_lock_irqsave() and its kin the running kernel
 * has, under the names a model calls, which take the CPU it runs on.
 *
 * Contention is counted as seed 000 counted it (2.3): a trylock first,
 * and where it fails the cycles until the lock was taken, under the
 * function that took it:
 *
 *	#define spin_lock_irqsave_cc(l, flags)
 *		if (!spin_trylock_irqsave(l, flags)) {
 *			u64 clk = rdtsc_ordered();
 *			spin_lock_irqsave(l, flags);
 *			clk = rdtsc_ordered() - clk;
 *			...
 *
 * Three of the names are the kernel's with another argument: its own
 * are wrapped first, then the names taken for the model's.
 */
#ifndef PCB_LOCKS_SPINLOCK_KERNEL_H
#define PCB_LOCKS_SPINLOCK_KERNEL_H

#include "../percpu.h"

static __always_inline bool pcb_kernel_spin_trylock(spinlock_t *lock)
{
	return spin_trylock(lock);
}

static __always_inline void pcb_kernel_spin_unlock(spinlock_t *lock)
{
	spin_unlock(lock);
}

static __always_inline void pcb_kernel_spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	spin_unlock_irqrestore(lock, flags);
}

#define spin_trylock(this, lock)		((void)(this), pcb_kernel_spin_trylock(lock))
#define spin_unlock(this, lock)			((void)(this), pcb_kernel_spin_unlock(lock))
#define spin_unlock_irqrestore(this, lock, flags) \
	((void)(this), pcb_kernel_spin_unlock_irqrestore(lock, flags))

/* spin_lock_irqsave() (_raw_spin_lock_irqsave()), counted under fn when contended */
static __always_inline unsigned long spin_lock_irqsave_cc(struct pcb_cpu *this, spinlock_t *lock,
							  const char *fn)
{
	unsigned long flags;
	uint64_t t0;

	if (likely(spin_trylock_irqsave(lock, flags)))
		return flags;
	t0 = pcb_tsc_start();
	spin_lock_irqsave(lock, flags);
	pcb_contended(this, fn, pcb_tsc_end() - t0);
	return flags;
}

/* spin_lock() (_raw_spin_lock()), counted under fn when contended */
static __always_inline void spin_lock_cc(struct pcb_cpu *this, spinlock_t *lock, const char *fn)
{
	uint64_t t0;

	if (likely(pcb_kernel_spin_trylock(lock)))
		return;
	t0 = pcb_tsc_start();
	spin_lock(lock);
	pcb_contended(this, fn, pcb_tsc_end() - t0);
}

/*
 * The lock word alone (do_raw_spin_lock(): queued_spin_lock(), its
 * paravirt slow path), where interrupts are already off
 */
static __always_inline void pcb_spin_lock(struct pcb_cpu *this, spinlock_t *lock, const char *fn)
{
	uint64_t t0;

	if (likely(do_raw_spin_trylock(&lock->rlock)))
		return;
	t0 = pcb_tsc_start();
	do_raw_spin_lock(&lock->rlock);
	pcb_contended(this, fn, pcb_tsc_end() - t0);
}

/* do_raw_spin_unlock(): queued_spin_unlock(), through paravirt's patched site */
static __always_inline void pcb_spin_unlock(spinlock_t *lock)
{
	do_raw_spin_unlock(&lock->rlock);
}

#endif
