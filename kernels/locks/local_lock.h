/* SPDX-License-Identifier: MIT */
/*
 * local_lock: upstream before 2023 (v6.2). memcg_stock.stock_lock is a
 * local_lock_t taken with local_lock_irqsave(); drain_all_stock() schedules
 * drain_local_stock() on every CPU whose stock needs draining
 * (schedule_work_on()), guarded by FLUSHING_CACHED_CHARGE.
 *
 * On !PREEMPT_RT without lockdep, local_lock_t is an empty struct and
 * local_lock_irqsave() is local_irq_save(): nothing another CPU can take.
 * Modeled as the owner's preempt counter (and irq_model's flag save), no
 * atomics.
 */
#ifndef PCB_LOCKS_LOCAL_LOCK_H
#define PCB_LOCKS_LOCAL_LOCK_H

#include "irq_off.h"

#define MEMCG_STOCK_DESIGN	local_lock
#define MEMCG_STOCK_LAYOUT	MEMCG_STOCK_V6_2
#define MEMCG_STOCK_DRAIN	DRAIN_WORK

typedef struct { } local_lock_t;
typedef local_lock_t memcg_stock_lock_t;

#endif
