/* SPDX-License-Identifier: MIT */
/*
 * rseq: the stock as tcmalloc keeps its per-CPU caches, a design no seed
 * measured. consume_stock(), refill_stock() and the object stock's hits
 * are restartable sequences on the owner's CPU (kernels/locks/rseq.h): no
 * lock, no atomic, no preempt count; the kernel aborts a section the owner
 * is preempted, migrated or signalled in, and it restarts. The slow paths
 * (another memcg cached, a batch or a page to give back) and remote drains
 * take the stock's `stop` word; a drainer then fences the stock's CPU with
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU),
 * one IPI, and drains from its own CPU (drain_rseq.h). An owner that finds
 * its stock stopped does not wait: it charges the page_counter, as a failed
 * local_trylock does. One slot only: seed 002's slot search is no single
 * commit.
 */
#ifndef PCB_MEMCG_DESIGN_RSEQ_H
#define PCB_MEMCG_DESIGN_RSEQ_H

#include <stdio.h>

#include "../../locks/rseq.h"

#define DESIGN_SUMMARY "rseq sections on the owner, no lock; a drain stops the stock and " \
		       "fences its CPU (membarrier IPI)"
#define DESIGN_FOLLOWS "tcmalloc's per-CPU caches (rseq; StopCpu, FenceCpu) on v6.2's " \
		       "memcg_stock_pcp"
#define DESIGN_PROMISE "every stock of the subtree empty when drain_all_stock() returns"
#define DESIGN_KERNEL_REFUSED "restartable sequences are a userspace mechanism (the kernel aborts a " \
			      "thread's section): there is no rseq section in the kernel"

#define MEMCG_STOCK_LAYOUT		MEMCG_STOCK_REMOTE
#define MEMCG_STOCK_DRAIN_HEADER	"drain_rseq.h"
#define MEMCG_STOCK_TRYLOCK		1
#define MEMCG_STOCK_BYPASS_STOPPED	1
#define MEMCG_STOCK_FAST		1
#define MEMCG_STOCK_RSEQ		1
#define DESIGN_UNAVAILABLE		pcb_rseq_unavailable

typedef rseq_stock_lock_t memcg_stock_lock_t;

#define memcg_stock_lock_init(cpu, stock) rseq_stock_lock_init(&(stock)->stock_lock, (cpu)->cpu)
/* counted under the kernel function the macro expands in (__func__) */
#define memcg_stock_lock(this, stock) rseq_stock_stop(this, &(stock)->stock_lock, __func__)
#define memcg_stock_trylock(this, stock, flagsp) \
	rseq_stock_trystop(this, &(stock)->stock_lock, flagsp, __func__)
#define memcg_stock_unlock(this, stock, flags) \
	rseq_stock_start(this, &(stock)->stock_lock, flags)
#define memcg_stock_fast(this, stock, p1, v1, p2, v2, ctr, is_signed, delta, lo, hi)	\
	((enum memcg_fast)rseq_stock_add(&(stock)->stock_lock, p1, v1, p2, v2, ctr,	\
					 is_signed, delta, lo, hi,			\
					 &(this)->ev[MEMCG_EV_RSEQ_ABORT]))

#endif
