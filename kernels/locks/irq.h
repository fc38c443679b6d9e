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
 */
#ifndef PCB_LOCKS_IRQ_H
#define PCB_LOCKS_IRQ_H

#ifndef PCB_IRQ_MODEL
#define PCB_IRQ_MODEL 0
#endif

#define PCB_IRQ_NONE		0
#define PCB_IRQ_PUSHF_POPF	1
#define PCB_IRQ_KERNEL		2
#define PCB_IRQ_MODELS		3
/* run.irq_model's choices, by value */
#define PCB_IRQ_MODEL_NAMES { "none", "pushf_popf", "kernel", NULL }

/* X86_EFLAGS_IF */
#define PCB_EFLAGS_IF 0x200

static inline unsigned long local_irq_save_model(void)
{
#if PCB_IRQ_MODEL != PCB_IRQ_NONE
	unsigned long flags;

	__asm__ __volatile__("pushf\n\tpop %0" : "=rm"(flags) :: "memory");
	return flags;
#else
	return 0;
#endif
}

static inline void local_irq_restore_model(unsigned long flags)
{
#if PCB_IRQ_MODEL == PCB_IRQ_PUSHF_POPF
	__asm__ __volatile__("push %0\n\tpopf" :: "g"(flags) : "memory", "cc");
#elif PCB_IRQ_MODEL == PCB_IRQ_KERNEL
	/* if (!arch_irqs_disabled_flags(flags)) arch_local_irq_enable(): sti left out */
	__asm__ __volatile__("testl %1, %k0\n\tjz 1f\n\tnop\n1:"
			     :: "r"(flags), "i"(PCB_EFLAGS_IF) : "memory", "cc");
#else
	(void)flags;
#endif
}

#endif
