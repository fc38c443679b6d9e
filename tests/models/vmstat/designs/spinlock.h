/* SPDX-License-Identifier: MIT */
/*
 * spinlock: the per-CPU differences behind a spinlock of their own, so
 * that any CPU folds any CPU's (cpu_vm_stats_fold() on a live CPU, as a
 * QPW conversion of vmstat would do it).
 */
#ifndef PCB_VMSTAT_DESIGN_SPINLOCK_H
#define PCB_VMSTAT_DESIGN_SPINLOCK_H

#include "locks/spinlock.h"

#define DESIGN_SUMMARY "per-CPU spin_lock_irqsave(); any CPU folds any CPU's differences"
#define DESIGN_FOLLOWS "mm/vmstat.c's cpu_vm_stats_fold() on a live CPU, under its lock"
#define DESIGN_PROMISE "every CPU's differences folded when the drain returns"

#define VMSTAT_DRAIN_HEADER "drain_remote.h"

typedef spinlock_t vmstat_lock_t;

#define vmstat_lock_init(cpu, pzstats) \
	do { (void)(cpu); spin_lock_init(&(pzstats)->lock); } while (0)
/* counted under the kernel function the macro expands in (__func__) */
#define vmstat_lock(this, pzstats) spin_lock_irqsave(this, &(pzstats)->lock, __func__)
#define vmstat_unlock(this, pzstats, flags) spin_unlock_irqrestore(this, &(pzstats)->lock, flags)

#endif
