/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "memcg_model.h"

/*
 * Written out by hand rather than from kernels/: the same fields at the same
 * offsets as the v6.2 stock, the same preempt count instructions (incl, and
 * decl with its resched test), the same compare and subtract as
 * consume_stock(). Nothing else. The resched test is decl and a branch, as
 * the kernel's asm goto emits it, not a count the compiler may make
 * branch-free (sete, cmp, sbb): that is not consume_stock()'s code, and it
 * read a third slower.
 *
 * The stock and the counter are reached through pointers, as this_cpu_ptr()
 * reaches them in the kernel: with RIP-relative addresses of static
 * variables, the store-to-load chain on nr_pages costs about 5 cycles a call
 * on Ice Lake and later instead of 2, which would measure the addressing
 * mode rather than the lock.
 */
struct bare_stock {
	void *cached;
	unsigned int nr_pages;
} __attribute__((aligned(64)));

struct bare_cpu {
	unsigned int preempt_count;
	struct bare_stock *stock;	/* this_cpu_ptr(&memcg_stock), read every call */
} __attribute__((aligned(64)));

struct bare_area {
	struct bare_cpu cpu;
	struct bare_stock stock;
};

static char memcg;

/*
 * preempt: with the pair of preempt count instructions, as local_lock's
 * path has them; without, its work alone, so that the difference is what
 * the pair costs here (the stand-in for cli and sti of run.irq_model =
 * kernel). A constant once inlined: neither loop tests it.
 */
static inline __attribute__((always_inline)) double
bare_consume(uint64_t rounds, double overhead, const bool preempt)
{
	struct bare_area *area = aligned_alloc(64, sizeof(*area));
	struct bare_stock *stock;
	struct bare_cpu *cpu;
	void *const want = &memcg;
	uint64_t t0, t1, hits = 0, resched = 0;

	if (!area)
		return -1;
	memset(area, 0, sizeof(*area));
	area->cpu.preempt_count = 0x80000000u;	/* PREEMPT_ENABLED: no resched pending */
	cpu = &area->cpu;
	cpu->stock = &area->stock;
	stock = cpu->stock;
	stock->cached = want;
	t0 = pcb_tsc_start();
	for (uint64_t r = 0; r < rounds; r++) {
		stock->nr_pages = 64;			/* the refill: one store */
		for (int i = 0; i < 64; i++) {
			/* preempt_disable()/preempt_enable() as x86 emits them */
			stock = __atomic_load_n(&cpu->stock, __ATOMIC_RELAXED);
			if (preempt)
				__asm__ __volatile__("incl %0" : "+m"(cpu->preempt_count) :: "memory");
			else
				__asm__ __volatile__("" ::: "memory");
			if (stock->cached == want && stock->nr_pages >= 1) {
				stock->nr_pages -= 1;
				hits++;
			}
			if (!preempt) {
				__asm__ __volatile__("" ::: "memory");
				continue;
			}
			/* __preempt_count_dec_and_test(): decl and a branch (GEN_UNARY_RMWcc) */
			__asm__ goto("decl %0\n\tje %l[resched_]" : "+m"(cpu->preempt_count) :: "memory"
				     : resched_);
			continue;
resched_:
			resched++;
		}
	}
	t1 = pcb_tsc_end();
	free(area);
	if (hits != rounds * 64 || resched)
		return -1;
	return ((double)(t1 - t0) - overhead) / (double)hits;
}

double memcg_bare_consume_loop(uint64_t rounds, double overhead, bool preempt)
{
	return preempt ? bare_consume(rounds, overhead, true) : bare_consume(rounds, overhead, false);
}
