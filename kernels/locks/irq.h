/* SPDX-License-Identifier: MIT */
/*
 * local_irq_save()/local_irq_restore() as a cost model (irq_model =
 * pushf_popf, built as a variant with PCB_IRQ_MODEL=1): pushf; pop at save,
 * push; popf at restore. User mode cannot execute cli, and popf there leaves
 * IF alone, so the model has the flag traffic and popf's serialisation, not
 * the masking. With irq_model = none both compile to nothing.
 */
#ifndef PCB_LOCKS_IRQ_H
#define PCB_LOCKS_IRQ_H

#ifndef PCB_IRQ_MODEL
#define PCB_IRQ_MODEL 0
#endif

static inline unsigned long local_irq_save_model(void)
{
#if PCB_IRQ_MODEL
	unsigned long flags;

	__asm__ __volatile__("pushf\n\tpop %0" : "=rm"(flags) :: "memory");
	return flags;
#else
	return 0;
#endif
}

static inline void local_irq_restore_model(unsigned long flags)
{
#if PCB_IRQ_MODEL
	__asm__ __volatile__("push %0\n\tpopf" :: "g"(flags) : "memory", "cc");
#else
	(void)flags;
#endif
}

#endif
