/* SPDX-License-Identifier: MIT */
/*
 * SLUB's percpu sheaves (mm/slub.c), as the harness knows them: one
 * struct pcb_model. Designs in designs.def, keys in keys.c, the run-time
 * operations in ops.c, the cache and the invariant in slub.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../locks/irq_key.h"
#include "../template/template.h"
#include "pcb/model_output.h"

#include "sheaves_model.h"

/* each built by the design template (kernels/template/) */
#define PCB_DESIGN(d) extern const struct pcb_design sheaves_design_##d;
#include "designs.def"
#undef PCB_DESIGN

static const struct pcb_design *const sheaves_designs[] = {
#define PCB_DESIGN(d) &sheaves_design_##d,
#include "designs.def"
#undef PCB_DESIGN
	NULL,
};

static const char *const sheaves_fn_name[SHEAVES_FN_NR] = {
	[SHEAVES_FN_ALLOC] = "kmem_cache_alloc",
	[SHEAVES_FN_FREE] = "kmem_cache_free",
};

static const char *const sheaves_ev_name[SHEAVES_NR_EV] = {
	[SHEAVES_EV_ALLOC_SLOWPATH] = "alloc_slowpath",
	[SHEAVES_EV_FREE_SLOWPATH] = "free_slowpath",
	[SHEAVES_EV_BARN_GET] = "barn_get",
	[SHEAVES_EV_BARN_GET_FAIL] = "barn_get_fail",
	[SHEAVES_EV_BARN_PUT] = "barn_put",
	[SHEAVES_EV_BARN_PUT_FAIL] = "barn_put_fail",
	[SHEAVES_EV_SHEAF_REFILL] = "sheaf_refill",
	[SHEAVES_EV_SHEAF_FLUSH] = "sheaf_flush",
	[SHEAVES_EV_SHEAF_ALLOC] = "sheaf_alloc",
	[SHEAVES_EV_SHEAF_FREE] = "sheaf_free",
	[SHEAVES_EV_ALLOC_SLAB] = "alloc_slab",
	[SHEAVES_EV_FREE_SLAB] = "free_slab",
	[SHEAVES_EV_PCS_BUSY] = "pcs_trylock_fail",
	[SHEAVES_EV_CMPXCHG_CPU_FAIL] = "cmpxchg_double_cpu_fail",
	[SHEAVES_EV_CPUSLAB_FLUSH] = "cpuslab_flush",
	[SHEAVES_EV_HANDOFF_STALL] = "handoff_stalls",
};

static const struct pcb_workload_info sheaves_workloads[SHEAVES_WL_NR] = {
	[SHEAVES_WL_ALLOC_FREE] = { "alloc_free",
		"kmem_cache_alloc() of workload.burst objects, then kmem_cache_free() of each" },
	[SHEAVES_WL_HANDOFF] = { "handoff",
		"workers in pairs on two CPUs: one allocates workload.burst objects and hands "
		"them over, the other frees them (the barn path)" },
};

int sheaves_finish(void *config, int timing, const struct pcb_scenario *sc, char *err,
		   size_t errlen);
void sheaves_describe(const void *config, char *buf, size_t len);
void sheaves_kernel(void *config, char *note, size_t len);

static uint64_t fn_calls(const struct pcb_model_figures *f, int fn)
{
	return f->fn_total[fn].calls + f->fn_total[fn].interrupted_calls;
}

/* the paths' shares and rates, per 1000 calls of both rows */
static json_t *slab_paths_json(const struct pcb_model_figures *f)
{
	uint64_t allocs = fn_calls(f, SHEAVES_FN_ALLOC), frees = fn_calls(f, SHEAVES_FN_FREE);
	double kops = (double)(allocs + frees) / 1000;
	const uint64_t *ev = f->ev;

	return json_pack("{s:f,s:f,s:f,s:f,s:f}",
		"alloc_fast", allocs ? 1 - (double)ev[SHEAVES_EV_ALLOC_SLOWPATH] / (double)allocs : 0.0,
		"free_fast", frees ? 1 - (double)ev[SHEAVES_EV_FREE_SLOWPATH] / (double)frees : 0.0,
		"barn_per_kop", kops > 0 ? (double)(ev[SHEAVES_EV_BARN_GET] +
						     ev[SHEAVES_EV_BARN_PUT]) / kops : 0.0,
		"slab_objects_per_kop", kops > 0 ? (double)(ev[SHEAVES_EV_SHEAF_REFILL] +
							     ev[SHEAVES_EV_SHEAF_FLUSH]) / kops : 0.0,
		"busy_per_kop", kops > 0 ? (double)(ev[SHEAVES_EV_PCS_BUSY] +
						     ev[SHEAVES_EV_CMPXCHG_CPU_FAIL]) / kops : 0.0);
}

