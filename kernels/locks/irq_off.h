/* SPDX-License-Identifier: MIT */
/*
 * The stock "lock" of designs whose owner only has to keep its own CPU:
 * local_irq_save() on !PREEMPT_RT, modeled as the preempt count (and
 * irq_model's flag save). An empty lock type: nothing another CPU can take.
 * Shared by local_lock (local_lock_irqsave()) and qsbr.
 */
#ifndef PCB_LOCKS_IRQ_OFF_H
#define PCB_LOCKS_IRQ_OFF_H

#include "../percpu.h"
#include "irq.h"

#define memcg_stock_lock_init(stock) do { (void)(stock); } while (0)

#define memcg_stock_lock(this, stock)					\
	({ unsigned long f_ = local_irq_save_model(); (void)(stock);	\
	   preempt_disable(this); f_; })

#define memcg_stock_unlock(this, stock, flags)				\
	do { (void)(stock); preempt_enable(this);			\
	     local_irq_restore_model(flags); } while (0)

#endif
