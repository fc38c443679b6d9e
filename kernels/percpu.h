/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU accessors over the modeled CPU (the model interface's
 * pcb/cpu.h: struct pcb_cpu, its preempt count, drain windows and work
 * queue), under the kernel's names: this_cpu_ptr() of the CPU's cache and
 * count_vm_event(). A model's own per-CPU data embeds struct pcb_cpu
 * first. With them come the interface's other hot-path headers: the
 * clock, timed calls, the gap watch and the worker.
 */
#ifndef PCB_KERNELS_PERCPU_H
#define PCB_KERNELS_PERCPU_H

#include <stdbool.h>

#include "pcb/cpu.h"
#include "pcb/preempt.h"
#include "pcb/work.h"
#include "pcb/worker.h"
#include "compiler.h"

/* count_vm_event(): one increment instruction, safe against an interrupt */
static inline void pcb_count(struct pcb_cpu *this, int ev)
{
	__asm__ __volatile__("incq %0" : "+m"(this->ev[ev]));
}

/*
 * this_cpu_ptr() of the CPU's cache. Where a drain swaps it for a spare
 * (drain_qsbr.h) it is rcu_dereference(), whose dependency ordering
 * ThreadSanitizer is told of.
 */
static inline void *pcb_cpu_cache(struct pcb_cpu *cpu)
{
	void *cache = READ_ONCE(cpu->stock);

	pcb_tsan_acquire(&cpu->stock);
	return cache;
}

#endif
