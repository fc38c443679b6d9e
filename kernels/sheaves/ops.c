/* SPDX-License-Identifier: MIT */
/*
 * The sheaves model's run-time operations (struct pcb_model_ops): the
 * cache one design's runs share, each CPU's sheaves and each worker set
 * up, what a flush flushes, and what an empty per-CPU cache is (the
 * invariant is slub.c's). Built into the program and into the kernel
 * backend's module (kmod/); model.c registers them.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../template/template.h"
#include "pcb/plan.h"

#include "sheaves_model.h"

#define PCB_AXIS PCB_AXIS_ENTRY
static const struct pcb_axis sheaves_axes[] = {
#include "variants.def"
};
#undef PCB_AXIS

/* variant[] of a design, by variants.def: the freelist hardening, the irq_model */
int sheaves_variant_index(const void *config, const struct pcb_design *d)
{
	const struct sheaves_config *c = config;
	long value[] = { c->hardened, c->irq_model };

	(void)d;
	return pcb_variant_index(sheaves_axes, PCB_NR_AXES(sheaves_axes), value);
}

void sheaves_teardown(void *shared)
{
	struct sheaves_shared *sh = shared;

	if (!sh)
		return;
	sheaves_cache_destroy(sh);
	free(sh);
}

void *sheaves_setup(const struct pcb_model_setup *ms, char *err, size_t errlen)
{
	/* the pools' locks each start a cache line */
	size_t size = (sizeof(struct sheaves_shared) + SMP_CACHE_BYTES - 1) &
		      ~(size_t)(SMP_CACHE_BYTES - 1);
	struct sheaves_shared *sh = aligned_alloc(SMP_CACHE_BYTES, size);

	if (sh)
		memset(sh, 0, size);
	if (!sh) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	sh->cfg = *(const struct sheaves_config *)ms->config;
	sh->design = ms->d;
	if (sheaves_cache_create(sh, ms->nr_cpus, err, errlen) < 0) {
		sheaves_teardown(sh);
		return NULL;
	}
	return sh;
}

/* init_percpu_sheaves()' alloc_empty_sheaf(), from setup: the pool under its lock */
static struct slab_sheaf *setup_empty_sheaf(struct pcb_cpu *cpu, struct kmem_cache *s)
{
	struct sheaf_pool *p = s->sheaves;
	struct slab_sheaf *sheaf = NULL;

	pcb_spin_lock(cpu, &p->lock, "init_percpu_sheaves");
	if (!list_empty(&p->free)) {
		sheaf = (struct slab_sheaf *)((char *)p->free.next -
					      offsetof(struct slab_sheaf, barn_list));
		list_del(&sheaf->barn_list);
		p->nr_free--;
	}
	pcb_spin_unlock(&p->lock);
	if (sheaf) {
		memset(sheaf, 0, p->bytes);
		sheaf->cache = s;
	}
	return sheaf;
}

/* s->nr_nodes: for_each_kmem_cache_node() walks the nodes CPUs are on */
static void note_node(struct kmem_cache *s, int node)
{
	int nr = __atomic_load_n(&s->nr_nodes, __ATOMIC_RELAXED);

	while (node >= nr && !__atomic_compare_exchange_n(&s->nr_nodes, &nr, node + 1, false,
							  __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/*
 * A CPU's part: the cache it serves, its node counted, and its per-CPU
 * struct as init_percpu_sheaves() leaves it (an empty main sheaf; the
 * spare set of an RCU flush too), or kmem_cache_cpu's tid (init_tid())
 */
void sheaves_cpu_setup(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu)
{
	struct sheaves_shared *sh = shared;
	const struct sheaves_ops *ops = sheaves_ops(d->variant[sheaves_variant_index(&sh->cfg, d)]);
	void *stocks[2] = { cpu->stock, cpu->stock_spare };

	sheaves_cpu(cpu)->cache = &sh->cache;
	sheaves_cpu(cpu)->flush.s = NULL;
	note_node(&sh->cache, numa_mem_id(cpu));
	if (ops->cpu_slab) {
		*(unsigned long *)((char *)cpu->stock + ops->tid_offset) = cpu->cpu;
		return;
	}
	for (int k = 0; k < 2; k++)
		if (stocks[k])
			*(struct slab_sheaf **)((char *)stocks[k] + ops->main_offset) =
				setup_empty_sheaf(cpu, &sh->cache);
}

/* the handoff pairs: the first and second worker set up, the third and fourth, ... */
void sheaves_worker_setup(void *shared, struct pcb_worker *pw)
{
	struct sheaves_shared *sh = shared;
	struct sheaves_worker *w = sheaves_worker(pw);
	int k = atomic_fetch_add(&sh->next_worker, 1);

	w->s = &sh->cache;
	w->workload = sh->cfg.workload;
	w->burst = sh->cfg.burst;
	w->role = SHEAVES_ALONE;
	if (k < 2 * sh->nr_rings) {
		w->role = k % 2 ? SHEAVES_FREER : SHEAVES_ALLOCATOR;
		w->ring = &sh->rings[k / 2];
	}
}

void *sheaves_drain_target(void *shared)
{
	return &((struct sheaves_shared *)shared)->cache;
}

/* after the final flush: nothing in the CPU's sheaves, no CPU slab */
bool sheaves_cache_empty(void *shared, const struct pcb_variant *v, struct pcb_cpu *cpu)
{
	const struct sheaves_ops *ops = sheaves_ops(v);
	struct slab_sheaf *main;

	(void)shared;
	if (ops->cpu_slab)
		return !sheaves_field(cpu->stock, ops->slab_offset) &&
		       !sheaves_field(cpu->stock, ops->freelist_offset);
	main = sheaves_field(cpu->stock, ops->main_offset);
	return !sheaves_field(cpu->stock, ops->spare_offset) && (!main || !main->size);
}

const struct pcb_model_ops sheaves_model_ops = SHEAVES_MODEL_OPS;

const struct pcb_model_run sheaves_model_run = {
	.name = "sheaves",
	.ops = &sheaves_model_ops,
	.keys = sheaves_keys,
	.nr_keys = SHEAVES_NR_KEYS,
	.config_size = sizeof(struct sheaves_config),
	.rules = sheaves_rules,
};
_Static_assert(sizeof(struct sheaves_config) <= PCB_PLAN_CONFIG_MAX, "the settings fit a plan");
