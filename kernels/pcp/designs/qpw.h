/* SPDX-License-Identifier: MIT */
/*
 * qpw: Queue PerCPU Work (Leonardo Bras and Marcelo Tosatti, "Introduce
 * QPW for per-cpu operations", 2026) applied to v5.16's per-CPU lists, a
 * design no seed measured: the series' qpw_lock is local_lock_irqsave()
 * where the lock stays local and the CPU's spinlock (here pcp->lock, where
 * seed 004 puts it) where other CPUs may take it; queue_percpu_work_on()
 * is queue_work_on() for the first kind and, for the second, runs
 * drain_local_pages() on the calling CPU under the target's lock
 * (drain_work.h, PCB_DRAIN_QPW). The series chooses with a boot parameter
 * (qpw=) and did not convert page_alloc.c, which took pcp->lock upstream
 * instead; here the choice is made once at start per CPU, the spinlock on
 * the CPUs named isolated, and kept in the lock (kernels/locks/qpw.h).
 */
#ifndef PCB_PCP_DESIGN_QPW_H
#define PCB_PCP_DESIGN_QPW_H

#include "../../locks/qpw.h"

#define DESIGN_SUMMARY "qpw_lock: local_lock on housekeeping CPUs, pcp->lock on isolated " \
		       "ones; isolated CPUs drained remotely, others by work"
#define DESIGN_FOLLOWS "QPW, \"Introduce QPW for per-cpu operations\" (Bras, Tosatti, 2026) " \
		       "on v5.16's per_cpu_pages"
#define DESIGN_PROMISE "every CPU's lists empty when drain_all_pages() returns (isolated " \
		       "ones drained in place, the others' work flushed)"

#define PCP_DRAIN_HEADER "drain_work.h"
#define PCB_DRAIN_QPW 1

typedef qpw_lock_t pcp_lock_t;

#define pcp_lock_init(cpu, pcp) qpw_lock_init(&(pcp)->lock, cpu)
/* counted under the kernel function the macro expands in (__func__) */
#define pcp_lock(this, pcp) qpw_lock_irqsave(this, &(pcp)->lock, __func__)
#define pcp_unlock(this, pcp, flags) qpw_unlock_irqrestore(this, &(pcp)->lock, flags)

#endif
