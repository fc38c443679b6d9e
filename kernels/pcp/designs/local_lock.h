/* SPDX-License-Identifier: MIT */
/*
 * local_lock: mm/page_alloc.c before seed 004's series (v5.16).
 * local_lock_irqsave(&pagesets.lock) around the per-CPU lists, a per-CPU
 * local_lock_t outside struct per_cpu_pages; drain_all_pages() queues
 * drain_local_pages_wq() on every CPU with pages and flushes the work.
 */
#ifndef PCB_PCP_DESIGN_LOCAL_LOCK_H
#define PCB_PCP_DESIGN_LOCAL_LOCK_H

#include "../../locks/irq_off.h"

#define DESIGN_SUMMARY "local_lock_irqsave(&pagesets.lock); drains queue work on each CPU " \
		       "and flush it"
#define DESIGN_FOLLOWS "mm/page_alloc.c v5.16, before seed 004's series"
#define DESIGN_PROMISE "every CPU's lists empty when drain_all_pages() returns (it " \
		       "flushes the work it queued)"

#define PCP_DRAIN_HEADER "drain_work.h"

/* pagesets.lock lives outside struct per_cpu_pages: nothing in it */
typedef struct { } pcp_lock_t;

#define pcp_lock_init(cpu, pcp) do { (void)(cpu); (void)(pcp); } while (0)
#define pcp_lock(this, pcp) ((void)(pcp), local_lock_irqsave_model(this))
#define pcp_unlock(this, pcp, flags) \
	do { (void)(pcp); local_unlock_irqrestore_model(this, flags); } while (0)

#endif
