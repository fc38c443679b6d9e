/* SPDX-License-Identifier: MIT */
/*
 * The vmstat model's own operations (vmstat.h), which its registration
 * (model.c) and the module's (vmstat_model_run) point to: the shared zone
 * and each CPU's and worker's part of it, and the count invariant.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template/template.h"
#include "vmstat.h"

#define PCB_AXIS PCB_AXIS_ENTRY
static const struct pcb_axis vmstat_axes[] = {
#include "variants.def"
};
#undef PCB_AXIS

/* variant[] of a design, by variants.def: the irq_model (any design) */
int vmstat_variant_index(const void *config, const struct pcb_design *d)
{
	long value[] = { ((const struct vmstat_config *)config)->irq_model };

	return pcb_variant_index(vmstat_axes, PCB_NR_AXES(vmstat_axes), value);
}

static const struct vmstat_ops *vmstat_ops(const struct pcb_variant *v)
{
	return v->ops;
}

void *vmstat_setup(const struct pcb_model_setup *ms, char *err, size_t errlen)
{
	size_t size = (sizeof(struct vmstat_shared) + SMP_CACHE_BYTES - 1) &
		      ~(size_t)(SMP_CACHE_BYTES - 1);
	struct vmstat_shared *s = aligned_alloc(SMP_CACHE_BYTES, size);

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	memset(s, 0, size);
	s->cfg = *(const struct vmstat_config *)ms->config;
	s->design = ms->d;
	s->ops = vmstat_ops(ms->v);
	return s;
}

/* the CPU's zone and its stat_threshold (calculate_normal_threshold()'s, here the config's) */
void vmstat_cpu_setup(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu)
{
	struct vmstat_shared *s = shared;

	vmstat_cpu(cpu)->zone = &s->zone;
	s->ops->set_threshold(cpu->stock, s->cfg.threshold);
	if (cpu->stock_spare)
		s->ops->set_threshold(cpu->stock_spare, s->cfg.threshold);
}

void vmstat_worker_setup(void *shared, struct pcb_worker *w)
{
	((struct vmstat_worker *)w)->zone = &((struct vmstat_shared *)shared)->zone;
}

void *vmstat_drain_target(void *shared)
{
	return &((struct vmstat_shared *)shared)->zone;
}

/*
 * Every count once: for each item, the zone's counter and every CPU's
 * difference add up to what the workers added (and idle CPUs were given),
 * and no difference is past its threshold.
 */
int vmstat_check(const struct pcb_quiescent *q, char *msg, size_t len)
{
	const struct vmstat_shared *s = q->shared;
	const struct vmstat_ops *ops = vmstat_ops(q->v);

	for (int item = 0; item < NR_VM_ZONE_STAT_ITEMS; item++) {
		long added = atomic_load(&s->prefilled[item]), counted;
		long diffs = 0;

		for (int i = 0; i < q->nr_workers; i++)
			added += ((const struct vmstat_worker *)q->w[i])->added[item];
		for (int c = 0; c < q->nr_cpus; c++) {
			const void *st[2] = { q->cpus[c]->stock, q->cpus[c]->stock_spare };

			for (int k = 0; k < 2; k++) {
				long d = st[k] ? ops->diff(st[k], item) : 0;

				if (labs(d) > s->cfg.threshold) {
					snprintf(msg, len, "item %d: CPU %u's difference %ld is past "
						 "the threshold %d", item, q->cpus[c]->cpu, d,
						 s->cfg.threshold);
					return -1;
				}
				diffs += d;
			}
		}
		counted = atomic_load(&s->zone.vm_stat[item]) + diffs;
		if (counted != added) {
			snprintf(msg, len, "item %d: zone %ld + CPUs' differences %ld = %ld, but %ld "
				 "were added: %s", item, atomic_load(&s->zone.vm_stat[item]), diffs,
				 counted, added, counted > added ? "counted twice" : "lost");
			return -1;
		}
	}
	snprintf(msg, len, "ok");
	return 0;
}

bool vmstat_cache_empty(void *shared, const struct pcb_variant *v, struct pcb_cpu *cpu)
{
	for (int item = 0; item < NR_VM_ZONE_STAT_ITEMS; item++)
		if (vmstat_ops(v)->diff(cpu->stock, item))
			return false;
	return true;
}

const struct pcb_model_ops vmstat_model_ops = VMSTAT_MODEL_OPS;

/* the module's: no keys, so no rules; a plan's settings are the struct */
const struct pcb_model_run vmstat_model_run = {
	.name = "vmstat",
	.ops = &vmstat_model_ops,
	.config_size = sizeof(struct vmstat_config),
};
