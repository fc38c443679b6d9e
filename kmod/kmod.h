/* SPDX-License-Identifier: MIT */
/*
 * The kernel backend's module: one run of one design at a time, as the
 * harness's runner makes one (harness/run/runner.c), with the kernel's
 * own primitives: CPU areas from alloc_percpu(), workers and a
 * coordinator as kthreads bound to their CPUs, drain work on the kernel's
 * workqueue, real idle CPUs. The harness hands it a struct pcb_plan and
 * collects what it hands back (pcb/plan.h).
 *
 *   main.c	the device (/dev/pcpbench) and its one request
 *   plan.c	a plan checked before anything runs
 *   registry.c	the models and designs this module was built with
 *   run.c	a run: its CPUs' areas, its threads, its checks, its figures
 *   kthreads.c	the workers' and the coordinator's threads
 *   work.c	drain work on the kernel's workqueue, and where it ran
 *   counters.c	a thread's perf events over its timed part
 *   libc.c	the C library calls the models' set-up makes
 *   alloc.c	every allocation, counted; the tests' faults
 *
 * The kernel's headers come first in each file: the model interface's
 * kernel side (kmod/seam/pcb/base.h) defines C11's atomics under names
 * some of the kernel's functions also have.
 */
#ifndef PCB_KMOD_H
#define PCB_KMOD_H

#include <linux/atomic.h>
#include <linux/kthread.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "pcb/model.h"
#include "pcb/plan.h"
#include "pcb/preempt.h"
#include "pcb/sequence.h"
#include "pcb/worker.h"

/*
 * Allocations (alloc.c), each counted: GFP_KERNEL, zeroed but for
 * pcb_kvmalloc(); pcb_kvfree() gives back any of them but a CPU area
 */
void *pcb_kvzalloc(size_t size, int node);
void *pcb_kvcalloc(size_t n, size_t size);
void *pcb_kvmalloc(size_t size);
void *pcb_vzalloc(size_t size);
void *pcb_memdup_user(const void __user *src, size_t len);
void __percpu *pcb_alloc_percpu(size_t size, size_t align);
void pcb_kvfree(const void *p);
void pcb_free_percpu(void __percpu *p);
/* a perf event of task's, counted as an allocation: an ERR_PTR() if not created */
struct perf_event *pcb_perf_counter(struct perf_event_attr *attr, struct task_struct *task);
void pcb_perf_release(struct perf_event *ev);
/* what was handed out and given back since the module was loaded */
void pcb_kmod_allocs(long *made, long *freed);

/* the step a run fails at, for the tests (the parameter fail, taken once) */
enum pcb_kfault {
	PCB_KFAULT_NONE,
	PCB_KFAULT_AREAS,		/* the CPUs' areas: out of memory */
	PCB_KFAULT_THREADS,		/* the last worker's kthread not created */
	PCB_KFAULT_CHECK,		/* the invariant reported broken */
};
enum pcb_kfault pcb_kfault_take(void);

/* the models and designs this module has (registry.c) */
const struct pcb_model_run *pcb_kmod_model(const char *name);
const struct pcb_design *pcb_kmod_design(const char *model, const char *name);

/* the plan checked; 0, or -EINVAL with msg naming the field (plan.c) */
int pcb_kmod_plan_check(const struct pcb_plan *p, char *msg, size_t len);

/* a thread's perf events (counters.c): the plan's, each created or its -errno */
struct pcb_kctr {
	int n;
	struct perf_event *ev[PCB_PLAN_MAX_EVENTS];
	int status[PCB_PLAN_MAX_EVENTS];
};
/* created for the calling thread, disabled; never fails as a whole */
void pcb_kctr_open(struct pcb_kctr *c, const struct pcb_plan *p);
/* enabled / disabled and read: out[i] is the timed part's figure */
void pcb_kctr_start(struct pcb_kctr *c);
void pcb_kctr_stop(struct pcb_kctr *c, struct pcb_plan_counter *out);
void pcb_kctr_close(struct pcb_kctr *c);

