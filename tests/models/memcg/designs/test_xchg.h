/* SPDX-License-Identifier: MIT */
/*
 * test_xchg: a throwaway design of the memcg model for the torture test,
 * built the way a new design is: this header plus one line in designs.def
 * (tests/models/memcg/ here, kernels/memcg/ for a design of the model).
 * The stock lock is a test-and-set byte taken with xchg, and the stock is
 * drained remotely.
 */
#ifndef PCB_TEST_DESIGN_XCHG_H
#define PCB_TEST_DESIGN_XCHG_H

#include "percpu.h"

#define DESIGN_SUMMARY "tests: an xchg byte lock, drained remotely"
#define DESIGN_FOLLOWS "no kernel: docs/architecture.md's \"Adding a design\""
#define DESIGN_PROMISE "every stock of the subtree empty when drain_all_stock() returns"

#define MEMCG_STOCK_LAYOUT		MEMCG_STOCK_REMOTE
#define MEMCG_STOCK_DRAIN_HEADER	"drain_remote.h"

typedef struct {
	unsigned char locked;
} memcg_stock_lock_t;

/* a contended lock is counted under fn, the kernel function that took it */
static inline unsigned long test_xchg_lock(struct pcb_cpu *this, memcg_stock_lock_t *l,
					   const char *fn)
{
	uint64_t t0;

	preempt_disable(this);
	/* acquire: the stock's fields are read after the lock is ours */
	if (likely(!__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)))
		return 0;
	t0 = pcb_tsc_now();
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
	pcb_contended(this, fn, pcb_tsc_now() - t0);
	return 0;
}

static inline void test_xchg_unlock(struct pcb_cpu *this, memcg_stock_lock_t *l)
{
	/* release: what was written under the lock is seen by the next owner */
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
	preempt_enable(this);
}

#define memcg_stock_lock_init(cpu, stock) ((void)(cpu), (stock)->stock_lock.locked = 0)
/* counted under the kernel function the macro expands in (__func__) */
#define memcg_stock_lock(this, stock) test_xchg_lock(this, &(stock)->stock_lock, __func__)
#define memcg_stock_unlock(this, stock, flags) \
	do { (void)(flags); test_xchg_unlock(this, &(stock)->stock_lock); } while (0)

#endif
