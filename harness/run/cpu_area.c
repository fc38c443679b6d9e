/* SPDX-License-Identifier: MIT */
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "../machine/topo.h"
#include "cpu_area.h"
#include "pcb/area.h"
#include "pcb/preempt.h"

void *pcb_cpu_area_alloc(size_t size, int node)
{
	void *p = pcb_alloc_on_node(size, node);

	if (p)
		memset(p, 0, size);
	return p;
}

size_t pcb_cpu_area_size(const struct pcb_design *d, const struct pcb_variant *v,
			 struct pcb_stock_place place)
{
	return pcb_area_layout(d, v, place).size;
}

struct pcb_cpu *pcb_cpu_area_init(void *area, const struct pcb_design *d,
				  const struct pcb_variant *v, struct pcb_stock_place place,
				  unsigned int os, int node, bool isolated)
{
	const struct pcb_area_layout l = pcb_area_layout(d, v, place);
	struct pcb_cpu *cpu = area;

	memset(area, 0, l.size);
	pcb_cpu_init(cpu);
	cpu->cpu = os;
	cpu->node = node;
	cpu->isolated = isolated;
	cpu->stock = (char *)area + l.stock;
	cpu->stock_next = (char *)area + l.next;
	v->stock_init(cpu, cpu->stock);
	if (l.spare) {
		cpu->stock_spare = (char *)area + l.spare;
		v->stock_init(cpu, cpu->stock_spare);
	}
	return cpu;
}

/* where virtual CPUs' caches live during a run: their helpers' CPUs, or -1 */
static _Atomic int virtual_home[PCB_MAX_HELPERS];
static atomic_int nr_homes;

void pcb_cpu_set_virtual_home(const int *home, int n)
{
	atomic_store(&nr_homes, 0);
	for (int i = 0; i < n && i < PCB_MAX_HELPERS; i++)
		atomic_store(&virtual_home[i], home[i]);
	atomic_store(&nr_homes, n < PCB_MAX_HELPERS ? n : PCB_MAX_HELPERS);
}

int pcb_ipi_cpu(unsigned int cpu)
{
	int n = atomic_load(&nr_homes), home;

	if (cpu < PCB_CPU_ID_VIRTUAL)
		return (int)cpu;
	if (n <= 0)
		return sched_getcpu();
	/* the coordinator's own area is no virtual CPU's: its first helper's, as before */
	home = atomic_load(&virtual_home[cpu < PCB_CPU_ID_COORDINATOR ?
					 (cpu - PCB_CPU_ID_VIRTUAL) % (unsigned int)n : 0]);
	return home >= 0 ? home : sched_getcpu();
}