/* one worker thread of a run */
struct pcb_krun;
struct pcb_kworker {
	struct pcb_krun *r;
	struct task_struct *task;
	unsigned int cpu;
	struct pcb_cpu *area;
	struct pcb_worker *w;
	size_t w_size;
	struct pcb_plan_worker *out;	/* its figures, in the result */
	struct pcb_kctr ctr;		/* its perf events */
};

/* the phases every thread of a run and the ioctl's task pass together */
enum pcb_kphase {
	PCB_KPHASE_SET_UP,		/* every thread set up */
	PCB_KPHASE_START,		/* warmed up: start together */
	PCB_KPHASE_OVER,		/* the run is over */
	PCB_KPHASE_NR,
};

/* one run, from its plan to its figures */
/*
 * Where a CPU's drain work ran, written by the work itself: a work item
 * never runs on two CPUs at once, and it runs on its own CPU, so the
 * counts are plain stores to memory of that CPU's, which no other CPU
 * writes. Every work queued has run once the run's work is flushed, so
 * the queued count is their sum: queueing counts nothing inside the drain.
 */
struct pcb_kwork_ran {
	unsigned long here, elsewhere;
	int elsewhere_cpu;		/* the last CPU not its own it ran on */
};

struct pcb_krun {
	const struct pcb_plan *plan;
	const struct pcb_model_run *m;
	struct pcb_model_ops ops;	/* the model's, each default filled in */
	const struct pcb_design *d;
	const struct pcb_variant *v;
	void *shared;			/* the model's setup() */
	void *target;			/* what its drain drains */

	/* the CPUs' areas: the workers' and the idle CPUs', the coordinator's apart */
	void __percpu *areas;
	void __percpu *coord_area;
	struct pcb_stock_place place;	/* where each CPU's stock sits */
	size_t area_size;
	long work_off;			/* work->data in a CPU's area, -1: no drain work */
	struct pcb_cpu **cpus;		/* the workers', then the idle CPUs' */
	int nr_cpus, nr_workers;
	struct pcb_kworker *kw;
	struct pcb_cpu *self;		/* the coordinator's */
	/* what a drain walks: cpus[] and self, in for_each_online_cpu() order (pcb_drain_walk()) */
	struct pcb_cpu **walk;
	int nr_online;
	struct task_struct *coord;
	struct pcb_kctr coord_ctr;	/* the coordinator's perf events */

	uint64_t tsc_khz;
	struct pcb_seq seq;		/* the workers' sequence (pcb/sequence.h) */

	/* the phases, and the end of the threads */
	wait_queue_head_t wq;
	atomic_t arrived[PCB_KPHASE_NR];
	int parties;
	int phase_done[PCB_KPHASE_NR];
	bool stop;			/* the threads give back what they hold and end */

	/* where each CPU's drain work ran, in that CPU's own per-CPU memory */
	struct pcb_kwork_ran __percpu *work_ran;
	uint64_t wake_ticks;		/* inside queue_work_on(), this drain */
	uint64_t nr_drains;		/* this run's drains */
	bool wake_timed;		/* this drain times them (pcb_wake_sampled()) */

	struct pcb_plan_result *res;
	struct pcb_plan_worker *wres;
	enum pcb_kfault fault;
};

/* a run of plan into res (the workers' figures after it); 0, or -errno with res->msg */
int pcb_kmod_run(const struct pcb_plan *plan, struct pcb_plan_result *res);

/* the threads (kthreads.c) */
void pcb_kphase(struct pcb_krun *r, enum pcb_kphase ph);
int pcb_kworker_fn(void *arg);
int pcb_kcoord_fn(void *arg);
void pcb_kmod_stop_now(void);

/* drain work (work.c): the run whose work runs, and its stocks' work items set up */
void pcb_kwork_begin(struct pcb_krun *r);
void pcb_kwork_init(struct pcb_krun *r, struct pcb_cpu *cpu);
/* every work item of the run's areas run (flushed) */
void pcb_kwork_flush_all(struct pcb_krun *r);
void pcb_kwork_end(struct pcb_krun *r);
struct work_struct *pcb_kwork_of(struct pcb_krun *r, struct pcb_cpu *cpu);

#endif
