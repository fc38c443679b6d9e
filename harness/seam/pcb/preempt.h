/* SPDX-License-Identifier: MIT */
/*
 * The preempt count (the model interface, base.h, cpu.h, work.h), with
 * need-resched folded in as x86 keeps __preempt_count: preempt_disable(),
 * preempt_enable() (whose zero test is where work deferred to the owner
 * runs), need-resched set and cleared, and the kworker's entry to a CPU
 * whose owner is outside a section. One implementation of each
 * instruction sequence, for the model's locks and the harness's work
 * delivery alike.
 *
 * The userspace definition: a count in the CPU's struct pcb_cpu, one
 * instruction each, no atomics. A kernel build uses the kernel's own.
 */
#ifndef PCB_SEAM_PREEMPT_H
#define PCB_SEAM_PREEMPT_H

#include "pcb/base.h"
#include "pcb/cpu.h"
#include "pcb/work.h"

/*
 * x86's __preempt_count keeps PREEMPT_NEED_RESCHED inverted in its top bit,
 * so that preempt_enable() tests "count reached 0 and a reschedule is due"
 * with one decrement (arch/x86/include/asm/preempt.h).
 */
#define PREEMPT_NEED_RESCHED	0x80000000u
#define PREEMPT_ENABLED		PREEMPT_NEED_RESCHED

static inline void pcb_cpu_init(struct pcb_cpu *cpu)
{
	cpu->preempt_count = PREEMPT_ENABLED;
}

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

/*
 * cond_resched() between two chunks of a worker's loop: nothing for a
 * thread, which the scheduler preempts where it must
 */
static inline void pcb_cond_resched(void)
{
}

#endif
