/* SPDX-License-Identifier: MIT */
/*
 * A lock whose owner only has to keep its own CPU: local_lock_irqsave() on
 * !PREEMPT_RT without lockdep, where local_lock_t is an empty struct and the
 * lock is local_irq_save(). Modeled as irq_model's interrupt masking (in
 * kernel mode with the preempt count as cli's stand-in; elsewhere the
 * count alone), no atomics: nothing another CPU can take.
 */
#ifndef PCB_LOCKS_IRQ_OFF_H
#define PCB_LOCKS_IRQ_OFF_H

#include "../percpu.h"
#include "irq.h"

#ifdef __KERNEL__
/*
 * The kernel's local_lock_t (empty without lockdep); local_lock_irqsave()
 * is local_irq_save() alone on !PREEMPT_RT without lockdep
 * (include/linux/local_lock_internal.h), which kmod/seam/pcb/base.h
 * requires: the masking below is the kernel's
 */
#else
typedef struct { } local_lock_t;
#endif

static inline unsigned long local_lock_irqsave_model(struct pcb_cpu *this)
{
	unsigned long flags = local_irq_save_model(this);

	irq_standin_disable(this);
	return flags;
}

static inline void local_unlock_irqrestore_model(struct pcb_cpu *this, unsigned long flags)
{
	irq_standin_enable(this);
	local_irq_restore_model(this, flags);
}

#endif
