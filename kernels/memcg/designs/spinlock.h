/* SPDX-License-Identifier: MIT */
/*
 * spinlock: the 2023 series "Introduce memcg_stock_pcp remote draining"
 * (seed 000) as its cover letter measured it, patches 1-4 ("Performance
 * numbers below did not include patch 5/5", seed 000 line 8). stock_lock
 * becomes a spinlock_t (the qspinlock, kernels/locks/spinlock.h) taken
 * with spin_lock_irqsave(), an out-of-line call, as the seed's cycle
 * table (2.2) ran it; drain_all_stock() drains every CPU's stock from the
 * calling CPU (drain_stock_from()), with no work, each stock still
 * claimed with test_and_set_bit() on FLUSHING_CACHED_CHARGE and released
 * with clear_bit(). spinlock_p5.h is the series with patch 5,
 * spinlock_cc.h the build its contention count (2.3) came from.
 */
#ifndef PCB_MEMCG_DESIGN_SPINLOCK_H
#define PCB_MEMCG_DESIGN_SPINLOCK_H

#include "../../locks/spinlock.h"

#define DESIGN_SUMMARY "per-CPU spin_lock_irqsave(); any CPU drains any stock directly"
#define DESIGN_FOLLOWS "seed 000: \"Introduce memcg_stock_pcp remote draining\" v2, patches 1-4, " \
		       "as measured"
#define DESIGN_PROMISE "every stock of the subtree empty when drain_all_stock() returns"

#define MEMCG_STOCK_LAYOUT		MEMCG_STOCK_REMOTE_FLAGS
#define MEMCG_STOCK_DRAIN_HEADER	"drain_remote.h"
/* patch 1/5: DEFINE_PER_CPU_SHARED_ALIGNED(struct memcg_stock_pcp, memcg_stock) */
#define MEMCG_STOCK_ALIGNED		1

typedef spinlock_t memcg_stock_lock_t;

#define memcg_stock_lock_init(cpu, stock) \
	do { (void)(cpu); spin_lock_init(&(stock)->stock_lock); } while (0)
/* counted under the kernel function the macro expands in (__func__) */
#define memcg_stock_lock(this, stock) spin_lock_irqsave(this, &(stock)->stock_lock, __func__)
#define memcg_stock_unlock(this, stock, flags) \
	spin_unlock_irqrestore(this, &(stock)->stock_lock, flags)

#endif
