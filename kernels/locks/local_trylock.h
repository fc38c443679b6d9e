/* SPDX-License-Identifier: MIT */
/*
 * local_trylock_t on !PREEMPT_RT (include/linux/local_lock_internal.h,
 * v6.15's; in the kernel backend the kernel's own where it has one): a
 * one-byte owner flag beside local_irq_save(), or beside the preempt count
 * alone in the forms that do not mask interrupts. local_lock_irqsave() sets
 * the flag without testing it; local_trylock_irqsave() fails when this CPU
 * already holds the lock (an interrupt arrived inside the section).
 */
#ifndef PCB_LOCKS_LOCAL_TRYLOCK_H
#define PCB_LOCKS_LOCAL_TRYLOCK_H

#include "../percpu.h"
#include "irq.h"

/* a feature test: the kernel has local_trylock_t where it has its initializer */
#if defined(__KERNEL__) && defined(INIT_LOCAL_TRYLOCK)
#define PCB_KERNEL_LOCAL_TRYLOCK 1
#else
#define PCB_KERNEL_LOCAL_TRYLOCK 0
#endif

#if PCB_KERNEL_LOCAL_TRYLOCK
/*
 * The kernel's own local_trylock_t, whose u8 acquired is the owner flag
 * below: include/linux/local_lock_internal.h from v6.15 on ("locking/
 * local_lock, mm: replace localtry_ helpers with local_trylock_t type",
 * 51339d99c013, in v6.15's release candidates). Its macros of the names
 * below take a per-CPU pointer and no CPU; they give way to the model's,
 * which take the CPU and the lock already resolved to it (the kernel's
 * headers, included first by pcb/base.h, no longer expand them).
 */
#undef local_trylock_init
#undef local_trylock_irqsave
#else
typedef struct {
	unsigned char acquired;
} local_trylock_t;
#endif

static inline void local_trylock_init(local_trylock_t *lock)
{
	lock->acquired = 0;
}

static inline unsigned long local_trylock_lock_irqsave(struct pcb_cpu *this, local_trylock_t *lock)
{
	unsigned long flags = local_irq_save_model(this);

	irq_standin_disable(this);
	WRITE_ONCE(lock->acquired, 1);
	return flags;
}

static inline bool local_trylock_irqsave(struct pcb_cpu *this, local_trylock_t *lock,
					 unsigned long *flags)
{
	*flags = local_irq_save_model(this);
	irq_standin_disable(this);
	if (unlikely(READ_ONCE(lock->acquired))) {
		irq_standin_enable(this);
		local_irq_restore_model(this, *flags);
		return false;
	}
	WRITE_ONCE(lock->acquired, 1);
	return true;
}

static inline void local_trylock_unlock_irqrestore(struct pcb_cpu *this, local_trylock_t *lock,
						   unsigned long flags)
{
	WRITE_ONCE(lock->acquired, 0);
	irq_standin_enable(this);
	local_irq_restore_model(this, flags);
}

/*
 * The forms without interrupt masking (__local_trylock(), __local_lock(),
 * __local_unlock() of v6.16's local_lock_internal.h, which SLUB's percpu
 * sheaves take): the preempt count and the owner flag, no atomics. In the
 * kernel backend the preempt count is the kernel's (pcb/preempt.h), and
 * the kernel's macros of these names (local_lock() and local_unlock();
 * local_trylock() from v6.15), which take a per-CPU pointer and no CPU,
 * give way to the model's, as local_trylock_init() does above.
 */
#ifdef __KERNEL__
#undef local_trylock
#undef local_lock
#undef local_unlock
#endif

/* __local_trylock() with the preempt count already raised; dropped again if it fails */
static inline bool pcb_local_trylock_raised(struct pcb_cpu *this, local_trylock_t *lock)
{
	if (unlikely(READ_ONCE(lock->acquired))) {
		preempt_enable(this);
		return false;
	}
	WRITE_ONCE(lock->acquired, 1);
	return true;
}

static inline bool local_trylock(struct pcb_cpu *this, local_trylock_t *lock)
{
	preempt_disable(this);
	return pcb_local_trylock_raised(this, lock);
}

static inline void local_lock(struct pcb_cpu *this, local_trylock_t *lock)
{
	preempt_disable(this);
	WRITE_ONCE(lock->acquired, 1);
}

static inline void local_unlock(struct pcb_cpu *this, local_trylock_t *lock)
{
	WRITE_ONCE(lock->acquired, 0);
	preempt_enable(this);
}

#endif
