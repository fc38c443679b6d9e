/* SPDX-License-Identifier: MIT */
/*
 * One modeled CPU: the per-CPU area a worker thread owns.
 *
 * The kernel reaches per-CPU data through this_cpu_ptr(); the model passes
 * the owning CPU's struct pcb_cpu explicitly. A model's own per-CPU data
 * (reference counts, statistics) follows it in a struct of the model's that
 * embeds it first, and the per-CPU cache (the stock) lives in its own cache
 * line(s) after that, as DEFINE_PER_CPU_SHARED_ALIGNED gives it in the
 * kernel. The area is allocated on the CPU's NUMA node and first touched by
 * the thread pinned to that CPU.
 */
#ifndef PCB_KERNELS_PERCPU_H
#define PCB_KERNELS_PERCPU_H

#include <stdbool.h>

#include "../harness/hooks.h"
#include "compiler.h"

/*
 * x86's __preempt_count keeps PREEMPT_NEED_RESCHED inverted in its top bit,
 * so that preempt_enable() tests "count reached 0 and a reschedule is due"
 * with one decrement (arch/x86/include/asm/preempt.h).
 */
#define PREEMPT_NEED_RESCHED	0x80000000u
#define PREEMPT_ENABLED		PREEMPT_NEED_RESCHED

struct pcb_cpu {
	/*
	 * What a drainer reads to reach this CPU, as the kernel reads
	 * __per_cpu_offset[] and the housekeeping cpumasks: never on the line
	 * the owner writes every operation.
	 */
	unsigned int cpu;		/* OS index, or a virtual index */
	int node;			/* NUMA node the area was placed on */
	bool isolated;			/* cpu_is_isolated() */
	void *stock;			/* the design's per-CPU cache (RCU-protected where swapped) */
	void *stock_spare;		/* swapped in by an RCU-style drain, else NULL */
	/* the owner's */
	unsigned int preempt_count ____cacheline_aligned;	/* __preempt_count, no atomics */
	unsigned long ev[PCB_MAX_EV];	/* the model's vm_event-style counters */
	struct pcb_cpu_harness h;	/* the harness's: timing, contention, work */
} ____cacheline_aligned;

/* a drain begins or ends on cpu's stock */
static inline void pcb_drain_window(struct pcb_cpu *cpu)
{
	pcb_hook_drain_window(&cpu->h);
}

/* a contended lock, counted under the kernel function that took it */
static inline void pcb_contended(struct pcb_cpu *this, const char *fn, unsigned long long wait)
{
	pcb_hook_contended(&this->h, fn, wait);
}

/* count_vm_event(): one increment instruction, safe against an interrupt */
static inline void pcb_count(struct pcb_cpu *this, int ev)
{
	__asm__ __volatile__("incq %0" : "+m"(this->ev[ev]));
}

/* preempt_disable(): one non-atomic increment (raw_cpu_add_4) */
static inline void preempt_disable(struct pcb_cpu *this)
{
	__asm__ __volatile__("incl %0" : "+m"(this->preempt_count) :: "memory");
	/* whoever ran on this CPU before (a kworker, a signal) happened before */
	pcb_tsan_acquire(&this->preempt_count);
}

/* preempt_enable(): decl; je __preempt_schedule, as x86 does it */
static inline void preempt_enable(struct pcb_cpu *this)
{
	bool zero;

	pcb_tsan_release(&this->preempt_count);
	__asm__ __volatile__("decl %0" : "+m"(this->preempt_count), "=@ccz"(zero) :: "memory");
	if (unlikely(zero))
		pcb_preempt_schedule(this);
}

/*
 * this_cpu_ptr() of the CPU's cache. Where a drain swaps it for a spare
 * (drain_readers.h) it is rcu_dereference(), whose dependency ordering
 * ThreadSanitizer is told of.
 */
static inline void *pcb_cpu_cache(struct pcb_cpu *cpu)
{
	void *cache = READ_ONCE(cpu->stock);

	pcb_tsan_acquire(&cpu->stock);
	return cache;
}

static inline unsigned int preempt_nesting(const struct pcb_cpu *this)
{
	return READ_ONCE(this->preempt_count) & ~PREEMPT_NEED_RESCHED;
}

static inline void pcb_cpu_init(struct pcb_cpu *this)
{
	this->preempt_count = PREEMPT_ENABLED;
}

#endif
