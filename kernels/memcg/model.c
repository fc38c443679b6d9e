/* SPDX-License-Identifier: MIT */
/*
 * The memcg charge and object stock model, as the harness knows it: one
 * struct pcb_model. Its designs are listed in designs.def, its keys in
 * keys.c, its invariant in check.c.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../clear_page.h"
#include "../locks/irq.h"
#include "../template/template.h"
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

#define PCB_AXIS PCB_AXIS_ENTRY
static const struct pcb_axis memcg_axes[] = {
#include "variants.def"
};
#undef PCB_AXIS

static const char *const memcg_fn_name[MEMCG_FN_NR] = {
	[MEMCG_FN_CONSUME_STOCK] = "consume_stock",
	[MEMCG_FN_REFILL_STOCK] = "refill_stock",
	[MEMCG_FN_MOD_OBJCG_STATE] = "mod_objcg_state",
	[MEMCG_FN_CONSUME_OBJ_STOCK] = "consume_obj_stock",
	[MEMCG_FN_REFILL_OBJ_STOCK] = "refill_obj_stock",
	[MEMCG_FN_KMALLOC] = "kmalloc",
	[MEMCG_FN_MEMCG_HOOKS] = "memcg_hooks",
	[MEMCG_FN_CHARGE] = "try_charge_memcg",
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

/* seed 003: memcg_in_use_key, off while only the root memcg exists */
struct static_key_false memcg_in_use_key = STATIC_KEY_FALSE_INIT;
int mem_cgroup_subsys_disabled;

static const char *const irq_model_names[] = PCB_IRQ_MODEL_NAMES;

extern const struct pcb_key memcg_keys[];
int memcg_finish(void *config, int timing, const struct pcb_scenario *sc,
		 char *err, size_t errlen);
void memcg_describe(const void *config, char *buf, size_t len);

/* variant[] of a design, by variants.def: the stock's slots, the irq_model (any design) */
static int memcg_variant_index(const void *config, const struct pcb_design *d)
{
	const struct memcg_config *c = config;
	long value[] = { c->slots, c->irq_model };

	(void)d;
	return pcb_variant_index(memcg_axes, PCB_NR_AXES(memcg_axes), value);
}

/* the seed 003 jump label: rewritten where the text can be, else a test, and said so */
int memcg_static_key_setup(bool on, char *note, size_t notelen)
{
	char why[200];
	int patched = pcb_static_key_patchable(why, sizeof(why)) == 0;

	if (patched) {
		snprintf(note, notelen, "jump label: %d sites rewritten to %s",
			 pcb_static_key_sites(&memcg_in_use_key), on ? "jmp" : "a 5-byte nop");
		pcb_static_key_set(&memcg_in_use_key, on);
	} else {
		snprintf(note, notelen, "NOT a jump label: a test of the key (%s)", why);
		memcg_in_use_key.enabled = on;
	}
	return patched;
}

void memcg_static_key_teardown(int patched)
{
	if (patched)
		pcb_static_key_set(&memcg_in_use_key, false);
	memcg_in_use_key.enabled = 0;
}

/*
 * workload.clear_pages: the pages each worker zeroes, reserved for every
 * CPU and faulted in by the worker that takes the slice (worker_setup),
 * pinned, so that first touch puts them on its node. 4 KiB pages, as
 * clear_page() clears: no transparent huge page spans two workers' slices.
 */
static size_t memcg_clear_slice(const struct memcg_config *c)
{
	return (size_t)c->clear_pages * PCB_CLEAR_PAGE_SIZE;
}

static int memcg_clear_setup(struct memcg_shared *s, int nr_cpus, char *err, size_t errlen)
{
	s->clear_len = memcg_clear_slice(&s->cfg) * (size_t)nr_cpus;
	s->clear_area = mmap(NULL, s->clear_len, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->clear_area == MAP_FAILED) {
		s->clear_area = NULL;
		snprintf(err, errlen, "workload.clear_pages: cannot map %zu MiB for %d CPUs: %s",
			 s->clear_len >> 20, nr_cpus, strerror(errno));
		return -1;
	}
	(void)madvise(s->clear_area, s->clear_len, MADV_NOHUGEPAGE);
	return 0;
}

static void *memcg_setup(const struct pcb_model_setup *ms, char *err, size_t errlen)
{
	struct memcg_shared *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->cfg = *(const struct memcg_config *)ms->config;
	s->design = ms->d;
	if (memcg_tree_create(&s->tree, s->cfg.depth,
			      s->cfg.workload == MEMCG_WL_MULTI_MEMCG ||
			      s->cfg.workload == MEMCG_WL_NETPERF ? s->cfg.memcgs : 1) < 0) {
		snprintf(err, errlen, "out of memory for the memcg tree");
		free(s);
		return NULL;
	}
	pcb_nr_online_cpus = ms->nr_cpus;
	if (s->cfg.clear_pages && memcg_clear_setup(s, ms->nr_cpus, err, errlen) < 0) {
		memcg_tree_destroy(&s->tree);
		free(s);
		return NULL;
	}
	if (s->cfg.accounting >= MEMCG_ACCT_STATIC_KEY)
		s->key_patched = memcg_static_key_setup(s->cfg.accounting == MEMCG_ACCT_STATIC_KEY_ON,
							ms->note, ms->notelen);
	return s;
}

