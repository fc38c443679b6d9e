/* SPDX-License-Identifier: MIT */
/*
 * spinlock_t on !PREEMPT_RT x86: the qspinlock (include/asm-generic/
 * qspinlock.h). A 4-byte word (locked, pending, tail); queued_spin_lock()
 * is one cmpxchg of the word 0 -> _Q_LOCKED_VAL, and queued_spin_unlock()
 * a release store of one byte, 0 into lock->locked, which the next lock's
 * cmpxchg then reads whole (on some cores a store-forwarding stall). The
 * contended path spins until the word is 0 and tries again (the MCS queue
 * of queued_spin_lock_slowpath() is not modeled: per-CPU locks are rarely
 * contended, and each contention is counted).
 *
 * spin_lock_irqsave() and spin_unlock_irqrestore() are out-of-line calls
 * on x86 (_raw_spin_lock_irqsave(), _raw_spin_unlock_irqrestore()): so here.
 * spin_trylock() is one too (_raw_spin_trylock()), and reads the word
 * before its cmpxchg (queued_spin_trylock()), where the lock's fast path
 * (queued_spin_lock()) goes straight to the cmpxchg.
 *
 * With PCB_SPINLOCK_CAS defined first, spinlock_t is Concurrency Kit's CAS
 * lock instead, a 32-bit word stored whole at unlock: what the difference
 * between the two costs shows (the memcg design spinlock_cas).
 *
 * What a model takes, each with the CPU it runs on named:
 *   spin_lock_irqsave(this, lock, fn), spin_unlock_irqrestore(this, lock, flags)
 *   spin_lock(this, lock, fn), spin_unlock(this, lock)
 *   spin_trylock(this, lock)		1 if taken (with preemption off)
 *   spin_trylock_cc(this, lock, fn)	the same, a failure counted under fn
 *   spin_lock_irqsave_cc(this, lock, fn)
 *					seed 000's instrument (2.3): a trylock
 *					first, then the wait timed and counted
 *   pcb_spin_lock(this, lock, fn), pcb_spin_unlock(lock)
 *					the lock word alone, where interrupts
 *					are already off (zone->lock under the pcp lock)
 * A contended acquisition is counted under fn, the kernel function that
 * took the lock, in the lock's slow path: the fast path has nothing of the
 * count, so spin_lock_irqsave() is the kernel's spin_lock_irqsave(), as
 * seed 000's cycle table (2.2) ran it. The kernel backend takes the
 * kernel's spinlock_t with the kernel's own primitives (spinlock_kernel.h).
 */
#ifndef PCB_LOCKS_SPINLOCK_H
#define PCB_LOCKS_SPINLOCK_H

#include <stdint.h>

#include "../percpu.h"
#include "irq.h"

#ifdef __KERNEL__
#include "spinlock_kernel.h"
#else

#ifdef PCB_SPINLOCK_CAS
#include <ck_pr.h>
#include <ck_spinlock.h>

typedef ck_spinlock_cas_t spinlock_t;

static inline void spin_lock_init(spinlock_t *lock)
{
	ck_spinlock_cas_init(lock);
}

static inline bool arch_spin_lock_fast(spinlock_t *lock)
{
	if (!ck_pr_cas_uint(&lock->value, false, true))
		return false;
	ck_pr_fence_lock();	/* acquire */
	return true;
}

/* the word read first, as the qspinlock's trylock does */
static inline bool arch_spin_trylock(spinlock_t *lock)
{
	if (unlikely(ck_pr_load_uint(&lock->value)))
		return false;
	return arch_spin_lock_fast(lock);
}

static inline void arch_spin_wait(spinlock_t *lock)
{
	while (ck_pr_load_uint(&lock->value))
		ck_pr_stall();
}

static inline void arch_spin_unlock(spinlock_t *lock)
{
	ck_spinlock_cas_unlock(lock);
}
#else
#define _Q_LOCKED_VAL 1U

typedef struct qspinlock {
	union {
		uint32_t val;
		struct {
			uint8_t locked;
			uint8_t pending;
		};
		struct {
			uint16_t locked_pending;
			uint16_t tail;
		};
	};
} spinlock_t;
_Static_assert(sizeof(spinlock_t) == 4, "qspinlock: a 4-byte word");

static inline void spin_lock_init(spinlock_t *lock)
{
	__atomic_store_n(&lock->val, 0, __ATOMIC_RELAXED);
}

