/* SPDX-License-Identifier: MIT */
/*
 * run.irq_model, one key for every model whose locks mask interrupts
 * (irq.h: what each choice costs): its choices and their names in the
 * results, the key itself, and the kernel backend's change of it. A
 * model's key table has PCB_IRQ_MODEL_KEY(its config struct, where it
 * masks), its config an int irq_model and an int in_kernel, and its
 * config.kernel hook calls pcb_irq_model_in_kernel().
 */
#ifndef PCB_LOCKS_IRQ_KEY_H
#define PCB_LOCKS_IRQ_KEY_H

#include <stddef.h>

#include "pcb/keys.h"

#include "irq.h"

/* run.irq_model's choices, by value (PCB_IRQ_NONE ...) */
static const char *const pcb_irq_model_names[PCB_IRQ_MODELS + 1] = {
	[PCB_IRQ_NONE] = "none",
	[PCB_IRQ_PUSHF_POPF] = "pushf_popf",
	[PCB_IRQ_KERNEL] = "kernel",
};

_Static_assert(sizeof(pcb_irq_model_names) / sizeof(pcb_irq_model_names[0]) == PCB_IRQ_MODELS + 1,
	       "a name for each PCB_IRQ_ value, then NULL");

#define PCB_IRQ_MODEL_KEY(CFG, where)							\
	PCB_KEY_CHOICE_FIELD("run", "irq_model", "none", pcb_irq_model_names, CFG, irq_model,	\
			     "cost of local_irq_save/restore in " where)

/*
 * The kernel backend executes local_irq_save()'s cli and sti itself:
 * every model's configuration takes irq_model kernel there, the change
 * said in the run's note
 */
static inline void pcb_irq_model_in_kernel(int *irq_model, int *in_kernel, char *note, size_t len)
{
	if (*irq_model != PCB_IRQ_KERNEL) {
		pcb_note_append(note, len, "run.irq_model = %s: the kernel backend executes cli and "
				"sti (irq_model kernel)", pcb_irq_model_names[*irq_model]);
		*irq_model = PCB_IRQ_KERNEL;
	}
	*in_kernel = 1;
}

#endif
