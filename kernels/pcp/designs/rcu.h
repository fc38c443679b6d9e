/* SPDX-License-Identifier: MIT */
/*
 * rcu: the RFC seed 004 links ("RCU based approach, complex, yet a bit less
 * taxing performance wise", Nicolas Saenz Julienne, 2021-10). The owner
 * reaches its per_cpu_pages through an RCU-protected pointer with
 * interrupts off (the irq_model cost) and no lock; drain_all_pages() swaps
 * each CPU's lists for an empty set, waits for a grace period and gives the
 * old lists' pages to the zone from the calling CPU. liburcu QSBR in
 * userspace: owners report a quiescent state between operations; the
 * kernel's own RCU in the kernel backend (kernels/drain/qsbr.h).
 */
#ifndef PCB_PCP_DESIGN_RCU_H
#define PCB_PCP_DESIGN_RCU_H

#include "../../locks/irq_off.h"

#define DESIGN_SUMMARY "RCU-protected lists: drains swap in empty lists, wait a grace period"
#define DESIGN_FOLLOWS "seed 004: the RCU-based remote drain RFC (liburcu QSBR; the kernel's RCU in pcpbench.ko)"
#define DESIGN_PROMISE "every CPU's lists empty when drain_all_pages() returns"

#define PCP_DRAIN_HEADER "drain_qsbr.h"

typedef struct { } pcp_lock_t;

#define pcp_lock_init(cpu, pcp) do { (void)(cpu); (void)(pcp); } while (0)
#define pcp_lock(this, pcp) ((void)(pcp), local_lock_irqsave_model(this))
#define pcp_unlock(this, pcp, flags) \
	do { (void)(pcp); local_unlock_irqrestore_model(this, flags); } while (0)

#endif
