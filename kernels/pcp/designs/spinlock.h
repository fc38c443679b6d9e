/* SPDX-License-Identifier: MIT */
/*
 * spinlock: seed 004's series (Nicolas Saenz Julienne, "mm/page_alloc:
 * Remote per-cpu page list drain support" v2). spinlock_t lock in struct
 * per_cpu_pages, after the lists, taken with spin_lock_irqsave();
 * drain_all_pages() drains every CPU's lists from the calling CPU.
 */
#ifndef PCB_PCP_DESIGN_SPINLOCK_H
#define PCB_PCP_DESIGN_SPINLOCK_H

#include "../../locks/spinlock.h"

#define DESIGN_SUMMARY "spin_lock_irqsave(&pcp->lock); any CPU drains any CPU's lists"
#define DESIGN_FOLLOWS "seed 004: \"mm/page_alloc: Remote per-cpu page list drain support\" v2"
#define DESIGN_PROMISE "every CPU's lists empty when drain_all_pages() returns"

#define PCP_DRAIN_HEADER "drain_remote.h"

typedef spinlock_t pcp_lock_t;

#define pcp_lock_init(cpu, pcp) do { (void)(cpu); spin_lock_init(&(pcp)->lock); } while (0)
#define pcp_lock(this, pcp) spin_lock_irqsave(this, &(pcp)->lock, __func__)
#define pcp_unlock(this, pcp, flags) spin_unlock_irqrestore(this, &(pcp)->lock, flags)

#endif
