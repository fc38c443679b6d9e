/* SPDX-License-Identifier: MIT */
/*
 * The modeled CPU's work queue (the model interface, base.h, cpu.h): the
 * calls a model makes into the harness while it runs. Each is declared
 * here and defined once by the harness, in run/work.c and run/cpu_area.c;
 * a kernel build defines them over the kernel's own (queue_work_on(),
 * flush_work(), preempt_schedule()).
 */
#ifndef PCB_SEAM_WORK_H
#define PCB_SEAM_WORK_H

#include "pcb/base.h"
#include "pcb/cpu.h"

/* bit 0 of work->data: WORK_STRUCT_PENDING (include/linux/workqueue.h) */
#define WORK_STRUCT_PENDING	1L

/*
 * __preempt_schedule(): what preempt_enable() calls when the count drops
 * to zero with a reschedule due: runs the work deferred to this CPU
 */
void pcb_preempt_schedule(struct pcb_cpu *this);

/* schedule_work_on(): deliver the stock's drain work to cpu */
bool pcb_schedule_work_on(struct pcb_cpu *cpu);
/* run the work queued to cpu if it is pending, in its owner's context */
void pcb_run_work(struct pcb_cpu *cpu);
/*
 * flush_work() on each of cpus[]: wait until the work queued there ran, or
 * until the run's end (an owner that stopped will not run it). An idle
 * virtual CPU's work runs on the helper watching it, in parallel with the
 * others', or, where none does, here first.
 */
void pcb_flush_work(struct pcb_cpu *const *cpus, int nr);
/*
 * The machine's CPU an IPI to a modeled CPU goes to: its own for a CPU of
 * the machine; for a virtual CPU the core its cache was last written on
 * (its helper's), else the caller's.
 */
int pcb_ipi_cpu(unsigned int cpu);

/* poll delivery: between two operations of the owner, whose harness part is h */
static inline void pcb_cpu_harness_poll(struct pcb_cpu *this, struct pcb_cpu_harness *h)
{
	atomic_long *data = h->poll;

	if (data && __builtin_expect(atomic_load_explicit(data, memory_order_relaxed) &
				     WORK_STRUCT_PENDING, 0))
		pcb_run_work(this);
}

static inline void pcb_work_poll(struct pcb_cpu *this)
{
	pcb_cpu_harness_poll(this, &this->h);
}

#endif
