/* SPDX-License-Identifier: MIT */
/*
 * qsbr: the RCU-based remote drain (the RFC cited in seed 004, "RCU based
 * approach, complex, yet a bit less taxing performance wise"), with liburcu
 * QSBR. The owner reaches its stock through an RCU-protected per-CPU pointer
 * under preempt_disable() only; drain_all_stock() swaps each CPU's stock for
 * an empty one, waits for a grace period (every owner reports a quiescent
 * state between operations), then drains the old stock, now private, from
 * the calling CPU and keeps it as that CPU's next spare.
 */
#ifndef PCB_MEMCG_DESIGN_QSBR_H
#define PCB_MEMCG_DESIGN_QSBR_H

#include "../../locks/irq_off.h"

#define DESIGN_SUMMARY "RCU-protected stock pointer: drains swap in an empty stock, " \
		       "wait a grace period"
#define DESIGN_FOLLOWS "seed 004: the RCU-based remote drain RFC, with liburcu QSBR"
#define DESIGN_PROMISE "every stock of the subtree empty when drain_all_stock() returns"
#define DESIGN_KERNEL_REFUSED "liburcu QSBR is the userspace stand-in for RCU; the kernel " \
			      "backend does not build the drain over the kernel's RCU"

#define MEMCG_STOCK_LAYOUT		MEMCG_STOCK_REMOTE
#define MEMCG_STOCK_DRAIN_HEADER	"drain_qsbr.h"

typedef struct { } qsbr_stock_lock_t;
typedef qsbr_stock_lock_t memcg_stock_lock_t;

#define memcg_stock_lock_init(cpu, stock) do { (void)(cpu); (void)(stock); } while (0)
#define memcg_stock_lock(this, stock) ((void)(stock), local_lock_irqsave_model(this))
#define memcg_stock_unlock(this, stock, flags) \
	do { (void)(stock); local_unlock_irqrestore_model(this, flags); } while (0)

#endif
