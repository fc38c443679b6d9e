/* SPDX-License-Identifier: MIT */
/*
 * spinlock_t in the kernel backend (locks/spinlock.h is what a model
 * includes): the kernel's own, with the paravirt hooks and the
 * out-of-line _raw_spin_trylock(), _raw_spin_unlock_irqrestore() and
 * their kin the running kernel has, under the names a model calls, which
 * take the CPU it runs on.
 *
 * spin_lock_irqsave() and spin_lock() are _raw_spin_lock_irqsave() and
 * _raw_spin_lock() as the kernel builds them (__raw_spin_lock_irqsave():
 * local_irq_save(), preempt_disable(), spin_acquire(), queued_spin_lock()),
 * out of line here too, with one addition on the slow path only: where
 * queued_spin_lock()'s cmpxchg fails, the cycles until do_raw_spin_lock()
 * took the lock are counted under the function that took it. The fast
 * path is the kernel's, as seed 000's cycle table (2.2) ran it.
 *
 * spin_lock_irqsave_cc() is seed 000's contention instrument (2.3): a
 * trylock first (spin_trylock_irqsave(): the flags saved inline, then
 * _raw_spin_trylock(), which reads the word before its cmpxchg), and
 * where it fails the cycles until the lock was taken:
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

/* seed 000's spin_lock_irqsave_cc() (2.3): spin_trylock_irqsave() first */
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

/*
 * queued_spin_lock()'s fast path: one cmpxchg of the word, 0 to locked.
 * A kernel whose spinlock_t is not the bare qspinlock (CONFIG_DEBUG_SPINLOCK's
 * owner checks, an architecture without it) takes do_raw_spin_trylock().
 */
static __always_inline bool pcb_raw_spin_lock_fast(spinlock_t *lock)
{
#if defined(CONFIG_QUEUED_SPINLOCKS) && !defined(CONFIG_DEBUG_SPINLOCK)
	int val = 0;

	return atomic_try_cmpxchg_acquire(&lock->rlock.raw_lock.val, &val, _Q_LOCKED_VAL);
#else
	return do_raw_spin_trylock(&lock->rlock);
#endif
}

/*
 * queued_spin_lock()'s slow path, timed and counted under fn: a call of
 * its own, as queued_spin_lock_slowpath() is, so that what it keeps in
 * registers costs the fast path no saves
 */
static noinline __maybe_unused void pcb_raw_spin_lock_contended(struct pcb_cpu *this,
								spinlock_t *lock, const char *fn)
{
	uint64_t t0 = pcb_tsc_start();

	do_raw_spin_lock(&lock->rlock);
	pcb_contended(this, fn, pcb_tsc_end() - t0);
}

/*
 * The lock word alone (do_raw_spin_lock(): queued_spin_lock(), its
 * paravirt slow path), where interrupts are already off
 */
static __always_inline void pcb_spin_lock(struct pcb_cpu *this, spinlock_t *lock, const char *fn)
{
	if (unlikely(!pcb_raw_spin_lock_fast(lock)))
		pcb_raw_spin_lock_contended(this, lock, fn);
}

/*
 * spin_lock_irqsave() (_raw_spin_lock_irqsave()), counted under fn when
 * contended. Out of line as the kernel's is; the model's name takes the
 * kernel's macro's place (the kernel's headers are all read before this one).
 */
static noinline __maybe_unused unsigned long
pcb_raw_spin_lock_irqsave(struct pcb_cpu *this, spinlock_t *lock, const char *fn)
{
	unsigned long flags;

	local_irq_save(flags);
	preempt_disable();
	spin_acquire(&lock->rlock.dep_map, 0, 0, _RET_IP_);
	pcb_spin_lock(this, lock, fn);
	return flags;
}

#undef spin_lock_irqsave
#define spin_lock_irqsave(this, lock, fn) pcb_raw_spin_lock_irqsave(this, lock, fn)

/*
 * spin_lock() (_raw_spin_lock(): preempt_disable(), spin_acquire(),
 * queued_spin_lock()), out of line, counted under fn when contended
 */
static noinline __maybe_unused void pcb_raw_spin_lock(struct pcb_cpu *this, spinlock_t *lock,
						      const char *fn)
{
	preempt_disable();
	spin_acquire(&lock->rlock.dep_map, 0, 0, _RET_IP_);
	pcb_spin_lock(this, lock, fn);
}

#define spin_lock(this, lock, fn) pcb_raw_spin_lock(this, lock, fn)

/* do_raw_spin_unlock(): queued_spin_unlock(), through paravirt's patched site */
static __always_inline void pcb_spin_unlock(spinlock_t *lock)
{
	do_raw_spin_unlock(&lock->rlock);
}

#endif
