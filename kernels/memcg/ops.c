/* SPDX-License-Identifier: MIT */
/*
 * The memcg model's run-time operations (struct pcb_model_ops): the
 * state one design's runs share, each CPU's and each worker's set-up,
 * what a drain drains and leaves, and the invariant. Built into the
 * program and into the kernel backend's module (kmod/), which runs the
 * same operations around the same loops; model.c registers them.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../clear_page.h"
#include "../template/template.h"
#include "pcb/plan.h"

#include "memcg_model.h"

#define PCB_AXIS PCB_AXIS_ENTRY
static const struct pcb_axis memcg_axes[] = {
#include "variants.def"
};
#undef PCB_AXIS

/* seed 003: memcg_in_use_key, off while only the root memcg exists */
struct static_key_false memcg_in_use_key = STATIC_KEY_FALSE_INIT;
int mem_cgroup_subsys_disabled;

/*
 * variant[] of a design, by variants.def: the stock's slots (those of the
 * design's kernel where it fixes them), the irq_model (any design)
 */
int memcg_variant_index(const void *config, const struct pcb_design *d)
{
	const struct memcg_config *c = config;
	const struct memcg_design_info *info = d ? d->info : NULL;
	long value[] = { info && info->slots ? info->slots : c->slots, c->irq_model };

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
		pcb_static_key_flag(&memcg_in_use_key, on);
	}
	return patched;
}

void memcg_static_key_teardown(int patched)
{
	if (patched)
		pcb_static_key_set(&memcg_in_use_key, false);
	pcb_static_key_flag(&memcg_in_use_key, false);
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

void *memcg_setup(const struct pcb_model_setup *ms, char *err, size_t errlen)
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
	s->online.max = ms->nr_cpus > 0 ? ms->nr_cpus : 1;
	s->online.cpu = calloc((size_t)s->online.max, sizeof(*s->online.cpu));
	if (!s->online.cpu) {
		snprintf(err, errlen, "out of memory");
		memcg_tree_destroy(&s->tree);
		free(s);
		return NULL;
	}
	/* memory.max of every memcg a worker charges */
	for (int m = 0; s->cfg.max && m < s->tree.nr_leaves; m++)
		s->tree.leaf[m]->memory.max = (unsigned long)s->cfg.max;
	if (s->cfg.clear_pages && memcg_clear_setup(s, ms->nr_cpus, err, errlen) < 0) {
		memcg_tree_destroy(&s->tree);
		free(s->online.cpu);
		free(s);
		return NULL;
	}
	if (s->cfg.accounting >= MEMCG_ACCT_STATIC_KEY)
		s->key_patched = memcg_static_key_setup(s->cfg.accounting == MEMCG_ACCT_STATIC_KEY_ON,
							ms->note, ms->notelen);
	return s;
}

void memcg_teardown(void *shared)
{
	struct memcg_shared *s = shared;

	if (!s)
		return;
	memcg_static_key_teardown(s->key_patched);
	if (s->clear_area)
		munmap(s->clear_area, s->clear_len);
	memcg_tree_destroy(&s->tree);
	free(s->online.cpu);
	free(s);
}

struct pcb_stock_place memcg_stock_place(const void *shared, const struct pcb_design *d)
{
	return memcg_place(&((const struct memcg_shared *)shared)->cfg, d);
}

void memcg_cpu_setup(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu)
{
	struct memcg_shared *s = shared;
	struct memcg_cpu *mc = memcg_cpu(cpu);

	mc->nocache = d->nocache && (!s->cfg.nocache_isolated_only || cpu->isolated);
	mc->evict_round_robin = s->cfg.eviction_round_robin;
	mc->evict_state = 2463534242u;	/* xorshift32's customary seed */
}

void memcg_worker_setup(void *shared, struct pcb_worker *pw)
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
	/*
	 * cpu_online_mask for its charge path: the workers' CPUs, this one
	 * among them, each registered before the run's start, which orders
	 * them before any charge
	 */
	{
		int i = __atomic_fetch_add(&s->online.reserved, 1, __ATOMIC_RELAXED);

		if (i < s->online.max) {
			s->online.cpu[i] = pw->cpu;
			memcg_cpu(pw->cpu)->online = &s->online;
			__atomic_fetch_add(&s->online.nr, 1, __ATOMIC_RELEASE);
		}
	}
	w->nr_pages = (unsigned int)c->nr_pages;
	w->hold = c->hold;
	w->uncharge_refill = c->uncharge_refill;
	w->obj_share = c->obj_share;
	w->obj_size = (unsigned int)c->object_size + (unsigned int)sizeof(void *);	/* obj_full_size() */
	w->burst = (uint64_t)c->burst;
	w->accounting = c->accounting;
	w->key_patched = s->key_patched;
	w->think_ticks = pcb_ns_ticks(pw, (uint64_t)c->think_ns);
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

void *memcg_drain_target(void *shared)
{
	struct memcg_shared *s = shared;

	return s->cfg.drain_target_leaf ? s->tree.leaf[0] : s->tree.memcg[0];
}

unsigned long memcg_stranded(void *shared, const struct pcb_variant *v, void *target,
				    struct pcb_cpu *cpu)
{
	struct memcg_shared *s = shared;

	return memcg_stock_pages_under(v, cpu->stock, &s->tree, target);
}

int memcg_check(const struct pcb_quiescent *q, char *msg, size_t len)
{
	struct memcg_shared *s = q->shared;

	return memcg_check_charges(&s->tree, q, msg, len);
}

bool memcg_cache_empty(void *shared, const struct pcb_variant *v, struct pcb_cpu *cpu)
{
	struct memcg_shared *s = shared;

	return memcg_stock_empty(v, cpu->stock, &s->tree);
}

const struct pcb_model_ops memcg_model_ops = MEMCG_MODEL_OPS;

const struct pcb_model_run memcg_model_run = {
	.name = "memcg",
	.ops = &memcg_model_ops,
	.keys = memcg_keys,
	.nr_keys = MEMCG_NR_KEYS,
	.config_size = sizeof(struct memcg_config),
	.rules = memcg_rules,
};
_Static_assert(sizeof(struct memcg_config) <= PCB_PLAN_CONFIG_MAX, "the settings fit a plan");
