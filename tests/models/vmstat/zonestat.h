/* SPDX-License-Identifier: MIT */
/*
 * struct per_cpu_zonestat and its paths (mm/vmstat.c), a template: include
 * a design header first. It defines vmstat_lock_t, vmstat_lock_init(cpu,
 * pzstats), vmstat_lock(this, pzstats) -> flags, vmstat_unlock(this,
 * pzstats, flags), and VMSTAT_DRAIN_HEADER, its drain.
 */
#ifndef PCB_VMSTAT_ZONESTAT_H
#define PCB_VMSTAT_ZONESTAT_H

#include <stdlib.h>
#include <string.h>

#include "vmstat.h"

#ifndef VMSTAT_DRAIN_HEADER
#error "include a design header from tests/models/vmstat/designs/ before zonestat.h"
#endif

struct per_cpu_zonestat {
	vmstat_lock_t lock;
	int8_t vm_stat_diff[NR_VM_ZONE_STAT_ITEMS];
	int8_t stat_threshold;
};

static inline struct per_cpu_zonestat *this_cpu_zonestat(struct pcb_cpu *cpu)
{
	return pcb_cpu_cache(cpu);
}

/* mod_zone_page_state(): __mod_zone_page_state() under the design's lock */
static __always_inline void mod_zone_page_state(struct pcb_cpu *this, struct zone *zone,
						int item, long delta)
{
	struct per_cpu_zonestat *pzstats = this_cpu_zonestat(this);
	unsigned long flags = vmstat_lock(this, pzstats);
	long x = delta + pzstats->vm_stat_diff[item];

	if (unlikely(labs(x) > pzstats->stat_threshold)) {
		/* zone_page_state_add() */
		atomic_fetch_add_explicit(&zone->vm_stat[item], x, memory_order_relaxed);
		pcb_count(this, VMSTAT_EV_FOLD);
		x = 0;
	}
	WRITE_ONCE(pzstats->vm_stat_diff[item], (int8_t)x);
	vmstat_unlock(this, pzstats, flags);
}

/* need_update(): has cpu a difference to fold? */
static inline bool need_update(struct pcb_cpu *cpu)
{
	struct per_cpu_zonestat *pzstats = this_cpu_zonestat(cpu);

	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		if (READ_ONCE(pzstats->vm_stat_diff[i]))
			return true;
	return false;
}

/* cpu_vm_stats_fold(): cpu's differences into the zone, from `this`, under cpu's lock */
static inline void cpu_vm_stats_fold(struct pcb_cpu *this, struct pcb_cpu *cpu, struct zone *zone)
{
	struct per_cpu_zonestat *pzstats = this_cpu_zonestat(cpu);
	unsigned long flags;

	pcb_drain_window_open(cpu);
	flags = vmstat_lock(this, pzstats);
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
		int v = pzstats->vm_stat_diff[i];

		if (v) {
			WRITE_ONCE(pzstats->vm_stat_diff[i], 0);
			atomic_fetch_add_explicit(&zone->vm_stat[i], v, memory_order_relaxed);
		}
	}
	vmstat_unlock(this, pzstats, flags);
	pcb_drain_window_close(cpu);
}

/* refresh_cpu_vm_stats(): the owner folds its own, as vmstat_update() does */
static inline void refresh_cpu_vm_stats(struct pcb_cpu *this)
{
	cpu_vm_stats_fold(this, this, vmstat_cpu(this)->zone);
}

/* the design's drain, which the loop polls or reports to between two operations */
#include VMSTAT_DRAIN_HEADER

/* the worker's loop: items and deltas at random, each update timed */
static inline void vmstat_loop(struct vmstat_worker *w)
{
	struct pcb_cpu *this = w->w.cpu;

	do {
		for (int i = 0; i < PCB_CHUNK; i++) {
			uint64_t r = pcb_rng_next(&w->w.rng);
			int item = (int)(r % NR_VM_ZONE_STAT_ITEMS);
			long delta = (long)((r >> 8) % 7) - 3;

			PCB_TIMED_VOID(this->h.dbg, VMSTAT_FN_MOD_ZONE_PAGE_STATE,
				       mod_zone_page_state(this, w->zone, item, delta));
			w->added[item] += delta;
			pcb_drain_between_ops(this);
			pcb_gap_watch(&w->w.gaps, &this->win, pcb_tsc_now());
		}
		w->w.ops += PCB_CHUNK;
		pcb_dbg_time_empty(this->h.dbg);
	} while (!pcb_loop_done(&w->w));
}

#endif
