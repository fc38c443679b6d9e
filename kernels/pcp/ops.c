/* SPDX-License-Identifier: MIT */
/*
 * The page allocator model's run-time operations (struct pcb_model_ops):
 * the zone, the memcg tree and the LRU one design's runs share, each
 * CPU's lists and each worker set up, what a drain drains, and what an
 * empty cache is (the invariant is page_alloc.c's). Built into the
 * program and into the kernel backend's module (kmod/); model.c
 * registers them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef __KERNEL__
#include <sys/mman.h>
#endif

#include "../bitops.h"
#include "../template/template.h"
#include "pcb/plan.h"

#include "pcp_model.h"

#define PCB_AXIS PCB_AXIS_ENTRY
static const struct pcb_axis pcp_axes[] = {
#include "variants.def"
};
#undef PCB_AXIS

/*
 * variant[] of a design, by variants.def: where the lock sits (as the
 * design's kernel has it, unless pcp.lock_placement says), the irq_model
 */
int pcp_variant_index(const void *config, const struct pcb_design *d)
{
	const struct pcp_config *c = config;
	long value[] = { pcp_lock_first(c, d), c->irq_model };

	return pcb_variant_index(pcp_axes, PCB_NR_AXES(pcp_axes), value);
}

/*
 * The zone and the LRU, zeroed, each lock starting a cache line. In
 * userspace pages of their own, where the setup's memory policy puts them
 * (the workers' node), as a zone is part of its node's pglist_data; in the
 * kernel backend the module's allocation on the setting-up CPU's node.
 */
static struct pcp_shared *pcp_shared_alloc(void)
{
#ifdef __KERNEL__
	size_t size = (sizeof(struct pcp_shared) + SMP_CACHE_BYTES - 1) & ~(size_t)(SMP_CACHE_BYTES - 1);
	struct pcp_shared *s = aligned_alloc(SMP_CACHE_BYTES, size);

	if (s)
		memset(s, 0, size);
	return s;
#else
	struct pcp_shared *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return s == MAP_FAILED ? NULL : s;
#endif
}

static void pcp_shared_free(struct pcp_shared *s)
{
#ifdef __KERNEL__
	free(s);
#else
	munmap(s, sizeof(*s));
#endif
}

void *pcp_setup(const struct pcb_model_setup *ms, char *err, size_t errlen)
{
	struct pcp_shared *s = pcp_shared_alloc();

	if (!s) {
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
		pcp_shared_free(s);
		return NULL;
	}
	pcb_nr_online_cpus = ms->nr_cpus;
	s->zone.time_hold = s->cfg.zone_hold;
	if (s->cfg.workload == PCP_WL_PAGE_FAULT && s->cfg.accounting == PCP_ACCT_STATIC_KEY)
		s->key_patched = memcg_static_key_setup(false, ms->note, ms->notelen);
	return s;
}

void pcp_teardown(void *shared)
{
	struct pcp_shared *s = shared;

	if (!s)
		return;
	if (s->cfg.accounting == PCP_ACCT_STATIC_KEY)
		memcg_static_key_teardown(s->key_patched);
	memcg_tree_destroy(&s->tree);
	pcp_zone_destroy(&s->zone);
	pcp_shared_free(s);
}

/*
 * calculate_normal_threshold() (mm/vmstat.c): 2 fls(online CPUs) (1 +
 * fls(the zone's memory in 128 MB units)), at most 125
 */
static int calculate_normal_threshold(const struct zone *zone)
{
	unsigned long mem = zone->nr_pages >> (27 - 12);
	int threshold = 2 * (int)fls_long((unsigned long)pcb_nr_online_cpus) * (1 + (int)fls_long(mem));

	return threshold < 125 ? threshold : 125;
}

/* struct per_cpu_pages' high and batch, and the memcg part of a fault's charge */
void pcp_cpu_setup(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu)
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

void pcp_worker_setup(void *shared, struct pcb_worker *pw)
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

void *pcp_drain_target(void *shared)
{
	return &((struct pcp_shared *)shared)->zone;
}

bool pcp_cache_empty(void *shared, const struct pcb_variant *v, struct pcb_cpu *cpu)
{
	(void)shared;
	return pcp_ops(v)->pcp_count(cpu->stock) == 0;
}

const struct pcb_model_ops pcp_model_ops = PCP_MODEL_OPS;

const struct pcb_model_run pcp_model_run = {
	.name = "pcp",
	.ops = &pcp_model_ops,
	.keys = pcp_keys,
	.nr_keys = PCP_NR_KEYS,
	.config_size = sizeof(struct pcp_config),
	.rules = pcp_rules,
};
_Static_assert(sizeof(struct pcp_config) <= PCB_PLAN_CONFIG_MAX, "the settings fit a plan");