static void memcg_teardown(void *shared)
{
	struct memcg_shared *s = shared;

	if (!s)
		return;
	memcg_static_key_teardown(s->key_patched);
	if (s->clear_area)
		munmap(s->clear_area, s->clear_len);
	memcg_tree_destroy(&s->tree);
	free(s);
}

static void memcg_cpu_setup(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu)
{
	struct memcg_shared *s = shared;
	struct memcg_cpu *mc = memcg_cpu(cpu);

	mc->nocache = d->nocache && (!s->cfg.nocache_isolated_only || cpu->isolated);
	mc->evict_round_robin = s->cfg.eviction_round_robin;
	mc->evict_state = 2463534242u;	/* xorshift32's customary seed */
}

static void memcg_worker_setup(void *shared, struct pcb_worker *pw)
{
	struct memcg_shared *s = shared;
	const struct memcg_config *c = &s->cfg;
	struct memcg_worker *w = memcg_worker(pw);

	if (c->workload == MEMCG_WL_MULTI_MEMCG) {
		w->nr_memcgs = c->memcgs;
		for (int m = 0; m < c->memcgs; m++)
			w->memcg[m] = s->tree.leaf[m];
	} else if (c->workload == MEMCG_WL_NETPERF) {
		/* receive queue q takes the flows j with j % queues == q; its task is client q */
		int q = (int)(pw->cpu->cpu % (unsigned int)c->queues);

		w->nr_memcgs = 0;
		for (int m = q; m < c->memcgs; m += c->queues)
			w->memcg[w->nr_memcgs++] = s->tree.leaf[m];
		w->nr_flows = w->nr_memcgs;
		w->task = s->tree.leaf[q % c->memcgs];
		/* the task's memcg is held too: it is charged whether or not it is a flow here */
		if (!w->nr_flows || w->memcg[0] != w->task)
			w->memcg[w->nr_memcgs++] = w->task;
		w->softirq_share = c->softirq_share;
	} else {
		w->nr_memcgs = 1;
		w->memcg[0] = s->tree.leaf[0];
	}
	w->pgdat = &s->tree.pgdat[0];
	w->workload = c->workload;
	w->nr_pages = (unsigned int)c->nr_pages;
	w->hold = c->hold;
	w->uncharge_refill = c->uncharge_refill;
	w->obj_share = c->obj_share;
	w->obj_size = (unsigned int)c->object_size + (unsigned int)sizeof(void *);	/* obj_full_size() */
	w->burst = (uint64_t)c->burst;
	w->accounting = c->accounting;
	w->key_patched = s->key_patched;
	w->think_ticks = (uint64_t)((double)c->think_ns * pw->tsc_hz / 1e9);
	w->between = c->between;
	if (s->clear_area) {
		size_t off = (size_t)atomic_fetch_add(&s->clear_next_slice, 1) * memcg_clear_slice(c);

		if (off + memcg_clear_slice(c) <= s->clear_len) {
			w->clear_area = s->clear_area + off;
			w->clear_pages = (unsigned int)c->clear_pages;
			memset(w->clear_area, 0, memcg_clear_slice(c));
		}
	}
	if (c->accounting != MEMCG_ACCT_MEMCG)
		w->memcg[0] = s->tree.memcg[0];	/* only the root memcg exists */
}

static void *memcg_drain_target(void *shared)
{
	struct memcg_shared *s = shared;

	return s->cfg.drain_target_leaf ? s->tree.leaf[0] : s->tree.memcg[0];
}

static unsigned long memcg_stranded(void *shared, const struct pcb_variant *v, void *target,
				    struct pcb_cpu *cpu)
{
	struct memcg_shared *s = shared;

	return memcg_stock_pages_under(v, cpu->stock, &s->tree, target);
}

static int memcg_check(const struct pcb_quiescent *q, char *msg, size_t len)
{
	struct memcg_shared *s = q->shared;

	return memcg_check_charges(&s->tree, q, msg, len);
}

static bool memcg_cache_empty(void *shared, const struct pcb_variant *v, struct pcb_cpu *cpu)
{
	struct memcg_shared *s = shared;

	return memcg_stock_empty(v, cpu->stock, &s->tree);
}

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
	json_object_set_new(dj, "slots", json_integer(c->slots));
	json_object_set_new(dj, "irq_model", json_string(irq_model_names[c->irq_model]));
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
		.describe = memcg_describe,
	},
	.ops = {
		.variant_index = memcg_variant_index,
		.setup = memcg_setup,
		.teardown = memcg_teardown,
		.cpu_setup = memcg_cpu_setup,
		.worker_size = sizeof(struct memcg_worker),
		.worker_setup = memcg_worker_setup,
		.drain_target = memcg_drain_target,
		.stranded = memcg_stranded,
		.check = memcg_check,
		.cache_empty = memcg_cache_empty,
	},
	.output = &memcg_output,
	.calib = &memcg_calib,
};
