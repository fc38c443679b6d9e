/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "design.h"

extern const struct pcb_design pcb_design_local_lock;
extern const struct pcb_design pcb_design_spinlock;

const struct pcb_design *const pcb_designs[] = {
	&pcb_design_local_lock,
	&pcb_design_spinlock,
	NULL,
};

const char *const pcb_fn_name[PCB_FN_NR] = {
	[PCB_FN_CONSUME_STOCK] = "consume_stock",
	[PCB_FN_REFILL_STOCK] = "refill_stock",
};

const struct pcb_workload_info pcb_workloads[PCB_WL_NR] = {
	[PCB_WL_CHARGE] = { "charge",
		"page charges and uncharges as try_charge_memcg()/uncharge_batch() make them; "
		"a random walk of each worker's held pages" },
};

const struct pcb_design *pcb_design_find(const char *name)
{
	for (int i = 0; pcb_designs[i]; i++)
		if (!strcmp(pcb_designs[i]->name, name))
			return pcb_designs[i];
	return NULL;
}
