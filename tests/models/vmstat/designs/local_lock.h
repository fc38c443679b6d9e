/* SPDX-License-Identifier: MIT */
/*
 * local_lock: mod_zone_page_state() with interrupts off, as mm/vmstat.c
 * has it without CONFIG_HAVE_CMPXCHG_LOCAL; differences are folded by
 * vmstat_update work on each CPU (vmstat_shepherd()).
 */
#ifndef PCB_VMSTAT_DESIGN_LOCAL_LOCK_H
#define PCB_VMSTAT_DESIGN_LOCAL_LOCK_H

#include "locks/irq_off.h"

#define DESIGN_SUMMARY "interrupts off on the owner; folds are vmstat_update work on each CPU"
#define DESIGN_FOLLOWS "mm/vmstat.c: mod_zone_page_state(), vmstat_shepherd()"
#define DESIGN_PROMISE "every CPU's differences folded once the queued work ran on each CPU"

#define VMSTAT_DRAIN_HEADER "drain_work.h"

typedef struct { } vmstat_lock_t;

#define vmstat_lock_init(cpu, pzstats) do { (void)(cpu); (void)(pzstats); } while (0)
#define vmstat_lock(this, pzstats) ((void)(pzstats), local_lock_irqsave_model(this))
#define vmstat_unlock(this, pzstats, flags) \
	do { (void)(pzstats); local_unlock_irqrestore_model(this, flags); } while (0)

#endif