/* the per-CPU struct's layout as the build ran it, the cache's sizes, the events */
static void sheaves_result_json(json_t *dj, const struct pcb_model_figures *f)
{
	const struct sheaves_config *c = f->config;
	const struct sheaves_ops *ops = sheaves_ops(f->variant);
	unsigned int size = ((unsigned int)c->object_size + 7) & ~7u;
	long present = sysconf(_SC_NPROCESSORS_CONF);
	unsigned int order = sheaves_order_of(size, present > 0 ? (unsigned int)present : 1);
	json_t *ev = json_object();

	json_object_set_new(dj, "cache_bytes", json_integer((json_int_t)f->variant->stock_size));
	json_object_set_new(dj, "cache_hot_bytes",
			    json_integer((json_int_t)f->variant->stock_hot_bytes));
	json_object_set_new(dj, "percpu", json_pack("{s:s,s:s,s:I,s:I}",
		"struct", ops->cpu_slab ? "kmem_cache_cpu" : "slub_percpu_sheaves",
		"lock", ops->lock_name, "lock_offset", (json_int_t)ops->lock_offset,
		"lock_bytes", (json_int_t)ops->lock_size));
	json_object_set_new(dj, "object_size", json_integer(size));
	json_object_set_new(dj, "slab_order", json_integer(order));
	json_object_set_new(dj, "objects_per_slab", json_integer((json_int_t)((PAGE_SIZE << order) /
									     size)));
	json_object_set_new(dj, "sheaf_capacity",
			    json_integer(ops->cpu_slab ? 0 :
					 sheaves_capacity_of(size, (unsigned int)c->capacity)));
	json_object_set_new(dj, "freelist_hardened", json_boolean(c->hardened));
	json_object_set_new(dj, "irq_model", json_string(pcb_irq_model_names[c->irq_model]));
	json_object_set_new(dj, "slab", slab_paths_json(f));
	for (int e = 0; e < SHEAVES_NR_EV; e++)
		json_object_set_new(ev, sheaves_ev_name[e], json_integer((json_int_t)f->ev[e]));
	json_object_set_new(dj, "events", ev);
}

/* how often each design's per-CPU layer served, and what stood behind it */
static const struct pcb_model_column sheaves_path_columns[] = {
	{ "alloc fast %", 14, { "slab.alloc_fast", 2, 100 } },
	{ "free fast %", 14, { "slab.free_fast", 2, 100 } },
	{ "barn/kop", 12, { "slab.barn_per_kop", 2 } },
	{ "slab objs/kop", 15, { "slab.slab_objects_per_kop", 1 } },
	{ "busy/kop", 0, { "slab.busy_per_kop", 3 } },
	{ NULL },
};

static const struct pcb_model_block sheaves_blocks[] = {
	{ .title = "per-CPU layer", .columns = sheaves_path_columns },
	/* the per-CPU struct each design ran with */
	{ .when = "percpu.struct",
	  .line = "struct {percpu.struct:s}, {cache_bytes} bytes: {percpu.lock:s} at byte "
		  "{percpu.lock_offset} ({percpu.lock_bytes} bytes); {object_size}-byte objects, "
		  "{objects_per_slab} a slab of order {slab_order}; sheaf_capacity "
		  "{sheaf_capacity}" },
	{ NULL },
};

/* sheaves against the burst: past the capacity, the barn and the slabs */
static const struct pcb_model_plot sheaves_plots[] = {
	{ .name = "sheaves-burst", .title = "the per-CPU layer against the burst",
	  .help = "Diff % against the baseline configuration, the share of\n"
		  "allocations the per-CPU layer served and barn exchanges\n"
		  "per 1000 calls, against a swept workload.burst",
	  .sweep = "workload.burst", .gain_var = "ngain",
	  .series = { { { "slab.alloc_fast", 2, 100 }, "nfast" },
		      { { "slab.barn_per_kop", 2 } } } },
	{ NULL },
};

static const struct pcb_model_output sheaves_output = {
	.result_json = sheaves_result_json,
	.blocks = sheaves_blocks,
	.plots = sheaves_plots,
	.caches_name = "per-CPU caches",
};

const struct pcb_model sheaves_model = {
	.name = "sheaves",
	.summary = "struct slub_percpu_sheaves: alloc_from_pcs, free_to_pcs, the barn, "
		   "kmem_cache_shrink() (mm/slub.c)",
	.fn_name = sheaves_fn_name,
	.nr_fn = SHEAVES_FN_NR,
	.ev_name = sheaves_ev_name,
	.nr_ev = SHEAVES_NR_EV,
	.designs = sheaves_designs,
	.workloads = sheaves_workloads,
	.nr_workloads = SHEAVES_WL_NR,
	.cache_name = "per-CPU cache",
	.drain_name = "kmem_cache_shrink",
	.invariant_name = "object invariant",
	.target_name = "kmem_cache",
	.config = {
		.keys = sheaves_keys,
		.nr_keys = SHEAVES_NR_KEYS,
		.size = sizeof(struct sheaves_config),
		.finish = sheaves_finish,
		.rules = sheaves_rules,
		.describe = sheaves_describe,
		.kernel = sheaves_kernel,
	},
	.ops = SHEAVES_MODEL_OPS,
	.output = &sheaves_output,
};
