/* SPDX-License-Identifier: MIT */
/*
 * The modeled CPU: one of the four seam headers (cpu.h, hooks.h,
 * model.h, model_output.h), the only headers of the harness a model's folder includes.
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
 * This header gives both sides the CPU's state and the one implementation
 * of each instruction sequence on it:
 *
 *  - the preempt count with need-resched folded in, as x86 keeps it:
 *    preempt_disable(), preempt_enable() (whose zero test is where work
 *    deferred to the owner runs), need-resched set and cleared, and the
 *    kworker's entry to a CPU whose owner is outside a section,
 *  - a drain's window on a CPU, for the interruption classifier,
 *  - contended locks counted under the kernel function that took them,
 *  - the CPU's work queue: schedule_work_on(), flush_work(), poll delivery
 *    (run/work.c implements them).
 */
#ifndef PCB_CPU_H
#define PCB_CPU_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* per-CPU data starts on a cache line of its own (SMP_CACHE_BYTES) */
#define PCB_CACHE_LINE		64

/* event counters a model can keep per CPU */
#define PCB_MAX_EV		16
/* kernel functions whose lock contention one CPU tells apart */
#define PCB_MAX_CONTENDED_FNS	8

/* bit 0 of work->data: WORK_STRUCT_PENDING (include/linux/workqueue.h) */
#define WORK_STRUCT_PENDING	1L

/*
 * x86's __preempt_count keeps PREEMPT_NEED_RESCHED inverted in its top bit,
 * so that preempt_enable() tests "count reached 0 and a reschedule is due"
 * with one decrement (arch/x86/include/asm/preempt.h).
 */
#define PREEMPT_NEED_RESCHED	0x80000000u
#define PREEMPT_ENABLED		PREEMPT_NEED_RESCHED

/*
 * Orderings ThreadSanitizer cannot see (inline asm, a context switch on one
 * CPU), stated for its builds; nothing otherwise.
 */
#if defined(__SANITIZE_THREAD__)
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define pcb_tsan_acquire(addr) __tsan_acquire((void *)(addr))
#define pcb_tsan_release(addr) __tsan_release((void *)(addr))
#else
#define pcb_tsan_acquire(addr) do { (void)(addr); } while (0)
#define pcb_tsan_release(addr) do { (void)(addr); } while (0)
#endif

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
 * Contended locks taken on one CPU, as seed 000's spin_lock_irqsave_cc(),
 * and, where a model times it, how long the function held the lock
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
	/* odd while a drain works on this CPU's stock: the drain's window */
	atomic_uint drain_seq;
	struct pcb_contention cc[PCB_MAX_CONTENDED_FNS];
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
	/* the owner's */
	unsigned int preempt_count __attribute__((aligned(PCB_CACHE_LINE)));	/* __preempt_count */
	unsigned long ev[PCB_MAX_EV];	/* the model's vm_event-style counters */
	struct pcb_cpu_harness h;	/* the harness's: timing, contention, work */
} __attribute__((aligned(PCB_CACHE_LINE)));

static inline void pcb_cpu_init(struct pcb_cpu *cpu)
{
	cpu->preempt_count = PREEMPT_ENABLED;
}

/* ---- the preempt count: one instruction each, no atomics ---- */

/* __preempt_count_add(1): raw_cpu_add_4 */
static inline __attribute__((always_inline)) void __preempt_count_inc(struct pcb_cpu *cpu)
{
	__asm__ __volatile__("incl %0" : "+m"(cpu->preempt_count) :: "memory");
}

/* __preempt_count_dec_and_test(): decl, and its zero flag */
static inline __attribute__((always_inline)) bool __preempt_count_dec_and_test(struct pcb_cpu *cpu)
{
	bool zero;

	__asm__ __volatile__("decl %0" : "+m"(cpu->preempt_count), "=@ccz"(zero) :: "memory");
	return zero;
}

/* set_preempt_need_resched(): the inverted bit cleared (raw_cpu_and_4) */
static inline void set_preempt_need_resched(struct pcb_cpu *cpu)
{
	__asm__ __volatile__("andl %1, %0" : "+m"(cpu->preempt_count)
			     : "i"(~PREEMPT_NEED_RESCHED) : "memory");
}

/* clear_preempt_need_resched(): the inverted bit set (raw_cpu_or_4) */
static inline void clear_preempt_need_resched(struct pcb_cpu *cpu)
{
	__asm__ __volatile__("orl %1, %0" : "+m"(cpu->preempt_count)
			     : "i"(PREEMPT_NEED_RESCHED) : "memory");
}

/* __preempt_schedule(): runs work deferred to this CPU (run/work.c) */
void pcb_preempt_schedule(struct pcb_cpu *this);

/* preempt_disable() */
static inline void preempt_disable(struct pcb_cpu *this)
{
	__preempt_count_inc(this);
	/* whoever ran on this CPU before (a kworker, a signal) happened before */
	pcb_tsan_acquire(&this->preempt_count);
}

/* preempt_enable(): decl; je __preempt_schedule, as x86 does it */
static inline void preempt_enable(struct pcb_cpu *this)
{
	pcb_tsan_release(&this->preempt_count);
	if (__builtin_expect(__preempt_count_dec_and_test(this), 0))
		pcb_preempt_schedule(this);
}

static inline unsigned int preempt_nesting(const struct pcb_cpu *this)
{
	return __atomic_load_n(&this->preempt_count, __ATOMIC_RELAXED) & ~PREEMPT_NEED_RESCHED;
}

/*
 * A kworker takes the CPU only where its owner is outside every section:
 * the count from PREEMPT_ENABLED to one more, by a cmpxchg without lock,
 * atomic against the owner on the same CPU, which is all it races with.
 */
static inline bool pcb_cpu_enter(struct pcb_cpu *cpu)
{
	unsigned int old = PREEMPT_ENABLED;

	__asm__ __volatile__("cmpxchgl %2, %1" : "+a"(old), "+m"(cpu->preempt_count)
			     : "r"(PREEMPT_ENABLED + 1) : "memory", "cc");
	if (old == PREEMPT_ENABLED)
		pcb_tsan_acquire(&cpu->preempt_count);
	return old == PREEMPT_ENABLED;
}

/* and gives it back: a reschedule due is left to the owner's next preempt_enable() */
static inline void pcb_cpu_leave(struct pcb_cpu *cpu)
{
	pcb_tsan_release(&cpu->preempt_count);
	(void)__preempt_count_dec_and_test(cpu);
}

/* ---- drains and contention ---- */

/* a drain begins or ends on cpu's stock (any design, any drainer) */
static inline void pcb_drain_window(struct pcb_cpu *cpu)
{
	/* release: what the drain wrote is seen by whoever reads the window */
	atomic_fetch_add_explicit(&cpu->h.drain_seq, 1, memory_order_release);
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

/* ---- the CPU's work queue (run/work.c) ---- */

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
 * (its helper's), else the caller's (run/cpu_area.c).
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
