/* SPDX-License-Identifier: MIT */
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "../machine/topo.h"
#include "cpu_area.h"
#include "pcb/preempt.h"

static size_t round_line(size_t n)
{
	return (n + PCB_CACHE_LINE - 1) & ~(size_t)(PCB_CACHE_LINE - 1);
}

void *pcb_cpu_area_alloc(size_t size, int node)
{
	void *p = pcb_alloc_on_node(size, node);

	if (p)
		memset(p, 0, size);
	return p;
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
