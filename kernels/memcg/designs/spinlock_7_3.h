/* SPDX-License-Identifier: MIT */
/*
 * spinlock_7_3: seed 000's idea carried to 7.3 (rig/series/spinlock-7.3,
 * patches 1-2, which the rig builds into the kernel as 7.3-um+spinlock).
 * 7.3's two stocks (stock_7_3.h), each with a spinlock_t in place of its
 * local_trylock_t: the hot paths spin_trylock() it (_raw_spin_trylock(),
 * out of line) and, where that fails, charge or uncharge the shared
 * counters as 7.3 does; no interrupt masking, as 7.3. drain_all_stock()
 * drains every stock that needs it from the calling CPU under the
 * stock's lock (drain_memcg_stock_from(), drain_obj_stock_from()),
 * isolated CPUs' too, with no work (drain_7_3.h). A failed trylock
 * is counted under the function that tried, as a contention that waited
 * for nothing.
 */
#ifndef PCB_MEMCG_DESIGN_SPINLOCK_7_3_H
#define PCB_MEMCG_DESIGN_SPINLOCK_7_3_H

#include "../../locks/spinlock.h"

#define DESIGN_SUMMARY "7.3's split stocks under a per-CPU spinlock_t, spin_trylock() " \
		       "without irq masking; any CPU drains any stock directly"
#define DESIGN_FOLLOWS "rig/series/spinlock-7.3 on mm/memcontrol.c of Linux 7.3 (seed 000's " \
		       "patches 2/5 and 4/5 carried to 7.3)"
#define DESIGN_PROMISE "every stock of the subtree empty when drain_all_stock() returns"

#define MEMCG_STOCK_LAYOUT		MEMCG_STOCK_V7_3
#define MEMCG_STOCK_DRAIN_HEADER	"drain_7_3.h"
/* no work member: drain_all_stock() drains from the calling CPU */
#define MEMCG_STOCK_REMOTE_DRAIN	1
/* DEFINE_PER_CPU_ALIGNED(struct memcg_stock_pcp, memcg_stock), and obj_stock */
#define MEMCG_STOCK_ALIGNED		1
#define MEMCG_STOCK_TRYLOCK		1
#define MEMCG_DESIGN_SLOTS		7

typedef spinlock_t memcg_stock_lock_t;

#define memcg_stock_lock_init(cpu, stock) \
	do { (void)(cpu); spin_lock_init(&(stock)->lock); } while (0)
/* spin_trylock() on the hot paths, spin_lock() in the drains; counted under __func__ */
#define stock_trylock(this, lock)	spin_trylock_cc(this, lock, __func__)
#define stock_lock(this, lock)		spin_lock(this, lock, __func__)
#define stock_unlock(this, lock)	spin_unlock(this, lock)

#endif
