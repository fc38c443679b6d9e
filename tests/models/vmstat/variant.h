/* SPDX-License-Identifier: MIT */
/*
 * The vmstat model's part of the design template (kernels/template/): one
 * design (PCB_DESIGN_HEADER) in one build variant (PCB_IRQ_MODEL).
 */
#ifndef PCB_VMSTAT_VARIANT_H
#define PCB_VMSTAT_VARIANT_H

#include PCB_DESIGN_HEADER
#include "zonestat.h"

#define MODEL_CPU		struct vmstat_cpu
#define MODEL_STOCK		struct per_cpu_zonestat
#define MODEL_STOCK_HOT_BYTES	sizeof(struct per_cpu_zonestat)

static void FN(run)(struct pcb_worker *w)
{
	pcb_drain_online();
	vmstat_loop((struct vmstat_worker *)w);
	pcb_drain_offline();
}

/* a worker holds nothing: its counts are the zone's or its CPU's */
static void FN(release)(struct pcb_worker *w)
{
	(void)w;
}

static void FN(stock_init)(const struct pcb_cpu *cpu, void *p)
{
	struct per_cpu_zonestat *pzstats = p;

	memset(pzstats, 0, sizeof(*pzstats));
	vmstat_lock_init(cpu, pzstats);
}

static long FN(diff)(const void *p, int item)
{
	return READ_ONCE(((const struct per_cpu_zonestat *)p)->vm_stat_diff[item]);
}

static long FN(diff_of)(struct pcb_cpu *cpu, int item)
{
	return FN(diff)(this_cpu_zonestat(cpu), item);
}

static pcb_work_data_t *FN(work_data)(struct pcb_cpu *cpu)
{
	return &vmstat_cpu(cpu)->work.data;
}

static void FN(drain_local)(struct pcb_cpu *this)
{
	refresh_cpu_vm_stats(this);
}

static void FN(drain_all)(struct pcb_cpu *this, void *zone, struct pcb_cpu *const *cpus, int nr)
{
	vmstat_drain_all(this, zone, cpus, nr);
}

/* an idle CPU's differences, as an owner leaves them: at the threshold, one short of a fold */
static void FN(prefill)(struct pcb_cpu *cpu, void *shared)
{
	struct vmstat_shared *s = shared;

	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
		long delta = this_cpu_zonestat(cpu)->stat_threshold - FN(diff_of)(cpu, i);

		mod_zone_page_state(cpu, &s->zone, i, delta);
		atomic_fetch_add(&s->prefilled[i], delta);
	}
}

static void FN(set_threshold)(void *p, int threshold)
{
	((struct per_cpu_zonestat *)p)->stat_threshold = (int8_t)threshold;
}

static const struct vmstat_ops FN(ops) = {
	.diff = FN(diff),
	.set_threshold = FN(set_threshold),
};

#endif
