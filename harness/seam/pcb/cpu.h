/* SPDX-License-Identifier: MIT */
/*
 * The modeled CPU (the model interface, base.h), both sides' view of it.
 *
 * A modeled CPU is the per-CPU area one worker thread owns. The kernel
 * reaches per-CPU data through this_cpu_ptr(); a model passes the owning
 * CPU's struct pcb_cpu explicitly. Its own per-CPU data follows in a struct
 * of the model's that embeds this one first; the per-CPU cache (the stock)
 * lives on its own cache line(s) after that, as
 * DEFINE_PER_CPU_SHARED_ALIGNED gives it in the kernel. The harness
 * allocates the area on the CPU's NUMA node and the thread pinned to that
 * CPU touches it first (run/cpu_area.c).
 *
 * This header gives the CPU's state, a drain's window on it for the
 * interruption classifier, and contended locks counted under the kernel
 * function that took them. Its preempt count is preempt.h's, its work
 * queue work.h's.
 */
#ifndef PCB_SEAM_CPU_H
#define PCB_SEAM_CPU_H

#include "pcb/base.h"
#include "pcb/clock.h"

/* event counters a model can keep per CPU */
#define PCB_MAX_EV		16
/* kernel functions whose lock contention one CPU tells apart */
#define PCB_MAX_CONTENDED_FNS	8

struct pcb_dbg;
struct pcb_workq;

/* events counted, their ticks summed, and the longest */
struct pcb_tally {
	unsigned long long n, sum, max;
};

static inline void pcb_tally_add(struct pcb_tally *t, unsigned long long ticks)
{
	t->n++;
	t->sum += ticks;
	if (ticks > t->max)
		t->max = ticks;
}

static inline void pcb_tally_merge(struct pcb_tally *t, const struct pcb_tally *u)
{
	t->n += u->n;
	t->sum += u->sum;
	if (u->max > t->max)
		t->max = u->max;
}

/*
 * Contended locks taken on one CPU, counted as seed 000's
 * spin_lock_irqsave_cc() did, and, where a model times it, how long the
 * function held the lock
 */
struct pcb_contention {
	const char *fn;			/* the kernel function that took the lock */
	struct pcb_tally wait;		/* contended acquisitions, ticks spinning */
	struct pcb_tally held;		/* acquisitions whose hold was timed, ticks held */
};

/* what the harness keeps for each modeled CPU */
struct pcb_cpu_harness {
	struct pcb_dbg *dbg;		/* where this CPU's timed calls are summed */
	struct pcb_workq *wq;		/* schedule_work_on() to this CPU, NULL without */
	atomic_long *poll;		/* poll delivery: the work->data to look at */
	unsigned long remote_drains;	/* stocks this CPU drained for others */
	struct pcb_contention cc[PCB_MAX_CONTENDED_FNS];
};

/*
 * A drain's window on a CPU's caches, as TSC stamps: written by whoever
 * drains them (its kworker, the drainer, the coordinator around a remote
 * drain), read by the owner only when it has seen a gap. The owner's
 * operations read nothing a drain writes, so the window costs them no
 * coherence miss the kernel would not have. The stamps of another CPU's
 * TSC are compared with the owner's: the TSCs are taken to be in sync, as
 * the kernel's TSC clocksource takes them.
 */
struct pcb_drain_window {
	_Atomic uint64_t open;		/* where the last drain began */
	_Atomic uint64_t close;		/* where the last one ended: below open while one runs */
};

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
	void *stock_next;		/* the model's per-CPU variables after the stock */
	/* the owner's */
	unsigned int preempt_count __attribute__((aligned(PCB_CACHE_LINE)));	/* __preempt_count */
	unsigned long ev[PCB_MAX_EV];	/* the model's vm_event-style counters */
	struct pcb_cpu_harness h;	/* the harness's: timing, contention, work */
	/* the drainers': on a line of its own */
	struct pcb_drain_window win __attribute__((aligned(PCB_CACHE_LINE)));
} __attribute__((aligned(PCB_CACHE_LINE)));

/* ---- drains and contention ---- */

/* a drain begins on cpu's caches (any design, any drainer): plain stores, no atomic */
static inline void pcb_drain_window_open(struct pcb_cpu *cpu)
{
	atomic_store_explicit(&cpu->win.open, pcb_tsc_now(), memory_order_relaxed);
}

/* ... and ends */
static inline void pcb_drain_window_close(struct pcb_cpu *cpu)
{
	atomic_store_explicit(&cpu->win.close, pcb_tsc_now(), memory_order_release);
}

/* fn's row of the CPU's contention counts, taken on first use; NULL when all are taken */
static inline struct pcb_contention *pcb_cpu_harness_cc(struct pcb_cpu_harness *h, const char *fn)
{
	for (int i = 0; i < PCB_MAX_CONTENDED_FNS; i++) {
		struct pcb_contention *c = &h->cc[i];

		if (c->fn && c->fn != fn)
			continue;
		c->fn = fn;
		return c;
	}
	return NULL;
}

/* the slow path of a contended lock: counted in the harness's part of the CPU */
static inline void pcb_cpu_harness_contended(struct pcb_cpu_harness *h, const char *fn,
					     unsigned long long wait)
{
	struct pcb_contention *c = pcb_cpu_harness_cc(h, fn);

	if (c)
		pcb_tally_add(&c->wait, wait);
}

/* a contended lock, counted under the kernel function that took it */
static inline void pcb_contended(struct pcb_cpu *this, const char *fn, unsigned long long wait)
{
	pcb_cpu_harness_contended(&this->h, fn, wait);
}

/*
 * A lock fn held for `ticks` (acquired to released, as the model timed
 * it), beside its contention: the contention table's hold column
 */
static inline void pcb_lock_held(struct pcb_cpu *this, const char *fn, unsigned long long ticks)
{
	struct pcb_contention *c = pcb_cpu_harness_cc(&this->h, fn);

	if (c)
		pcb_tally_add(&c->held, ticks);
}

/* ---- the drain's walk ---- */

/*
 * for_each_online_cpu() as a drain walks it, into walk[nr + 1]: the
 * drainer's own CPU among the workers' by its number, as the kernel's
 * walk meets curcpu, then the idle CPUs (cpus[nr_workers..nr - 1]),
 * after them whatever their numbers (the kernel backend's are real CPUs).
 * Returns the CPUs walked, nr + 1.
 */
static inline int pcb_drain_walk(struct pcb_cpu **walk, struct pcb_cpu *self,
				 struct pcb_cpu *const *cpus, int nr_workers, int nr)
{
	int k = 0, i = 0;

	for (; i < nr_workers && cpus[i]->cpu < self->cpu; i++)
		walk[k++] = cpus[i];
	walk[k++] = self;
	for (; i < nr; i++)
		walk[k++] = cpus[i];
	return k;
}

#endif
