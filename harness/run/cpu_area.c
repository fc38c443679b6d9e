/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "cpu_area.h"

static size_t round_line(size_t n)
{
	return (n + SMP_CACHE_BYTES - 1) & ~(size_t)(SMP_CACHE_BYTES - 1);
}

size_t pcb_cpu_area_size(const struct pcb_design *d, const struct pcb_variant *v)
{
	return round_line(v->cpu_size) + (1 + d->drain.spare_stock) * round_line(v->stock_size);
}

struct pcb_cpu *pcb_cpu_area_init(void *area, const struct pcb_design *d,
				  const struct pcb_variant *v, unsigned int os, int node)
{
	struct pcb_cpu *cpu = area;

	memset(area, 0, pcb_cpu_area_size(d, v));
	pcb_cpu_init(cpu);
	cpu->cpu = os;
	cpu->node = node;
	cpu->stock = (char *)area + round_line(v->cpu_size);
	v->stock_init(cpu->stock);
	if (d->drain.spare_stock) {
		cpu->stock_spare = (char *)cpu->stock + round_line(v->stock_size);
		v->stock_init(cpu->stock_spare);
	}
	return cpu;
}
