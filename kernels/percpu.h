/* SPDX-License-Identifier: MIT */
/*
 * One modeled CPU: the per-CPU area a worker thread owns.
 *
 * The kernel reaches per-CPU data through this_cpu_ptr(); the model passes
 * the owning CPU's struct pcb_cpu explicitly. It is allocated on the CPU's
 * NUMA node and first touched by the thread pinned to that CPU. The stock
 * lives in its own cache line(s) after this struct, as DEFINE_PER_CPU_SHARED_ALIGNED
 * gives it in the kernel.
 */
#ifndef PCB_KERNELS_PERCPU_H
#define PCB_KERNELS_PERCPU_H

#include "compiler.h"

struct pcb_dbg;

/* css ids the per-CPU reference counts can hold (percpu_ref's per-CPU part) */
#define PCB_MAX_MEMCG 64

struct pcb_cpu {
	/* __preempt_count: a plain per-CPU counter, no atomics (!PREEMPT_RT) */
	unsigned int preempt_count;
	unsigned int cpu;		/* OS index, or a virtual index */
	int node;			/* NUMA node the area was placed on */
	unsigned int pad_;
	void *stock;			/* the design's struct memcg_stock_pcp */
	/* the cover letter's "percpu struct dbg": where timed calls are summed */
	struct pcb_dbg *dbg;
	/* per-CPU halves of each css percpu_ref (percpu_ref_get/put) */
	long css_ref[PCB_MAX_MEMCG];
} ____cacheline_aligned;

/* preempt_disable()/preempt_enable() on !PREEMPT_RT, no resched check */
static inline void preempt_disable(struct pcb_cpu *this)
{
	this->preempt_count++;
	barrier();
}

static inline void preempt_enable(struct pcb_cpu *this)
{
	barrier();
	this->preempt_count--;
}

#endif
