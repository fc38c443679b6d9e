/* SPDX-License-Identifier: MIT */
/*
 * qsbr: the RCU-based remote drain (the RFC cited in seed 004, "RCU based
 * approach, complex, yet a bit less taxing performance wise"), with liburcu
 * QSBR. The owner reaches its stock through an RCU-protected per-CPU pointer
 * under preempt_disable() only; drain_all_stock() swaps each CPU's stock for
 * an empty one, waits for a grace period (every owner reports a quiescent
 * state between operations), then drains the old stock, now private, from
 * the calling CPU and keeps it as that CPU's next spare. In the kernel
 * backend the same drain runs over the kernel's own RCU
 * (kernels/drain/qsbr.h): QSBR names the userspace flavour, not a design
 * of its own.
 */
#ifndef PCB_MEMCG_DESIGN_QSBR_H
#define PCB_MEMCG_DESIGN_QSBR_H

#include "../../locks/irq_off.h"

#define DESIGN_SUMMARY "RCU-protected stock pointer: drains swap in an empty stock, " \
		       "wait a grace period"
#define DESIGN_FOLLOWS "seed 004: the RCU-based remote drain RFC (liburcu QSBR; the kernel's RCU in pcpbench.ko)"
#define DESIGN_PROMISE "every stock of the subtree empty when drain_all_stock() returns"

#define MEMCG_STOCK_LAYOUT		MEMCG_STOCK_REMOTE
#define MEMCG_STOCK_DRAIN_HEADER	"drain_qsbr.h"

typedef struct { } qsbr_stock_lock_t;
typedef qsbr_stock_lock_t memcg_stock_lock_t;

#define memcg_stock_lock_init(cpu, stock) do { (void)(cpu); (void)(stock); } while (0)
#define memcg_stock_lock(this, stock) ((void)(stock), local_lock_irqsave_model(this))
#define memcg_stock_unlock(this, stock, flags) \
	do { (void)(stock); local_unlock_irqrestore_model(this, flags); } while (0)

#endif
