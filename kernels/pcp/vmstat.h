/* SPDX-License-Identifier: MIT */
/*
 * The zone counters the page allocator updates, include/linux/vmstat.h and
 * mm/vmstat.c of v5.16: __mod_zone_page_state() adds to this CPU's
 * vm_stat_diff and folds it into the zone's and the global counter past
 * the CPU's threshold; __mod_zone_freepage_state() is how the buddy
 * allocator counts NR_FREE_PAGES; __count_numa_events() adds to this CPU's
 * NUMA events. pzstats stands for the caller's
 * this_cpu_ptr(zone->per_cpu_zonestats).
 */
#ifndef PCB_PCP_VMSTAT_H
#define PCB_PCP_VMSTAT_H

#include "mmzone.h"

/* vm_zone_stat[]: every zone's counters summed, __cacheline_aligned_in_smp */
extern atomic_long vm_zone_stat[PCP_NR_ZONE_STAT];

/* zone_page_state_add(): a fold, into the zone's counter and the global one */
static inline void zone_page_state_add(long x, struct zone *zone, enum pcp_zone_stat item)
{
	atomic_fetch_add_explicit(&zone->vm_stat[item], x, memory_order_relaxed);
	atomic_fetch_add_explicit(&vm_zone_stat[item], x, memory_order_relaxed);
}

/*
 * __mod_zone_page_state(): out of line, as mm/vmstat.c exports it; the
 * caller has interrupts off (local_lock_irqsave() or the zone lock)
 */
static __attribute__((__noinline__, unused)) void
__mod_zone_page_state(struct per_cpu_zonestat *pzstats, struct zone *zone,
		      enum pcp_zone_stat item, long delta)
{
	long x = delta + READ_ONCE(pzstats->vm_stat_diff[item]);
	long t = READ_ONCE(pzstats->stat_threshold);

	if (unlikely(x > t || x < -t)) {
		zone_page_state_add(x, zone, item);
		x = 0;
	}
	WRITE_ONCE(pzstats->vm_stat_diff[item], (signed char)x);
}

/* __mod_zone_freepage_state(): NR_FREE_PAGES; NR_FREE_CMA_PAGES needs CONFIG_CMA */
static inline void __mod_zone_freepage_state(struct per_cpu_zonestat *pzstats, struct zone *zone,
					     int nr_pages, int migratetype)
{
	(void)migratetype;
	__mod_zone_page_state(pzstats, zone, NR_FREE_PAGES, nr_pages);
}

/* __count_numa_events(): raw_cpu_add() on this CPU's vm_numa_event, no fold */
static __always_inline void __count_numa_events(struct per_cpu_zonestat *pzstats,
						enum numa_stat_item item, long delta)
{
	pzstats->vm_numa_event[item] += (unsigned long)delta;
}

#endif
