/* SPDX-License-Identifier: MIT */
/*
 * local_trylock: today's upstream. stock_lock is a local_trylock_t, a
 * one-byte owner flag on !PREEMPT_RT; consume_stock() and refill_stock() use
 * local_trylock_irqsave() and, when it fails (the CPU is already inside the
 * stock, e.g. from an interrupt), charge or uncharge the page_counter
 * directly. drain_all_stock() queues work on the owner but skips
 * cpu_is_isolated() CPUs. With slots > 1 this is seed 002's layout, where
 * the one-byte lock leaves the 7 nr_pages and 7 cached memcgs in one line.
 */
#ifndef PCB_LOCKS_LOCAL_TRYLOCK_H
#define PCB_LOCKS_LOCAL_TRYLOCK_H

#include "../percpu.h"
#include "irq.h"

#define MEMCG_STOCK_DESIGN	local_trylock
#define MEMCG_STOCK_LAYOUT	MEMCG_STOCK_V6_2
#define MEMCG_STOCK_DRAIN	DRAIN_WORK
#define MEMCG_STOCK_SKIP_ISOLATED 1
#define MEMCG_STOCK_TRYLOCK	1

typedef struct {
	unsigned char acquired;
} local_trylock_t;
typedef local_trylock_t memcg_stock_lock_t;

#define memcg_stock_lock_init(stock) ((stock)->stock_lock.acquired = 0)

/* local_lock_irqsave() on a local_trylock_t: the flag is set, never tested */
#define memcg_stock_lock(this, stock)					\
	({ unsigned long f_ = local_irq_save_model();			\
	   preempt_disable(this);					\
	   WRITE_ONCE((stock)->stock_lock.acquired, 1); f_; })

/* local_trylock_irqsave(): fails if this CPU already holds it */
#define memcg_stock_trylock(this, stock, flagsp)			\
	({ bool ok_;							\
	   *(flagsp) = local_irq_save_model();				\
	   preempt_disable(this);					\
	   if (unlikely(READ_ONCE((stock)->stock_lock.acquired))) {	\
		preempt_enable(this);					\
		local_irq_restore_model(*(flagsp));			\
		ok_ = false;						\
	   } else {							\
		WRITE_ONCE((stock)->stock_lock.acquired, 1);		\
		ok_ = true;						\
	   }								\
	   ok_; })

#define memcg_stock_unlock(this, stock, flags)				\
	do { WRITE_ONCE((stock)->stock_lock.acquired, 0);		\
	     preempt_enable(this); local_irq_restore_model(flags); } while (0)

#endif
