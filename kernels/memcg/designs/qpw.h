/* SPDX-License-Identifier: MIT */
/*
 * qpw: Queue PerCPU Work (Leonardo Bras and Marcelo Tosatti, "Introduce
 * QPW for per-cpu operations", 2026), a design no seed measured. stock_lock
 * becomes a qpw_lock: local_lock_irqsave() where the lock stays local,
 * spin_lock_irqsave() on the CPU's spinlock where other CPUs may take it;
 * drain_all_stock()'s queue_percpu_work_on() is schedule_work_on() for the
 * first kind and, for the second, runs drain_local_stock() on the calling
 * CPU under the target's spinlock (drain_work.h, PCB_DRAIN_QPW). The
 * posted series chooses with a boot parameter (qpw=); here the choice is
 * made once at start per CPU, spinlock on the CPUs named isolated, and
 * kept in the lock (kernels/locks/qpw.h).
 */
#ifndef PCB_MEMCG_DESIGN_QPW_H
#define PCB_MEMCG_DESIGN_QPW_H

#include "../../locks/qpw.h"

#define DESIGN_SUMMARY "qpw_lock: local_lock on housekeeping CPUs, their spinlock on isolated " \
		       "ones; isolated CPUs drained remotely, others by work"
#define DESIGN_FOLLOWS "QPW, \"Introduce QPW for per-cpu operations\" (Bras, Tosatti, 2026) " \
		       "on v6.2's memcg_stock_pcp"
#define DESIGN_PROMISE "isolated CPUs' stocks empty when drain_all_stock() returns; the " \
		       "others' once the queued work ran on each CPU"

#define MEMCG_STOCK_LAYOUT		MEMCG_STOCK_V6_2
#define MEMCG_STOCK_DRAIN_HEADER	"drain_work.h"
#define PCB_DRAIN_QPW			1

typedef qpw_lock_t memcg_stock_lock_t;

#define memcg_stock_lock_init(cpu, stock) qpw_lock_init(&(stock)->stock_lock, cpu)
/* counted under the kernel function the macro expands in (__func__) */
#define memcg_stock_lock(this, stock) qpw_lock_irqsave(this, &(stock)->stock_lock, __func__)
#define memcg_stock_unlock(this, stock, flags) \
	qpw_unlock_irqrestore(this, &(stock)->stock_lock, flags)

#endif
