/* SPDX-License-Identifier: MIT */
/*
 * schedule_work_on() for the work-based designs: the stock's drain work
 * reaches its owning CPU in one of three ways (work_delivery).
 *
 *  poll     the owner checks for pending work between operations
 *  signal   pthread_kill(); the handler runs the work at once when the
 *           owner is outside a preempt-disabled section, else sets
 *           need-resched and the owner's preempt_enable() runs it
 *  kworker  a SCHED_FIFO helper pinned to the owner's CPU, woken by futex; it
 *           enters the CPU with a local cmpxchg on the owner's preempt count
 *           (atomic against a thread on the same CPU, as an interrupt would
 *           be), or sets need-resched and waits for the owner's
 *           preempt_enable() to yield to it: two context switches a drain.
 */
#ifndef PCB_WORK_H
#define PCB_WORK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pcb/model.h"
#include "pcb/preempt.h"
#include "pcb/work.h"

enum pcb_delivery {
	PCB_DELIVER_KWORKER,
	PCB_DELIVER_SIGNAL,
	PCB_DELIVER_POLL,
	PCB_DELIVER_IDLE,		/* a virtual CPU: a store to its idle task's flags */
	PCB_DELIVER_WORKQUEUE,		/* the kernel backend: the kernel's own workqueue */
};

extern const char *const pcb_delivery_name[5];

/* a list_head of include/linux/list.h, for the pool's worklist (work.c) */
struct pcb_list {
	struct pcb_list *next, *prev;
};

/*
 * The target CPU's worker pool as queue_work_on() touches it: the pool's
 * lock and its worklist, with the work's entry, on a line of their own.
 */
struct pcb_pool {
	atomic_int lock __attribute__((aligned(PCB_CACHE_LINE)));
	struct pcb_list worklist;
	struct pcb_list entry;		/* work->entry */
};

struct pcb_workq {
	struct pcb_pool pool;		/* first: on its own line */
	/* an idle CPU's task flags, which waking it sets (TIF_NEED_RESCHED): another line */
	atomic_uint wake __attribute__((aligned(PCB_CACHE_LINE)));
	enum pcb_delivery mode;
	/*
	 * The stock's own work->data: queue_work_on() sets WORK_STRUCT_PENDING
	 * there, in the owner's hot cache line, as the kernel does.
	 */
	atomic_long *data;
	atomic_int busy;		/* the work is running */
	void (*fn)(struct pcb_cpu *cpu);	/* work->func: the model's local drain */
	struct pcb_cpu *cpu;
	pthread_t owner;
	/* kworker */
	pthread_t helper;
	int helper_started;
	/*
	 * idle: a helper thread on another CPU watches the wake word and runs
	 * the work (pcb_virtual_run_woken()), so a flush waits for it, as
	 * flush_work() waits for the CPU's kworker, instead of running it
	 */
	atomic_int served;
	atomic_uint futex;		/* bumped to wake the helper */
	atomic_int stop;
	/* what happened */
	atomic_long ran, deferred;
	/*
	 * work queued, counted by the drainer alone (the coordinator's thread,
	 * the one caller of drain_all()) on a line of its own, with no lock:
	 * no bookkeeping of the harness's inside a timed drain takes a locked
	 * instruction or a line the target's owner writes
	 */
	atomic_long queued __attribute__((aligned(PCB_CACHE_LINE)));
};

/* the work item a queue delivers: to its CPU, work->func run on work->data */
struct pcb_work {
	struct pcb_cpu *cpu;
	void (*func)(struct pcb_cpu *cpu);	/* the model's local drain */
	atomic_long *data;		/* the stock's work->data */
};

/* the drain work of variant v's cache on cpu */
static inline struct pcb_work pcb_drain_work(const struct pcb_variant *v, struct pcb_cpu *cpu)
{
	return (struct pcb_work){ .cpu = cpu, .func = v->drain_local, .data = v->work_data(cpu) };
}

/*
 * Set up delivery of work to its CPU, whose owner is the calling thread
 * (pinned to os_cpu for kworker mode). 0, or -errno with a message.
 */
int pcb_workq_start(struct pcb_workq *wq, const struct pcb_work *work, enum pcb_delivery mode,
		    int os_cpu, char *err, size_t errlen);
/* may this process start SCHED_FIFO threads (kworker delivery)? */
int pcb_workq_fifo_permitted(void);
/*
 * A virtual CPU's delivery: no owner and no thread of its own; queueing
 * work wakes it with a store, and pcb_virtual_run() runs what it woke.
 */
void pcb_workq_start_virtual(struct pcb_workq *wq, const struct pcb_work *work);
/* the work of the woken idle virtual CPUs among cpus[], as their kworkers would run it */
void pcb_virtual_run(struct pcb_cpu *const *cpus, int nr);
/* an idle virtual CPU's kworker: its work run here if a queue_work_on() woke it; true if so */
bool pcb_virtual_run_woken(struct pcb_cpu *cpu);
/* whether cpu's work is run by a helper watching it (pcb_workq.served) */
static inline bool pcb_virtual_served(const struct pcb_cpu *cpu)
{
	const struct pcb_workq *wq = __atomic_load_n(&cpu->h.wq, __ATOMIC_ACQUIRE);

	return wq && atomic_load_explicit(&wq->served, memory_order_acquire);
}
/* ticks the drainer spent waking real CPUs' workers (futex, signal), since the last call */
uint64_t pcb_wake_ticks_take(void);
/* whether the calling drainer's next wakes are timed (pcb_wake_sampled()) */
void pcb_wake_time(bool on);
/* stop the helper; pending work is run by the caller (the owner) */
void pcb_workq_stop(struct pcb_workq *wq);
static inline int pcb_work_pending(const struct pcb_workq *wq)
{
	return atomic_load_explicit(wq->data, memory_order_relaxed) & WORK_STRUCT_PENDING;
}

/*
 * Wait until no CPU of cpus[] runs its work or has work queued; polled work
 * counts only with `polled` (it waits for its owner's next operation, so
 * only while owners run). 0, or -1 after timeout ticks.
 */
int pcb_work_wait_idle(struct pcb_cpu *const *cpus, int nr, uint64_t timeout, int polled);
/* the TSC at which a run ends: pcb_flush_work() waits no longer */
void pcb_work_set_deadline(uint64_t tsc);

#endif
