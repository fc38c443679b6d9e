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
#ifndef PCB_LOCKS_QSBR_H
#define PCB_LOCKS_QSBR_H

#include <urcu-qsbr.h>

#include "irq_off.h"

#define MEMCG_STOCK_DESIGN	qsbr
#define MEMCG_STOCK_LAYOUT	MEMCG_STOCK_REMOTE
#define MEMCG_STOCK_DRAIN	DRAIN_QSBR

typedef struct { } qsbr_stock_lock_t;
typedef qsbr_stock_lock_t memcg_stock_lock_t;

#endif
