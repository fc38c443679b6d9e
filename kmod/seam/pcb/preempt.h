/* SPDX-License-Identifier: MIT */
/*
 * The preempt count, kernel side (harness/seam/pcb/preempt.h is the
 * userspace one): the kernel's own.
 *
 * A model names the CPU it runs on, preempt_disable(this), where the
 * kernel's preempt_disable() takes none: in the kernel backend `this` is
 * always the CPU the code runs on (a worker or the coordinator bound to
 * it, the CPU's kworker, a call on that CPU), whose count the kernel's
 * reaches through %gs. The kernel's macros are wrapped first, then their
 * names taken for macros that accept the model's argument and the
 * kernel's none alike, so that a kernel macro expanded later (get_cpu())
 * still compiles to the kernel's own.
 */
#ifndef PCB_SEAM_PREEMPT_H
#define PCB_SEAM_PREEMPT_H

#include "pcb/base.h"
#include "pcb/cpu.h"
#include "pcb/work.h"

static __always_inline void pcb_kernel_preempt_disable(void)
{
	preempt_disable();
}

static __always_inline void pcb_kernel_preempt_enable(void)
{
	preempt_enable();
}

#undef preempt_disable
#undef preempt_enable
/* the model's preempt_disable(this) and preempt_enable(this): this CPU's count */
#define preempt_disable(...)	pcb_kernel_preempt_disable()
#define preempt_enable(...)	pcb_kernel_preempt_enable()

/* a modeled CPU's own count is the kernel's: nothing to set up */
static inline void pcb_cpu_init(struct pcb_cpu *cpu)
{
	cpu->preempt_count = 0;
}

static inline unsigned int preempt_nesting(const struct pcb_cpu *this)
{
	(void)this;
	return preempt_count();
}

/* cond_resched() between two chunks of a worker's loop (the module's, kmod/kthreads.c) */
void pcb_cond_resched(void);
/*
 * the CPU's worker inside rcu_read_lock() from its loop's start to its
 * end, but across pcb_cond_resched() (kernels/drain/qsbr.h)
 */
void pcb_rcu_reader_begin(void);
void pcb_rcu_reader_end(void);

#endif
