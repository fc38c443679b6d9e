/* SPDX-License-Identifier: MIT */
/*
 * One modeled CPU's area: the model's per-CPU struct (struct pcb_cpu
 * first), then its stock where the model places it and, for designs whose
 * drain swaps stocks, a spare (pcb/area.h lays it out).
 */
#ifndef PCB_RUN_CPU_AREA_H
#define PCB_RUN_CPU_AREA_H

#include <stddef.h>

#include "pcb/cpu.h"
#include "pcb/model.h"

/* CPU numbers of modeled CPUs that are not this machine's */
#define PCB_CPU_ID_COORDINATOR	100000u	/* the coordinator's own area */
#define PCB_CPU_ID_VIRTUAL	10000u	/* virtual CPU i is PCB_CPU_ID_VIRTUAL + i */

/* at most this many threads stand in for the idle virtual CPUs (coordinator.h) */
#define PCB_MAX_HELPERS		64

/* with its stock placed as the model's ops.stock_place() says */
size_t pcb_cpu_area_size(const struct pcb_design *d, const struct pcb_variant *v,
			 struct pcb_stock_place place);
/* size bytes on node, zeroed: an area, or what goes beside it; NULL without memory */
void *pcb_cpu_area_alloc(size_t size, int node);
/*
 * area (pcb_cpu_area_size() bytes) zeroed and set up as CPU os on node,
 * isolated or not (cpu_is_isolated()) before its cache is, whose lock may
 * depend on it
 */
struct pcb_cpu *pcb_cpu_area_init(void *area, const struct pcb_design *d,
				  const struct pcb_variant *v, struct pcb_stock_place place,
				  unsigned int os, int node, bool isolated);
/*
 * The CPUs pcb_ipi_cpu() gives for virtual CPUs this run: virtual CPU i's
 * is home[i % n] (its helper's), -1 or n 0: the caller's
 */
void pcb_cpu_set_virtual_home(const int *home, int n);

#endif
