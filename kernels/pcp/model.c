/* SPDX-License-Identifier: MIT */
/*
 * The page allocator's per-CPU page lists (seed 004), as the harness knows
 * them: one struct pcb_model. Designs in designs.def, keys in keys.c, the
 * zone and the invariant in page_alloc.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../locks/irq.h"
#include "../template/template.h"
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

#define PCB_AXIS PCB_AXIS_ENTRY
static const struct pcb_axis pcp_axes[] = {
#include "variants.def"
};
#undef PCB_AXIS

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

static const char *const irq_model_names[] = PCB_IRQ_MODEL_NAMES;

extern const struct pcb_key pcp_keys[];
int pcp_finish(void *config, int timing, const struct pcb_scenario *sc, char *err, size_t errlen);
void pcp_describe(const void *config, char *buf, size_t len);
void pcp_describe_design(const void *config, const struct pcb_design *d, char *buf, size_t len);

/*
 * variant[] of a design, by variants.def: where the lock sits (as the
 * design's kernel has it, unless pcp.lock_placement says), the irq_model
 */
static int pcp_variant_index(const void *config, const struct pcb_design *d)
{
	const struct pcp_config *c = config;
	long value[] = { pcp_lock_first(c, d), c->irq_model };

	return pcb_variant_index(pcp_axes, PCB_NR_AXES(pcp_axes), value);
}

/*
 * Pages of its own, where the setup's memory policy puts them (the
 * workers' node), as a zone is part of its node's pglist_data; zeroed and
 * page-aligned, so the zone's lock and the LRU's each start a cache line.
 */
static void *pcp_setup(const struct pcb_model_setup *ms, char *err, size_t errlen)
{
	struct pcp_shared *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (s == MAP_FAILED) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->cfg = *(const struct pcp_config *)ms->config;
	s->design = ms->d;
	spin_lock_init(&s->lruvec.lru_lock);
	INIT_LIST_HEAD(&s->lruvec.list);
	if (pcp_zone_create(&s->zone, (unsigned long)s->cfg.zone_pages, err, errlen) < 0 ||
	    memcg_tree_create(&s->tree, s->cfg.depth, 1) < 0) {
		if (!*err)
			snprintf(err, errlen, "out of memory for the memcg tree");
		pcp_zone_destroy(&s->zone);
		munmap(s, sizeof(*s));
		return NULL;
	}
	pcb_nr_online_cpus = ms->nr_cpus;
	s->zone.time_hold = s->cfg.zone_hold;
	if (s->cfg.workload == PCP_WL_PAGE_FAULT && s->cfg.accounting == PCP_ACCT_STATIC_KEY)
		s->key_patched = memcg_static_key_setup(false, ms->note, ms->notelen);
	return s;
}

static void pcp_teardown(void *shared)
{
	struct pcp_shared *s = shared;

	if (!s)
		return;
	if (s->cfg.accounting == PCP_ACCT_STATIC_KEY)
		memcg_static_key_teardown(s->key_patched);
	memcg_tree_destroy(&s->tree);
	pcp_zone_destroy(&s->zone);
	munmap(s, sizeof(*s));
}

static int fls(unsigned long x)
{
	return x ? 64 - __builtin_clzl(x) : 0;
}

/*
 * calculate_normal_threshold() (mm/vmstat.c): 2 fls(online CPUs) (1 +
 * fls(the zone's memory in 128 MB units)), at most 125
 */
static int calculate_normal_threshold(const struct zone *zone)
{
	unsigned long mem = zone->nr_pages >> (27 - 12);
	int threshold = 2 * fls((unsigned long)pcb_nr_online_cpus) * (1 + fls(mem));

	return threshold < 125 ? threshold : 125;
}

/* struct per_cpu_pages' high and batch, and the memcg part of a fault's charge */
static void pcp_cpu_setup(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu)
{
	struct pcp_shared *s = shared;
	const struct pcp_ops *ops = pcp_ops(d->variant[pcp_variant_index(&s->cfg, d)]);

	ops->pcp_set(cpu->stock, s->cfg.high, s->cfg.batch);
	if (cpu->stock_spare)
		ops->pcp_set(cpu->stock_spare, s->cfg.high, s->cfg.batch);
	pcp_cpu(cpu)->zone = &s->zone;
	memset(&pcp_cpu(cpu)->zonestat, 0, sizeof(pcp_cpu(cpu)->zonestat));
	pcp_cpu(cpu)->zonestat.stat_threshold = (signed char)calculate_normal_threshold(&s->zone);
}

static void pcp_worker_setup(void *shared, struct pcb_worker *pw)
{
	struct pcp_shared *s = shared;
	struct pcp_worker *w = pcp_worker(pw);

	w->zone = &s->zone;
	w->lruvec = &s->lruvec;
	w->workload = s->cfg.workload;
	w->burst = s->cfg.burst;
	w->map_pages = s->cfg.map_pages;
	w->accounting = s->cfg.accounting;
	w->clear = s->cfg.clear;
	w->key_patched = s->key_patched;
	w->memcg = s->cfg.accounting == PCP_ACCT_MEMCG ? s->tree.leaf[0] : s->tree.memcg[0];
}

static void *pcp_drain_target(void *shared)
{
	return &((struct pcp_shared *)shared)->zone;
}

static bool pcp_cache_empty(void *shared, const struct pcb_variant *v, struct pcb_cpu *cpu)
{
	(void)shared;
	return pcp_ops(v)->pcp_count(cpu->stock) == 0;
}

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
	json_object_set_new(dj, "irq_model", json_string(irq_model_names[c->irq_model]));
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
		.describe = pcp_describe,
		.describe_design = pcp_describe_design,
	},
	.ops = {
		.variant_index = pcp_variant_index,
		.setup = pcp_setup,
		.teardown = pcp_teardown,
		.cpu_setup = pcp_cpu_setup,
		.worker_size = sizeof(struct pcp_worker),
		.worker_setup = pcp_worker_setup,
		.drain_target = pcp_drain_target,
		.check = pcp_check,
		.cache_empty = pcp_cache_empty,
	},
	.output = &pcp_output,
};
