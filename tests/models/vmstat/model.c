/* SPDX-License-Identifier: MIT */
/*
 * The vmstat model as the harness knows it: one struct pcb_model, built
 * and tortured by the tests alone. Its designs are listed in designs.def,
 * its variants in variants.def, its operations in vmstat.c (which
 * pcpbench.ko builds too, from BUILD/kmod-tests.mk). It has no
 * keys, adds nothing to the output and has no bare loop to calibrate:
 * the harness's defaults stand for them, and for what it need not do
 * (check keys, free its shared state, count pages stranded).
 */
#include <stdio.h>

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

static void vmstat_describe(const void *config, char *buf, size_t len)
{
	snprintf(buf, len, "stat_threshold %d", ((const struct vmstat_config *)config)->threshold);
}

static const char *const vmstat_fn_name[VMSTAT_FN_NR] = { "mod_zone_page_state" };
static const char *const vmstat_ev_name[VMSTAT_NR_EV] = { "zone_folds" };
static const struct pcb_workload_info vmstat_workloads[] = {
	{ "vmstat", "mod_zone_page_state() of random items by -3..3 pages" },
};

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
	.cache_name = "per_cpu_zonestat",
	.drain_name = "vmstat_shepherd",
	.invariant_name = "count invariant",
	.config = { .size = sizeof(struct vmstat_config), .describe = vmstat_describe },
	.ops = VMSTAT_MODEL_OPS,
};
