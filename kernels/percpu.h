/* SPDX-License-Identifier: MIT */
/*
 * One modeled CPU: the per-CPU area a worker thread owns.
 *
 * The kernel reaches per-CPU data through this_cpu_ptr(); the model passes
 * the owning CPU's struct pcb_cpu explicitly. It is allocated on the CPU's
 * NUMA node and first touched by the thread pinned to that CPU. The stock
 * lives in its own cache line(s) after this struct, as
 * DEFINE_PER_CPU_SHARED_ALIGNED gives it in the kernel.
 */
#ifndef PCB_KERNELS_PERCPU_H
#define PCB_KERNELS_PERCPU_H

#include <stdatomic.h>
#include <stdbool.h>

#include "compiler.h"

struct pcb_dbg;
struct work_struct;

/* css ids the per-CPU reference counts and statistics can hold */
#define PCB_MAX_MEMCG 128

/* memcg statistics the stock updates (memcg_stat_item / node_stat_item) */
enum pcb_stat_item {
	MEMCG_KMEM,
	NR_SLAB_RECLAIMABLE_B,
	NR_SLAB_UNRECLAIMABLE_B,
	PCB_NR_STAT,
};

/* what the workloads count, per CPU, as the kernel's vm_event counters */
enum pcb_event {
	PCB_EV_STOCK_HIT,		/* consume_stock() served the charge */
	PCB_EV_STOCK_MISS,		/* it did not: the page_counter is charged */
	PCB_EV_PC_CHARGE,		/* page_counter_try_charge() calls */
	PCB_EV_PC_UNCHARGE,		/* page_counter_uncharge() calls */
	PCB_EV_REMOTE_DRAIN,		/* stocks this CPU drained for others */
	PCB_NR_EV,
};

/*
 * x86's __preempt_count keeps PREEMPT_NEED_RESCHED inverted in its top bit,
 * so that preempt_enable() tests "count reached 0 and a reschedule is due"
 * with one decrement (arch/x86/include/asm/preempt.h).
 */
#define PREEMPT_NEED_RESCHED	0x80000000u
#define PREEMPT_ENABLED		PREEMPT_NEED_RESCHED

struct pcb_cpu {
	unsigned int preempt_count;	/* __preempt_count, no atomics */
	unsigned int cpu;		/* OS index, or a virtual index */
	int node;			/* NUMA node the area was placed on */
	bool isolated;			/* cpu_is_isolated() */
	bool nocache;			/* this CPU opted out of the charge stock */
	unsigned char nr_slots;		/* NR_MEMCG_STOCK in force (multi-slot layout) */
	bool evict_round_robin;		/* seed 002's victim: round robin, not random */
	unsigned int evict_state;	/* the victim chooser's state */
	void *stock;			/* the design's struct memcg_stock_pcp */
	void *stock_spare;		/* DRAIN_QSBR: the empty stock swapped in next */
	/* the cover letter's "percpu struct dbg": where timed calls are summed */
	struct pcb_dbg *dbg;
	/* the harness's work delivery for this CPU (schedule_work_on()) */
	struct pcb_workq *wq;
	/* per-CPU halves of each css percpu_ref (percpu_ref_get/put) */
	long css_ref[PCB_MAX_MEMCG];
	/* memcg->vmstats_percpu: this CPU's statistics deltas */
	long vmstat[PCB_MAX_MEMCG][PCB_NR_STAT];
	long stats_updates;		/* memcg_rstat_updated()'s per-CPU count */
	unsigned long ev[PCB_NR_EV];

	/* odd while a drain works on this CPU's stock: the drain's window */
	atomic_uint drain_seq;
	/* contended stock locks taken on this CPU, as spin_lock_irqsave_cc() */
	struct pcb_contention {
		const char *fn;		/* the kernel function that took the lock */
		unsigned long contended;
		unsigned long long wait_sum, wait_max;
	} cc[8];
} ____cacheline_aligned;

/* a drain begins or ends on cpu's stock (any design, any drainer) */
static inline void pcb_drain_window(struct pcb_cpu *cpu)
{
	atomic_fetch_add_explicit(&cpu->drain_seq, 1, memory_order_release);
}

/* the slow path of a contended lock: count it under the calling function */
static inline void pcb_contended(struct pcb_cpu *this, const char *fn, unsigned long long wait)
{
	for (int i = 0; i < 8; i++) {
		struct pcb_contention *c = &this->cc[i];

		if (c->fn && c->fn != fn)
			continue;
		c->fn = fn;
		c->contended++;
		c->wait_sum += wait;
		if (wait > c->wait_max)
			c->wait_max = wait;
		return;
	}
}

/* __preempt_schedule(): runs work deferred to this CPU (harness/work.c) */
void pcb_preempt_schedule(struct pcb_cpu *this);

/* count_vm_event(): one increment instruction, safe against an interrupt */
static inline void pcb_count(struct pcb_cpu *this, enum pcb_event ev)
{
	__asm__ __volatile__("incq %0" : "+m"(this->ev[ev]));
}
/* schedule_work_on(): deliver the stock's drain work to cpu (harness/work.c) */
bool pcb_schedule_work_on(struct pcb_cpu *cpu);

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

static inline unsigned int preempt_nesting(const struct pcb_cpu *this)
{
	return READ_ONCE(this->preempt_count) & ~PREEMPT_NEED_RESCHED;
}

static inline void pcb_cpu_init(struct pcb_cpu *this)
{
	this->preempt_count = PREEMPT_ENABLED;
	this->nr_slots = 1;
	this->evict_state = 2463534242u;
}

#endif
