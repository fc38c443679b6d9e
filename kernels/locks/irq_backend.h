/* SPDX-License-Identifier: MIT */
/*
 * run.irq_model on the kernel backend, which executes local_irq_save()'s
 * cli and sti itself: every model's configuration takes irq_model kernel
 * there, the change said in the run's note. A model's config.kernel hook
 * calls it.
 */
#ifndef PCB_LOCKS_IRQ_BACKEND_H
#define PCB_LOCKS_IRQ_BACKEND_H

#include <stddef.h>

#include "pcb/keys.h"

#include "irq.h"

static inline void pcb_irq_model_in_kernel(int *irq_model, int *in_kernel, char *note, size_t len)
{
	static const char *const names[] = PCB_IRQ_MODEL_NAMES;

	if (*irq_model != PCB_IRQ_KERNEL) {
		pcb_note_append(note, len, "run.irq_model = %s: the kernel backend executes cli and "
				"sti (irq_model kernel)", names[*irq_model]);
		*irq_model = PCB_IRQ_KERNEL;
	}
	*in_kernel = 1;
}

#endif
