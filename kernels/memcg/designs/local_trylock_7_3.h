/* SPDX-License-Identifier: MIT */
/*
 * local_trylock_7_3: the stocks of linux-source-7.3 (7.3.4), mm/memcontrol.c
 * (stock_7_3.h). memcg_stock and obj_stock are separate per-CPU variables,
 * each DEFINE_PER_CPU_ALIGNED with a local_trylock_t of its own, taken
 * with local_trylock() and local_lock(): the preempt count and the owner
 * flag, no interrupt masking ("memcg: no irq disable for memcg stock
 * lock", 6.16). A failed trylock charges or uncharges the shared counters.
 * Seven memcgs and five objcgs are cached, evicted round robin.
 * drain_all_stock() queues each stock's work on its CPU, skipping
 * cpu_is_isolated() CPUs.
 *
 * The slab hooks of 7.3 call the object stock under one lock hold, so the
 * table's rows are its pieces: consume_obj_stock is trylock_stock() and
 * __consume_obj_stock() (and unlock_stock() on a miss), refill_obj_stock
 * trylock_stock() and __refill_obj_stock(), mod_objcg_state
 * __account_obj_stock() and unlock_stock() (memcg_charge.h).
 */
#ifndef PCB_MEMCG_DESIGN_LOCAL_TRYLOCK_7_3_H
#define PCB_MEMCG_DESIGN_LOCAL_TRYLOCK_7_3_H

#include "../../locks/local_trylock.h"

#define DESIGN_SUMMARY "7.3: split charge and object stocks, each a local_trylock_t " \
		       "without irq masking; 7 and 5 slots; drains skip isolated CPUs"
#define DESIGN_FOLLOWS "mm/memcontrol.c of Linux 7.3 (Debian's 7.3.4)"
#define DESIGN_PROMISE "stocks empty once the queued work ran on each CPU (not when " \
		       "drain_all_stock() returns), except isolated CPUs', which keep their charges"

#define MEMCG_STOCK_LAYOUT		MEMCG_STOCK_V7_3
#define MEMCG_STOCK_DRAIN_HEADER	"drain_7_3.h"
/* DEFINE_PER_CPU_ALIGNED(struct memcg_stock_pcp, memcg_stock), and obj_stock */
#define MEMCG_STOCK_ALIGNED		1
#define MEMCG_STOCK_SKIP_ISOLATED	1
#define MEMCG_STOCK_TRYLOCK		1
/* NR_MEMCG_STOCK: what the variant is built for, whatever stock.slots says */
#define MEMCG_DESIGN_SLOTS		7

typedef local_trylock_t memcg_stock_lock_t;

#define memcg_stock_lock_init(cpu, stock) ((void)(cpu), local_trylock_init(&(stock)->lock))
/* local_trylock() on the hot paths, local_lock() in the work functions */
#define stock_trylock(this, lock)	local_trylock(this, lock)
#define stock_lock(this, lock)		local_lock(this, lock)
#define stock_unlock(this, lock)	local_unlock(this, lock)

#endif
