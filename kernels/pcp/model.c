/* SPDX-License-Identifier: MIT */
/*
 * The page allocator's per-CPU page lists (seed 004), as the harness knows
 * them: one struct pcb_model. Designs in designs.def, keys in keys.c, the
 * run-time operations in ops.c, the zone and the invariant in page_alloc.c.
 */
#include <stdio.h>

#include "../locks/irq_key.h"
#include "pcb/model_output.h"

#include "pcp_model.h"

/* each built by the design template (kernels/template/) */
#define PCB_DESIGN(d) extern const struct pcb_design pcp_design_##d;
#include "designs.def"
#undef PCB_DESIGN

static const struct pcb_design *const pcp_designs[] = {
#define PCB_DESIGN(d) &pcp_design_##d,
#include "designs.def"
#undef PCB_DESIGN
	NULL,
};

static const char *const pcp_fn_name[PCP_FN_NR] = {
	[PCP_FN_RMQUEUE_PCPLIST] = "rmqueue_pcplist",
	[PCP_FN_FREE_UNREF_PAGE] = "free_unref_page",
	[PCP_FN_PAGE_FAULT] = "page_fault",
	[PCP_FN_UNMAP_PAGE] = "unmap_page",
};

static const char *const pcp_ev_name[PCP_NR_EV] = {
	[MEMCG_EV_STOCK_HIT] = "stock_hits",
	[MEMCG_EV_STOCK_MISS] = "stock_misses",
	[MEMCG_EV_PC_CHARGE] = "page_counter_charges",
	[MEMCG_EV_PC_UNCHARGE] = "page_counter_uncharges",
	[MEMCG_EV_RSEQ_ABORT] = "rseq_aborts",
	[PCP_EV_PGALLOC] = "pgalloc",
	[PCP_EV_PGFREE] = "pgfree",
	[PCP_EV_REFILL] = "rmqueue_bulk",
	[PCP_EV_SPILL] = "free_pcppages_bulk",
	[PCP_EV_FALLBACK] = "zone_fallback",
	[PCP_EV_REFILL_HELD] = "rmqueue_bulk_held_ticks",
	[PCP_EV_SPILL_HELD] = "free_pcppages_bulk_held_ticks",
	[PCP_EV_BAD_PAGE] = "bad_pages",
};

static const struct pcb_workload_info pcp_workloads[PCP_WL_NR] = {
	[PCP_WL_ALLOC_FREE] = { "pcp_alloc_free",
		"order-0 allocations and frees, workload.burst at a time (seed 004's "
		"micro-benchmark shape)" },
	[PCP_WL_PAGE_FAULT] = { "page_fault",
		"mmtests pft: a page allocated, cleared, charged and put on the LRU per fault; "
		"workload.map_pages faults, then the munmap" },
};

int pcp_finish(void *config, int timing, const struct pcb_scenario *sc, char *err, size_t errlen);
void pcp_describe(const void *config, char *buf, size_t len);
void pcp_kernel(void *config, char *note, size_t len);
void pcp_describe_design(const void *config, const struct pcb_design *d, char *buf, size_t len);

/*
 * The lists' size and where the lock fell in the build that ran (none
 * where the lock is not in per_cpu_pages); the refills, spills and fallbacks
 */
static void pcp_result_json(json_t *dj, const struct pcb_model_figures *f)
{
	const struct pcp_config *c = f->config;
	const struct pcp_ops *ops = pcp_ops(f->variant);
	json_t *ev = json_object();

	json_object_set_new(dj, "cache_bytes", json_integer((json_int_t)f->variant->stock_size));
	json_object_set_new(dj, "cache_hot_bytes",
			    json_integer((json_int_t)f->variant->stock_hot_bytes));
	json_object_set_new(dj, "lock_placement", json_string(!ops->lock_size ? "none" :
			    ops->lock_first ? "first_line" : "end"));
	if (ops->lock_size)
		json_object_set_new(dj, "lock_offset", json_integer((json_int_t)ops->lock_offset));
	json_object_set_new(dj, "irq_model", json_string(pcb_irq_model_names[c->irq_model]));
	for (int e = 0; e < PCP_NR_EV; e++)
		json_object_set_new(ev, pcp_ev_name[e], json_integer((json_int_t)f->ev[e]));
	json_object_set_new(dj, "events", ev);
}

/* the model's lines; pcp.zone_lock_hold's figures are the contention table's */
static const struct pcb_model_block pcp_blocks[] = {
	/* where the build that ran kept the per_cpu_pages lock */
	{ .when = "lock_offset",
	  .line = "per_cpu_pages lock {lock_placement:s}, at byte {lock_offset} of {cache_bytes}" },
	{ NULL },
};

static const struct pcb_model_output pcp_output = {
	.result_json = pcp_result_json,
	.note_key = "accounting",
	.blocks = pcp_blocks,
	.caches_name = "per_cpu_pages",
};

const struct pcb_model pcp_model = {
	.name = "pcp",
	.summary = "struct per_cpu_pages: rmqueue_pcplist, free_unref_page, zone->lock, "
		   "drain_all_pages() (mm/page_alloc.c)",
	.fn_name = pcp_fn_name,
	.nr_fn = PCP_FN_NR,
	.ev_name = pcp_ev_name,
	.nr_ev = PCP_NR_EV,
	.designs = pcp_designs,
	.workloads = pcp_workloads,
	.nr_workloads = PCP_WL_NR,
	.cache_name = "per_cpu_pages",
	.target_name = "zone",
	.drain_name = "drain_all_pages",
	.invariant_name = "page invariant",
	.config = {
		.keys = pcp_keys,
		.nr_keys = PCP_NR_KEYS,
		.size = sizeof(struct pcp_config),
		.finish = pcp_finish,
		.rules = pcp_rules,
		.describe = pcp_describe,
		.kernel = pcp_kernel,
		.describe_design = pcp_describe_design,
	},
	.ops = PCP_MODEL_OPS,
	.output = &pcp_output,
};
