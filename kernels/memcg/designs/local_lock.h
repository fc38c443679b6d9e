/* SPDX-License-Identifier: MIT */
/*
 * local_lock: upstream before 2023 (v6.2). memcg_stock.stock_lock is a
 * local_lock_t taken with local_lock_irqsave(); drain_all_stock() schedules
 * drain_local_stock() on every CPU whose stock needs draining
 * (schedule_work_on()), guarded by FLUSHING_CACHED_CHARGE.
 */
#ifndef PCB_MEMCG_DESIGN_LOCAL_LOCK_H
#define PCB_MEMCG_DESIGN_LOCAL_LOCK_H

#include "../../locks/irq_off.h"

#define DESIGN_SUMMARY "local_lock_irqsave() on the owner; drains are work scheduled on each CPU"
#define DESIGN_FOLLOWS "mm/memcontrol.c v6.2, upstream before seed 000's series"
#define DESIGN_PROMISE "stocks empty once the queued work ran on each CPU " \
		       "(not when drain_all_stock() returns)"

#define MEMCG_STOCK_LAYOUT		MEMCG_STOCK_V6_2
#define MEMCG_STOCK_DRAIN_HEADER	"drain_work.h"

typedef local_lock_t memcg_stock_lock_t;

#define memcg_stock_lock_init(cpu, stock) do { (void)(cpu); (void)(stock); } while (0)
#define memcg_stock_lock(this, stock) ((void)(stock), local_lock_irqsave_model(this))
#define memcg_stock_unlock(this, stock, flags) \
	do { (void)(stock); local_unlock_irqrestore_model(this, flags); } while (0)

#endif
