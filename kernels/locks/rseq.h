/* SPDX-License-Identifier: MIT */
/*
 * A per-CPU cache without a lock on its hit path, as tcmalloc's per-CPU
 * caches work (tcmalloc/internal/percpu_tcmalloc.h): the owner updates its
 * CPU's cache inside a restartable sequence (rseq(2)), which the kernel
 * aborts when the thread is preempted, migrated or signalled inside it, so
 * the one store that commits the update is atomic with respect to anything
 * else on that CPU, with no atomic instruction and no preempt count.
 *
 * Another CPU stops a cache before it touches it, as tcmalloc's StopCpu()
 * and FenceCpu() do: it takes the cache's `stop` word (a qspinlock,
 * kernels/locks/spinlock.h), then membarrier(MEMBARRIER_CMD_PRIVATE_
 * EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU, cpu) sends one IPI to the
 * cache's CPU, on whose return any section in flight there is aborted; a
 * section that starts later reads `stop` set and declines. The owner's own
 * slow paths (a different memcg cached, a batch to give back) take `stop`
 * with a trylock and need no IPI on their own CPU; when it is taken they do
 * not wait but bypass the cache, as a failed local_trylock does.
 *
 * The ABI is used directly: glibc (2.35 and later) registers an rseq area
 * for every thread and exports where it is (__rseq_offset, __rseq_size,
 * <sys/rseq.h>); no rseq library is packaged for Debian 12 (librseq is
 * not), so the critical section and its abort handler are written below in
 * x86-64 assembly, as the kernel's selftests and tcmalloc write theirs.
 */
#ifndef PCB_LOCKS_RSEQ_H
#define PCB_LOCKS_RSEQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/rseq.h>

#include "spinlock.h"

/* rseq(2)'s struct rseq: what a section reads and writes of it */
#define PCB_RSEQ_CPU_ID		4	/* offsetof(struct rseq, cpu_id) */
#define PCB_RSEQ_CS		8	/* offsetof(struct rseq, rseq_cs) */
/* the x86 signature glibc registers (RSEQ_SIG), the 4 bytes before an abort handler */
#define PCB_RSEQ_SIG		0x53053053

typedef struct {
	spinlock_t stop;		/* held by whoever works on the cache off its hit path */
	unsigned int cpu;		/* the cache's CPU: a section commits only there */
} rseq_stock_lock_t;

/* what the hit path of an operation decided */
enum rseq_fast {
	RSEQ_FAST_DONE,			/* committed on the owner's CPU */
	RSEQ_FAST_MISS,			/* the cache cannot serve it: a miss, decided */
	RSEQ_FAST_SLOW,			/* stopped, or not on the cache's CPU: the slow path */
};

/*
 * The calling thread's struct rseq, glibc's registration: the thread
 * pointer plus __rseq_offset, inlined as tcmalloc reaches its own (an
 * out-of-line call here cost the hit path a cycle of its own)
 */
static inline void *pcb_rseq_area(void)
{
	return (char *)__builtin_thread_pointer() + __rseq_offset;
}
/* why rseq cannot be used here, or NULL: checked once, before a run */
const char *pcb_rseq_unavailable(void);
/* MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, once per process; 0 or -errno */
int pcb_rseq_register_fence(void);
/* membarrier(..._EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU, os_cpu): one IPI */
void pcb_rseq_fence_cpu(int os_cpu);

static inline void rseq_stock_lock_init(rseq_stock_lock_t *l, unsigned int cpu)
{
	spin_lock_init(&l->stop);
	l->cpu = cpu;
}

/* the CPU the calling thread runs on, as the kernel last wrote it */
static inline unsigned int rseq_cpu_id(void)
{
	return __atomic_load_n((const uint32_t *)((char *)pcb_rseq_area() + PCB_RSEQ_CPU_ID),
			       __ATOMIC_RELAXED);
}

/*
 * After taking `stop`: unless the caller runs on the cache's CPU, abort
 * any section in flight there (FenceCpu()). A modeled CPU beyond the
 * machine's is fenced where its cache lives (pcb_ipi_cpu()).
 */
static inline void rseq_stock_fence(const rseq_stock_lock_t *l)
{
	if (rseq_cpu_id() != l->cpu)
		pcb_rseq_fence_cpu(pcb_ipi_cpu(l->cpu));
}

/* a remote drain, or a slow path that must have the cache: waits for `stop` */
static __attribute__((__noinline__, unused)) unsigned long
rseq_stock_stop(struct pcb_cpu *this, rseq_stock_lock_t *l, const char *fn)
{
	unsigned long flags = spin_lock_irqsave(this, &l->stop, fn);

	rseq_stock_fence(l);
	return flags;
}

/* the owner's slow path: `stop` taken by a drainer means bypass the cache */
static __attribute__((__noinline__, unused)) bool
rseq_stock_trystop(struct pcb_cpu *this, rseq_stock_lock_t *l, unsigned long *flags,
		   const char *fn)
{
	*flags = local_irq_save_model(this);
	preempt_disable(this);
	if (unlikely(!arch_spin_trylock(&l->stop))) {
		/* a collision the owner does not wait for: counted, no cycles */
		pcb_contended(this, fn, 0);
		local_irq_restore_model(this, *flags);
		preempt_enable(this);
		return false;
	}
	pcb_tsan_acquire(&l->stop);
	rseq_stock_fence(l);
	return true;
}