/* queued_spin_lock()'s fast path: atomic_try_cmpxchg_acquire(&lock->val, 0, _Q_LOCKED_VAL) */
static inline bool arch_spin_lock_fast(spinlock_t *lock)
{
	uint32_t val = 0;

	return __atomic_compare_exchange_n(&lock->val, &val, _Q_LOCKED_VAL, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* queued_spin_trylock(): the word read, and the cmpxchg only where it is 0 */
static inline bool arch_spin_trylock(spinlock_t *lock)
{
	if (unlikely(__atomic_load_n(&lock->val, __ATOMIC_RELAXED)))
		return false;
	return arch_spin_lock_fast(lock);
}

static inline void arch_spin_wait(spinlock_t *lock)
{
	while (__atomic_load_n(&lock->val, __ATOMIC_RELAXED))
		__builtin_ia32_pause();
}

/* queued_spin_unlock(): smp_store_release(&lock->locked, 0), one byte */
static inline void arch_spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}
#endif

/* the word taken once it was seen free: the spin of the slow path */
static inline void arch_spin_lock_wait(spinlock_t *lock)
{
	do
		arch_spin_wait(lock);
	while (!arch_spin_lock_fast(lock));
}

/*
 * queued_spin_lock()'s slow path, with the contention and the cycles from
 * t0 until the lock was taken counted under the calling function: exact,
 * no sampling. A call of its own, as queued_spin_lock_slowpath() is, so
 * that what it keeps in registers costs the fast path no saves.
 */
static __attribute__((__noinline__, __cold__, unused)) void
pcb_spin_lock_contended(struct pcb_cpu *this, spinlock_t *lock, const char *fn, uint64_t t0)
{
	arch_spin_lock_wait(lock);
	pcb_contended(this, fn, pcb_tsc_now() - t0);
}

/* The lock, one atomic when uncontended (queued_spin_lock()) */
static inline void pcb_spin_lock(struct pcb_cpu *this, spinlock_t *lock, const char *fn)
{
	if (unlikely(!arch_spin_lock_fast(lock)))
		pcb_spin_lock_contended(this, lock, fn, pcb_tsc_now());
	pcb_tsan_acquire(lock);
}

static inline void pcb_spin_unlock(spinlock_t *lock)
{
	pcb_tsan_release(lock);
	arch_spin_unlock(lock);
}

/*
 * spin_trylock(): _raw_spin_trylock() (__raw_spin_trylock()), out of line
 * on x86, with its own preempt count: preemption off where it took the lock
 */
static __attribute__((__noinline__, unused)) bool spin_trylock(struct pcb_cpu *this, spinlock_t *lock)
{
	preempt_disable(this);
	if (likely(arch_spin_trylock(lock))) {
		pcb_tsan_acquire(lock);
		return true;
	}
	preempt_enable(this);
	return false;
}

/* spin_lock_irqsave() (_raw_spin_lock_irqsave()), counted under fn when contended */
static __attribute__((__noinline__, unused)) unsigned long
spin_lock_irqsave(struct pcb_cpu *this, spinlock_t *lock, const char *fn)
{
	unsigned long flags = local_irq_save_model(this);

	preempt_disable(this);
	pcb_spin_lock(this, lock, fn);
	return flags;
}

/*
 * seed 000's spin_lock_irqsave_cc() (2.3): spin_trylock_irqsave() (the
 * flags saved inline, then the out-of-line trylock, which reads the word
 * first) and, where it fails, the flags restored and the cycles until
 * spin_lock_irqsave() took the lock, counted under fn. Inline, as the
 * seed's macro is.
 */
static __always_inline unsigned long
spin_lock_irqsave_cc(struct pcb_cpu *this, spinlock_t *lock, const char *fn)
{
	unsigned long flags = local_irq_save_model(this);
	uint64_t t0;

	if (likely(spin_trylock(this, lock)))
		return flags;
	local_irq_restore_model(this, flags);
	t0 = pcb_tsc_now();
	flags = local_irq_save_model(this);
	preempt_disable(this);
	pcb_spin_lock_contended(this, lock, fn, t0);
	pcb_tsan_acquire(lock);
	return flags;
}

/* spin_unlock_irqrestore() (_raw_spin_unlock_irqrestore()) */
static __attribute__((__noinline__, unused)) void
spin_unlock_irqrestore(struct pcb_cpu *this, spinlock_t *lock, unsigned long flags)
{
	pcb_spin_unlock(lock);
	local_irq_restore_model(this, flags);
	preempt_enable(this);
}

/* spin_lock() (_raw_spin_lock()), counted under fn when contended */
static __attribute__((__noinline__, unused)) void
spin_lock(struct pcb_cpu *this, spinlock_t *lock, const char *fn)
{
	preempt_disable(this);
	pcb_spin_lock(this, lock, fn);
}

/*
 * spin_unlock(): the release and preempt_enable(), inline, as x86 builds it
 * without CONFIG_PREEMPTION (a preemptible build calls _raw_spin_unlock())
 */
static __always_inline void spin_unlock(struct pcb_cpu *this, spinlock_t *lock)
{
	pcb_spin_unlock(lock);
	preempt_enable(this);
}
#endif

/*
 * spin_trylock() on a hot path that falls back when it fails: the failure
 * counted under fn as a contention that waited for nothing
 */
static inline bool spin_trylock_cc(struct pcb_cpu *this, spinlock_t *lock, const char *fn)
{
	if (likely(spin_trylock(this, lock)))
		return true;
	pcb_contended(this, fn, 0);
	return false;
}

#endif
