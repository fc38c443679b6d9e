/* SPDX-License-Identifier: MIT */
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "cpu_area.h"

static size_t round_line(size_t n)
{
	return (n + PCB_CACHE_LINE - 1) & ~(size_t)(PCB_CACHE_LINE - 1);
}

size_t pcb_cpu_area_size(const struct pcb_design *d, const struct pcb_variant *v)
{
	return round_line(v->cpu_size) + (1 + d->drain.spare_stock) * round_line(v->stock_size);
}

struct pcb_cpu *pcb_cpu_area_init(void *area, const struct pcb_design *d,
				  const struct pcb_variant *v, unsigned int os, int node,
				  bool isolated)
{
	struct pcb_cpu *cpu = area;

	memset(area, 0, pcb_cpu_area_size(d, v));
	pcb_cpu_init(cpu);
	cpu->cpu = os;
	cpu->node = node;
	cpu->isolated = isolated;
	cpu->stock = (char *)area + round_line(v->cpu_size);
	v->stock_init(cpu, cpu->stock);
	if (d->drain.spare_stock) {
		cpu->stock_spare = (char *)cpu->stock + round_line(v->stock_size);
		v->stock_init(cpu, cpu->stock_spare);
	}
	return cpu;
}

/* where virtual CPUs' caches live during a run: the dirtier's CPU, or -1 */
static atomic_int virtual_home = -1;

void pcb_cpu_set_virtual_home(int os_cpu)
{
	atomic_store(&virtual_home, os_cpu);
}

int pcb_ipi_cpu(unsigned int cpu)
{
	int home;

	if (cpu < PCB_CPU_ID_VIRTUAL)
		return (int)cpu;
	home = atomic_load(&virtual_home);
	return home >= 0 ? home : sched_getcpu();
}
