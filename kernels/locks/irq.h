/* SPDX-License-Identifier: MIT */
/*
 * local_irq_save()/local_irq_restore() as a cost model, built as a variant
 * (PCB_IRQ_MODEL; run.irq_model). User mode cannot execute cli or sti, so
 * the models have the flag traffic and the branches, not the masking:
 *
 *  none        nothing (0)
 *  pushf_popf  pushf; pop at save, push; popf at restore (1): popf's
 *              serialisation, as kernels before 2016 paid it
 *  kernel      pushf; pop at save (arch_local_irq_save()'s flags, then cli),
 *              a test of the saved IF bit and a branch at restore
 *              (arch_local_irq_restore(): sti only if it was set), as x86
 *              does today (2)
 *
 * While a lock's section runs, work the harness delivers to the CPU by a
 * signal must wait, as an interrupt waits for sti: that deferral is the
 * owner's preempt count (cpu.h). In kernel mode the count is the stand-in
 * for cli and sti themselves, taken in local_irq_save_model() and given
 * back, running what waited, in local_irq_restore_model(), so that a lock
 * which in the kernel has no preempt count (local_lock_irqsave() on
 * !PREEMPT_RT is local_irq_save() alone) has none here either, and
 * spin_lock_irqsave() has both, as in the kernel. Its cost is one
 * incl and one decl; je of a per-CPU word. In the other modes the
 * stand-in is the lock's own pair, irq_standin_disable()/_enable(),
 * taken where the kernel masks interrupts.
 *
 * The kernel backend executes cli and sti themselves, in every variant.
 */
#ifndef PCB_LOCKS_IRQ_H
#define PCB_LOCKS_IRQ_H

#include "../percpu.h"

#ifndef PCB_IRQ_MODEL
#define PCB_IRQ_MODEL 0
#endif

/* run.irq_model's choices, by value (irq_key.h names them) */
#define PCB_IRQ_NONE		0
#define PCB_IRQ_PUSHF_POPF	1
#define PCB_IRQ_KERNEL		2
#define PCB_IRQ_MODELS		3

/*
 * What a configuration's line adds for its irq_model: what user mode
 * cannot execute, and the kernel backend (in_kernel) does
 */
static inline const char *pcb_irq_model_note(int model, int in_kernel)
{
	return in_kernel ? "; cli and sti executed (the kernel backend)" :
	       model == PCB_IRQ_KERNEL ? "; irq_model kernel: cli and sti not executed (user "
					 "mode), the preempt count stands in" :
	       model == PCB_IRQ_PUSHF_POPF ? "; irq_model pushf_popf" : "";
}

#ifdef __KERNEL__
/*
 * The kernel backend: the kernel's own masking, whatever the variant's
 * irq_model. local_irq_save() is pushf; pop; cli (through paravirt's
 * patched sites), local_irq_restore() a test of the saved IF and sti,
 * and while it is off no interrupt is taken: nothing stands in for it.
 */
static __always_inline unsigned long local_irq_save_model(struct pcb_cpu *this)
{
	unsigned long flags;

	(void)this;
	local_irq_save(flags);
	return flags;
}

static __always_inline void local_irq_restore_model(struct pcb_cpu *this, unsigned long flags)
{
	(void)this;
	local_irq_restore(flags);
}

static __always_inline void irq_standin_disable(struct pcb_cpu *this)
{
	(void)this;
}

static __always_inline void irq_standin_enable(struct pcb_cpu *this)
{
	(void)this;
}
#else
/* X86_EFLAGS_IF */
#define PCB_EFLAGS_IF 0x200

static inline unsigned long local_irq_save_model(struct pcb_cpu *this)
{
#if PCB_IRQ_MODEL != PCB_IRQ_NONE
	unsigned long flags;

	__asm__ __volatile__("pushf\n\tpop %0" : "=rm"(flags) :: "memory");
#if PCB_IRQ_MODEL == PCB_IRQ_KERNEL
	preempt_disable(this);		/* cli's stand-in */
#else
	(void)this;
#endif
	return flags;
#else
	(void)this;
	return 0;
#endif
}

static inline void local_irq_restore_model(struct pcb_cpu *this, unsigned long flags)
{
#if PCB_IRQ_MODEL == PCB_IRQ_PUSHF_POPF
	(void)this;
	__asm__ __volatile__("push %0\n\tpopf" :: "g"(flags) : "memory", "cc");
#elif PCB_IRQ_MODEL == PCB_IRQ_KERNEL
	/* if (!arch_irqs_disabled_flags(flags)) arch_local_irq_enable(): sti's stand-in */
	__asm__ __volatile__("testl %1, %k0\n\tjz 1f\n\tnop\n1:"
			     :: "r"(flags), "i"(PCB_EFLAGS_IF) : "memory", "cc");
	preempt_enable(this);
#else
	(void)this;
	(void)flags;
#endif
}

/*
 * Where the kernel masks interrupts and takes no preempt count, the
 * deferral's stand-in outside kernel mode (in kernel mode the irq save
 * and restore hold it)
 */
static inline void irq_standin_disable(struct pcb_cpu *this)
{
#if PCB_IRQ_MODEL != PCB_IRQ_KERNEL
	preempt_disable(this);
#else
	(void)this;
#endif
}

static inline void irq_standin_enable(struct pcb_cpu *this)
{
#if PCB_IRQ_MODEL != PCB_IRQ_KERNEL
	preempt_enable(this);
#else
	(void)this;
#endif
}

#endif

#endif
