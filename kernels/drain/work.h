/* SPDX-License-Identifier: MIT */
/*
 * The glue of a drain that queues work on each owner (schedule_work_on(),
 * queue_work_on()): the harness delivers the work and times its completion;
 * with poll delivery the owner looks for it between two operations. A
 * design that sets PCB_DRAIN_QPW drains isolated CPUs from the calling CPU
 * instead, under their lock, as queue_percpu_work_on() does with qpw=1 (the
 * QPW series, Bras and Tosatti). A model's drain_work.h includes this and
 * defines its drain; one that waits for its work (flush_work()) sets
 * PCB_DRAIN_FLUSHES first, so that idle CPUs' work runs in parallel on
 * helper threads inside the timed drain, as their kworkers would.
 */
#ifndef PCB_DRAIN_WORK_H
#define PCB_DRAIN_WORK_H

#include "../percpu.h"
#include "unregistered.h"

#ifndef PCB_DRAIN_QPW
#define PCB_DRAIN_QPW 0
#endif
/* the model's drain waits for the work it queued (flush_work()) before it returns */
#ifndef PCB_DRAIN_FLUSHES
#define PCB_DRAIN_FLUSHES 0
#endif

#if PCB_DRAIN_QPW
#define PCB_DRAIN_FLAVOUR { .name = "work+qpw", .queues_work = true, .flushes = PCB_DRAIN_FLUSHES }
#else
#define PCB_DRAIN_FLAVOUR { .name = "work", .queues_work = true, .flushes = PCB_DRAIN_FLUSHES }
#endif

/* between two operations: a polled work item (poll delivery) */
static inline void pcb_drain_between_ops(struct pcb_cpu *this)
{
	pcb_work_poll(this);
}

#endif
