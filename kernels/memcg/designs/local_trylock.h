/* SPDX-License-Identifier: MIT */
/*
 * local_trylock: the kernel seed 002 applies to, one memcg_stock_pcp for
 * pages and objects (later kernels split it in two and test
 * FLUSHING_CACHED_CHARGE before they set it). stock_lock is a local_trylock_t, a
 * one-byte owner flag on !PREEMPT_RT; consume_stock() and refill_stock() use
 * local_trylock_irqsave() and, when it fails (the CPU is already inside the
 * stock, e.g. from an interrupt), charge or uncharge the page_counter
 * directly. drain_all_stock() queues work on the owner but skips
 * cpu_is_isolated() CPUs. With slots > 1 this is seed 002's layout, where
 * the one-byte lock leaves the 7 nr_pages and 7 cached memcgs in one line.
 */
#ifndef PCB_MEMCG_DESIGN_LOCAL_TRYLOCK_H
#define PCB_MEMCG_DESIGN_LOCAL_TRYLOCK_H

#include "../../locks/local_trylock.h"

#define DESIGN_SUMMARY "local_trylock_t; a failed trylock uses the page_counter; " \
		       "drains skip isolated CPUs"
#define DESIGN_FOLLOWS "mm/memcontrol.c as seed 002 applies to it (local_trylock_t; its 7 " \
		       "slots with slots = 7)"
#define DESIGN_PROMISE "stocks empty once the queued work ran on each CPU (not when " \
		       "drain_all_stock() returns), except isolated CPUs', which keep their charges"

#define MEMCG_STOCK_LAYOUT		MEMCG_STOCK_V6_2
#define MEMCG_STOCK_DRAIN_HEADER	"drain_work.h"
/* seed 002: DEFINE_PER_CPU_ALIGNED(struct memcg_stock_pcp, memcg_stock) */
#define MEMCG_STOCK_ALIGNED		1
#define MEMCG_STOCK_SKIP_ISOLATED	1
#define MEMCG_STOCK_TRYLOCK		1

typedef local_trylock_t memcg_stock_lock_t;

#define memcg_stock_lock_init(cpu, stock) ((void)(cpu), local_trylock_init(&(stock)->stock_lock))
#define memcg_stock_lock(this, stock) local_trylock_lock_irqsave(this, &(stock)->stock_lock)
#define memcg_stock_trylock(this, stock, flagsp) \
	local_trylock_irqsave(this, &(stock)->stock_lock, flagsp)
#define memcg_stock_unlock(this, stock, flags) \
	local_trylock_unlock_irqrestore(this, &(stock)->stock_lock, flags)

#endif
