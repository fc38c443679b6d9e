/* SPDX-License-Identifier: MIT */
/*
 * The vmstat model as the harness knows it: one struct pcb_model, built
 * and tortured by the tests alone. Its designs are listed in designs.def,
 * its variants in variants.def; its invariant is here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template/template.h"
#include "vmstat.h"

/* each built by the design template (kernels/template/) */
#define PCB_DESIGN(d) extern const struct pcb_design vmstat_design_##d;
#include "designs.def"
#undef PCB_DESIGN

static const struct pcb_design *const vmstat_designs[] = {
#define PCB_DESIGN(d) &vmstat_design_##d,
#include "designs.def"
#undef PCB_DESIGN
	NULL,
};

#define PCB_AXIS PCB_AXIS_ENTRY
static const struct pcb_axis vmstat_axes[] = {
#include "variants.def"
};
#undef PCB_AXIS

static const char *const vmstat_fn_name[VMSTAT_FN_NR] = { "mod_zone_page_state" };
static const char *const vmstat_ev_name[VMSTAT_NR_EV] = { "zone_folds" };
static const struct pcb_workload_info vmstat_workloads[] = {
	{ "vmstat", "mod_zone_page_state() of random items by -3..3 pages" },
};

static int vmstat_finish(void *config, int timing, const struct pcb_scenario *sc,
			 char *err, size_t errlen)
{
	return 0;
}

static void vmstat_describe(const void *config, char *buf, size_t len)
{
	snprintf(buf, len, "stat_threshold %d", ((const struct vmstat_config *)config)->threshold);
}

/* variant[] of a design, by variants.def: the irq_model (any design) */
static int vmstat_variant_index(const void *config, const struct pcb_design *d)
{
	(void)d;
	long value[] = { ((const struct vmstat_config *)config)->irq_model };

	return pcb_variant_index(vmstat_axes, PCB_NR_AXES(vmstat_axes), value);
}

static const struct vmstat_ops *vmstat_ops(const struct pcb_variant *v)
{
	return v->ops;
}

static void *vmstat_setup(const struct pcb_model_setup *ms, char *err, size_t errlen)
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
	return s;
}

static void vmstat_teardown(void *shared)
{
	free(shared);
}

/* the CPU's zone and its stat_threshold (calculate_normal_threshold()'s, here the config's) */
static void vmstat_cpu_setup(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu)
{
	struct vmstat_shared *s = shared;
	const struct vmstat_ops *ops = vmstat_ops(d->variant[vmstat_variant_index(&s->cfg, d)]);

	vmstat_cpu(cpu)->zone = &s->zone;
	ops->set_threshold(cpu->stock, s->cfg.threshold);
	if (cpu->stock_spare)
		ops->set_threshold(cpu->stock_spare, s->cfg.threshold);
}

static void vmstat_worker_setup(void *shared, struct pcb_worker *w)
{
	((struct vmstat_worker *)w)->zone = &((struct vmstat_shared *)shared)->zone;
}

static void *vmstat_drain_target(void *shared)
{
	return &((struct vmstat_shared *)shared)->zone;
}

static unsigned long vmstat_stranded(void *shared, const struct pcb_variant *v, void *target,
				     struct pcb_cpu *cpu)
{
	return 0;
}

/*
 * Every count once: for each item, the zone's counter and every CPU's
 * difference add up to what the workers added (and idle CPUs were given),
 * and no difference is past its threshold.
 */
static int vmstat_check(const struct pcb_quiescent *q, char *msg, size_t len)
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

static bool vmstat_cache_empty(void *shared, const struct pcb_variant *v, struct pcb_cpu *cpu)
{
	for (int item = 0; item < NR_VM_ZONE_STAT_ITEMS; item++)
		if (vmstat_ops(v)->diff(cpu->stock, item))
			return false;
	return true;
}

static void vmstat_result_json(json_t *dj, const struct pcb_model_figures *f)
{
	json_object_set_new(dj, "events", json_pack("{s:I}", vmstat_ev_name[VMSTAT_EV_FOLD],
						    (json_int_t)f->ev[VMSTAT_EV_FOLD]));
}

const struct pcb_model vmstat_model = {
	.name = "vmstat",
	.summary = "struct per_cpu_zonestat: vm_stat_diff[] folded into zone->vm_stat[] "
		   "(mm/vmstat.c); the tests' throwaway model",
	.fn_name = vmstat_fn_name,
	.nr_fn = VMSTAT_FN_NR,
	.ev_name = vmstat_ev_name,
	.nr_ev = VMSTAT_NR_EV,
	.designs = vmstat_designs,
	.workloads = vmstat_workloads,
	.nr_workloads = 1,
	.config_size = sizeof(struct vmstat_config),
	.finish = vmstat_finish,
	.describe = vmstat_describe,
	.variant_index = vmstat_variant_index,
	.setup = vmstat_setup,
	.teardown = vmstat_teardown,
	.cpu_setup = vmstat_cpu_setup,
	.worker_size = sizeof(struct vmstat_worker),
	.worker_setup = vmstat_worker_setup,
	.drain_target = vmstat_drain_target,
	.stranded = vmstat_stranded,
	.check = vmstat_check,
	.cache_empty = vmstat_cache_empty,
	.result_json = vmstat_result_json,
	.note_key = "note",
	.cache_name = "per_cpu_zonestat",
	.drain_name = "vmstat_shepherd",
	.invariant_name = "count invariant",
};
