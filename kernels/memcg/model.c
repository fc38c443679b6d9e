/* SPDX-License-Identifier: MIT */
/*
 * The memcg charge and object stock model, as the harness knows it: one
 * struct pcb_model. Its designs are listed in designs.def, its keys in
 * keys.c, its run-time operations in ops.c, its invariant in check.c.
 */
#include <stdio.h>

#include "../locks/irq_key.h"
#include "pcb/model_output.h"

#include "memcg_model.h"

/* each built by the design template (kernels/template/) */
#define PCB_DESIGN(d) extern const struct pcb_design memcg_design_##d;
#include "designs.def"
#undef PCB_DESIGN

static const struct pcb_design *const memcg_designs[] = {
#define PCB_DESIGN(d) &memcg_design_##d,
#include "designs.def"
#undef PCB_DESIGN
	NULL,
};

static const char *const memcg_fn_name[MEMCG_FN_NR] = {
	[MEMCG_FN_CONSUME_STOCK] = "consume_stock",
	[MEMCG_FN_REFILL_STOCK] = "refill_stock",
	[MEMCG_FN_MOD_OBJCG_STATE] = "mod_objcg_state",
	[MEMCG_FN_CONSUME_OBJ_STOCK] = "consume_obj_stock",
	[MEMCG_FN_REFILL_OBJ_STOCK] = "refill_obj_stock",
	[MEMCG_FN_KMALLOC] = "kmalloc",
	[MEMCG_FN_MEMCG_HOOKS] = "memcg_hooks",
	[MEMCG_FN_CHARGE] = "try_charge_memcg",
	[MEMCG_FN_DRAIN_ALL_STOCK] = "drain_all_stock",
};

static const char *const memcg_ev_name[MEMCG_NR_EV] = {
	[MEMCG_EV_STOCK_HIT] = "stock_hits",
	[MEMCG_EV_STOCK_MISS] = "stock_misses",
	[MEMCG_EV_PC_CHARGE] = "page_counter_charges",
	[MEMCG_EV_PC_UNCHARGE] = "page_counter_uncharges",
	[MEMCG_EV_RSEQ_ABORT] = "rseq_aborts",
};

static const struct pcb_workload_info memcg_workloads[MEMCG_WL_NR] = {
	[MEMCG_WL_CHARGE] = { "charge",
		"page charges and uncharges as try_charge_memcg()/uncharge_batch() make them; "
		"a random walk of each worker's held pages" },
	[MEMCG_WL_KMALLOC] = { "kmalloc",
		"kmalloc()/kfree() of accounted objects through the slab hooks "
		"(obj_cgroup_charge(), mod_objcg_state()); batch timing: seed 000's burst benchmark" },
	[MEMCG_WL_MIXED] = { "mixed",
		"page and object operations mixed (workload.obj_share): all five functions "
		"from their callers, as seed 000's 2.2 stress test" },
	[MEMCG_WL_MULTI_MEMCG] = { "multi_memcg",
		"page charges to workload.memcgs memcgs in turn" },
	[MEMCG_WL_NETPERF] = { "netperf",
		"seed 002's netperf shape: a CPU charges for its own task's memcg and, from "
		"softirq, for the flows hashed to it (workload.memcgs clients over "
		"workload.queues receive CPUs); whole charges timed" },
};

int memcg_finish(void *config, int timing, const struct pcb_scenario *sc,
		 char *err, size_t errlen);
void memcg_describe(const void *config, char *buf, size_t len);
void memcg_kernel(void *config, char *note, size_t len);
void memcg_describe_design(const void *config, const struct pcb_design *d, char *buf,
			   size_t len);

/* the stock's size, its hit rate and atomics, the kmalloc burst */
static void memcg_result_json(json_t *dj, const struct pcb_model_figures *f)
{
	const struct memcg_config *c = f->config;
	const struct pcb_stat *k = &f->fn_total[MEMCG_FN_KMALLOC];
	uint64_t hit = f->ev[MEMCG_EV_STOCK_HIT], miss = f->ev[MEMCG_EV_STOCK_MISS];
	json_t *ev = json_object();

	json_object_set_new(dj, "cache_bytes", json_integer((json_int_t)f->variant->stock_size));
	json_object_set_new(dj, "cache_hot_bytes",
			    json_integer((json_int_t)f->variant->stock_hot_bytes));
	if (f->design) {
		const struct pcb_stock_place p = memcg_place(c, f->design);

		json_object_set_new(dj, "stock_placement", json_string(p.packed ? "packed" :
								       "aligned"));
		json_object_set_new(dj, "stock_offset", json_integer(p.offset));
	}
	/* NR_MEMCG_STOCK of the build: stock.slots, or what the design's kernel fixes */
	json_object_set_new(dj, "slots", json_integer(memcg_ops(f->variant)->slots));
	json_object_set_new(dj, "irq_model", json_string(pcb_irq_model_names[c->irq_model]));
	if (k->samples) {
		double min = (double)k->min_raw - f->overhead;

		json_object_set_new(dj, "kmalloc_burst", json_pack("{s:I,s:I,s:f,s:f}",
			"bursts", (json_int_t)k->samples, "objects", (json_int_t)c->burst,
			"min_us", f->tsc_hz > 0 ? min / f->tsc_hz * 1e6 : 0.0,
			"min_cycles_per_op", min / (double)c->burst));
	}
	for (int e = 0; e < MEMCG_NR_EV; e++)
		json_object_set_new(ev, memcg_ev_name[e], json_integer((json_int_t)f->ev[e]));
	if (hit + miss) {
		json_object_set_new(ev, "hit_rate", json_real((double)hit / (double)(hit + miss)));
		/* each page_counter call is one atomic per level up to the root */
		json_object_set_new(ev, "atomics_per_charge",
				    json_real((double)(f->ev[MEMCG_EV_PC_CHARGE] +
						       f->ev[MEMCG_EV_PC_UNCHARGE]) *
					      c->depth / (double)(hit + miss)));
	}
	json_object_set_new(dj, "events", ev);
}