static inline void rseq_stock_start(struct pcb_cpu *this, rseq_stock_lock_t *l,
				    unsigned long flags)
{
	spin_unlock_irqrestore(this, &l->stop, flags);
}

/*
 * The critical section: on the cache's CPU, not stopped, *p1 == v1 (and
 * *p2 == v2 where given), a 32-bit counter plus delta within [lo, hi]: then
 * one store commits the counter. A preemption, migration, signal or fence
 * inside it aborts it to the handler after the signature, which restarts
 * it (counted in *aborts). __rseq_cs holds the descriptor the kernel reads
 * (struct rseq_cs: version, flags, start_ip, post_commit_offset, abort_ip).
 */
#define RSEQ_CS_BEGIN							\
	".pushsection __rseq_cs, \"aw\"\n\t"				\
	".balign 32\n"							\
	"9:\t.long 0x0, 0x0\n\t"					\
	".quad 1f, (2f - 1f), 4f\n\t"					\
	".popsection\n\t"						\
	"leaq 9b(%%rip), %%rax\n\t"					\
	"movq %%rax, %c[cs](%[rs])\n"					\
	"1:\n\t"							\
	"movl %c[cpuid](%[rs]), %%eax\n\t"				\
	"cmpl %c[lcpu](%[stop]), %%eax\n\t"				\
	"jne %l[slow]\n\t"						\
	"cmpl $0, (%[stop])\n\t"					\
	"jne %l[slow]\n\t"						\
	"cmpq %[v1], (%[p1])\n\t"					\
	"jne %l[miss]\n\t"

#define RSEQ_CS_COMMIT(load)						\
	load "\n\t"							\
	"addq %[delta], %%rax\n\t"					\
	"cmpq %[lo], %%rax\n\t"						\
	"jl %l[miss]\n\t"						\
	"cmpq %[hi], %%rax\n\t"						\
	"jg %l[miss]\n\t"						\
	"movl %%eax, (%[ctr])\n"					\
	"2:\n\t"							\
	".pushsection __rseq_failure, \"ax\"\n\t"			\
	/* ud1 with the signature as its displacement, as the selftests do */ \
	".byte 0x0f, 0xb9, 0x3d\n\t"					\
	".long %c[sig]\n"						\
	"4:\n\t"							\
	"jmp %l[abort]\n\t"						\
	".popsection\n\t"

/* the counter, widened: sign- or zero-extended into %rax */
#define RSEQ_LOAD_S32	"movslq (%[ctr]), %%rax"
#define RSEQ_LOAD_U32	"movl (%[ctr]), %%eax"

#define RSEQ_CS_IN							\
	[rs] "r"(rs), [stop] "r"(&l->stop), [p1] "r"(p1), [v1] "re"(v1),	\
	[ctr] "r"(ctr), [delta] "rme"(delta), [lo] "rme"(lo), [hi] "rme"(hi), \
	[cs] "i"(PCB_RSEQ_CS), [cpuid] "i"(PCB_RSEQ_CPU_ID),		\
	[lcpu] "i"(offsetof(rseq_stock_lock_t, cpu) - offsetof(rseq_stock_lock_t, stop)), \
	[sig] "i"(PCB_RSEQ_SIG)

/* the second compare, where the hit needs two (mod_objcg_state()) */
#define RSEQ_CS_CMP2	"cmpq %[v2], (%[p2])\n\t" "jne %l[miss]\n\t"
#define RSEQ_CS_IN2	, [p2] "r"(p2), [v2] "r"(v2)

#define RSEQ_CS_ASM(load, cmp2, in2)					\
	__asm__ goto(RSEQ_CS_BEGIN cmp2 RSEQ_CS_COMMIT(load)		\
		     : : RSEQ_CS_IN in2 : "rax", "cc", "memory" : slow, miss, abort)

static __always_inline enum rseq_fast
rseq_stock_add(rseq_stock_lock_t *l, const void *p1, const void *v1, const void *p2,
	       const void *v2, void *ctr, bool is_signed, int64_t delta, int64_t lo,
	       int64_t hi, unsigned long *aborts)
{
	void *rs = pcb_rseq_area();

restart:
	/* the variant the call needs: compile-time constants once inlined */
	if (p2 && is_signed)
		RSEQ_CS_ASM(RSEQ_LOAD_S32, RSEQ_CS_CMP2, RSEQ_CS_IN2);
	else if (p2)
		RSEQ_CS_ASM(RSEQ_LOAD_U32, RSEQ_CS_CMP2, RSEQ_CS_IN2);
	else if (is_signed)
		RSEQ_CS_ASM(RSEQ_LOAD_S32, "", );
	else
		RSEQ_CS_ASM(RSEQ_LOAD_U32, "", );
	return RSEQ_FAST_DONE;
miss:
	return RSEQ_FAST_MISS;
slow:
	return RSEQ_FAST_SLOW;
abort:
	(*aborts)++;
	goto restart;
}

#endif
