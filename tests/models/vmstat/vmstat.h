/* SPDX-License-Identifier: MIT */
/*
 * A throwaway model of the tests: the zone counters of mm/vmstat.c. An
 * owner adds a page count to its CPU's vm_stat_diff[]
 * (__mod_zone_page_state()) and folds it into the zone's atomic counter
 * once it passes the CPU's stat_threshold; a drain folds every CPU's
 * differences, by vmstat_update work on each owner (vmstat_shepherd(),
 * refresh_cpu_vm_stats()) or from the draining CPU under the CPU's lock
 * (cpu_vm_stats_fold()). Invariant: every count is in the zone's counter
 * or in one CPU's difference, once.
 */
#ifndef PCB_VMSTAT_H
#define PCB_VMSTAT_H

#include "pcb/model.h"
#include "percpu.h"
#include "workqueue.h"

/* enum zone_stat_item, some of it */
enum zone_stat_item {
	NR_FREE_PAGES,
	NR_ZONE_ACTIVE_ANON,
	NR_ZONE_INACTIVE_FILE,
	NR_MLOCK,
	NR_VM_ZONE_STAT_ITEMS,
};

enum { VMSTAT_FN_MOD_ZONE_PAGE_STATE, VMSTAT_FN_NR };
enum { VMSTAT_EV_FOLD, VMSTAT_NR_EV };		/* a difference past the threshold */

/* zone->vm_stat[], alone on its line */
struct zone {
	atomic_long vm_stat[NR_VM_ZONE_STAT_ITEMS] ____cacheline_aligned;
};

struct vmstat_config {
	int irq_model;
	int threshold;			/* pcp->stat_threshold */
};

/* the model's per-CPU data: DEFINE_PER_CPU(struct delayed_work, vmstat_work) */
struct vmstat_cpu {
	struct pcb_cpu cpu;
	struct zone *zone;
	int threshold;
	struct work_struct work ____cacheline_aligned;
} ____cacheline_aligned;

struct vmstat_worker {
	struct pcb_worker w;		/* the harness's part, first */
	struct zone *zone;
	long added[NR_VM_ZONE_STAT_ITEMS];	/* what this worker's operations added */
};

/* what each build exports for the invariant: a CPU's difference of one item */
struct vmstat_ops {
	long (*diff)(const void *pzstats, int item);
	void (*set_threshold)(void *pzstats, int threshold);
};

/* the state one design's runs share; the zone first, on its own line */
struct vmstat_shared {
	struct zone zone;
	struct vmstat_config cfg;
	const struct pcb_design *design;
	const struct vmstat_ops *ops;	/* the build that runs */
	atomic_long prefilled[NR_VM_ZONE_STAT_ITEMS];	/* what idle CPUs were given */
};

static inline struct vmstat_cpu *vmstat_cpu(struct pcb_cpu *cpu)
{
	return (struct vmstat_cpu *)cpu;
}

extern const struct pcb_model vmstat_model;

/* its operations (vmstat.c) */
int vmstat_variant_index(const void *config, const struct pcb_design *d);
void *vmstat_setup(const struct pcb_model_setup *ms, char *err, size_t errlen);
void vmstat_cpu_setup(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu);
void vmstat_worker_setup(void *shared, struct pcb_worker *w);
void *vmstat_drain_target(void *shared);
int vmstat_check(const struct pcb_quiescent *q, char *msg, size_t len);
bool vmstat_cache_empty(void *shared, const struct pcb_variant *v, struct pcb_cpu *cpu);

/* its operations, for its registration (model.c) and the module's */
#define VMSTAT_MODEL_OPS {						\
	.variant_index = vmstat_variant_index,				\
	.setup = vmstat_setup,						\
	.cpu_setup = vmstat_cpu_setup,					\
	.worker_size = sizeof(struct vmstat_worker),			\
	.worker_setup = vmstat_worker_setup,				\
	.drain_target = vmstat_drain_target,				\
	.check = vmstat_check,						\
	.cache_empty = vmstat_cache_empty,				\
}
extern const struct pcb_model_ops vmstat_model_ops;
extern const struct pcb_model_run vmstat_model_run;

#endif