/* seed 002's question: how often the stock serves a charge, and page_counter's traffic */
static const struct pcb_model_column memcg_stock_columns[] = {
	{ "hit rate %", 16, { "events.hit_rate", 2, 100 } },
	{ "misses", 16, { "events.stock_misses", PCB_COUNT } },
	{ "page_counter atomics per charge", 0, { "events.atomics_per_charge", 3 } },
	{ NULL },
};

static const struct pcb_model_block memcg_blocks[] = {
	/* where each CPU's stock sat: patch 1/5 of seed 000 is this line */
	{ .when = "stock_placement",
	  .line = "memcg_stock {stock_placement:s}, at byte {stock_offset} of its cache line, "
		  "{cache_bytes} bytes" },
	{ .title = "stock", .columns = memcg_stock_columns },
	/* seed 000's kmalloc benchmark (1M kmalloc(8), min of 100): the best burst */
	{ .when = "kmalloc_burst",
	  .line = "kmalloc x {kmalloc_burst.objects}: min {kmalloc_burst.min_us:0} us, "
		  "{kmalloc_burst.min_cycles_per_op:2} cycles per kmalloc (best of "
		  "{kmalloc_burst.bursts} bursts)" },
	{ NULL },
};

/* seed 002: NR_MEMCG_STOCK's slots against the memcgs charged in turn */
static const struct pcb_model_plot memcg_plots[] = {
	{ .name = "multi-memcg", .title = "multi-memcg stock against the memcgs charged in turn",
	  .help = "Diff % against the baseline configuration, stock hit\n"
		  "rate and page_counter atomics per charge, against a\n"
		  "swept workload.memcgs",
	  .sweep = "workload.memcgs", .gain_var = "ngain",
	  .series = { { { "events.hit_rate", 2, 100 }, "nstock" },
		      { { "events.atomics_per_charge", 3 } } } },
	{ NULL },
};

/* the first model: results from before run.model are its */
static const struct pcb_model_output memcg_output = {
	.result_json = memcg_result_json,
	.note_key = "accounting",
	.blocks = memcg_blocks,
	.plots = memcg_plots,
	.caches_name = "stocks",
	/* the workers line of results written before describe() */
	.old_header = { "workload {run.workload}, nr_pages {workload.nr_pages}",
			"memcg depth {memcg.depth}" },
	.default_for_old_results = true,
};

static const struct pcb_model_calib memcg_calib = {
	.design = "local_lock",
	.fn = MEMCG_FN_CONSUME_STOCK,
	.bare = memcg_bare_consume_loop,
};

const struct pcb_model memcg_model = {
	.name = "memcg",
	.summary = "struct memcg_stock_pcp: the charge and object stock, page_counter, "
		   "drain_all_stock() (mm/memcontrol.c)",
	.fn_name = memcg_fn_name,
	.nr_fn = MEMCG_FN_NR,
	.ev_name = memcg_ev_name,
	.nr_ev = MEMCG_NR_EV,
	.designs = memcg_designs,
	.workloads = memcg_workloads,
	.nr_workloads = MEMCG_WL_NR,
	.cache_name = "stock",
	.target_name = "memcg",
	.drain_name = "drain_all_stock",
	.invariant_name = "charge invariant",
	.config = {
		.keys = memcg_keys,
		.nr_keys = MEMCG_NR_KEYS,
		.size = sizeof(struct memcg_config),
		.finish = memcg_finish,
		.rules = memcg_rules,
		.describe = memcg_describe,
		.describe_design = memcg_describe_design,
		.kernel = memcg_kernel,
	},
	.ops = MEMCG_MODEL_OPS,
	.output = &memcg_output,
	.calib = &memcg_calib,
};
