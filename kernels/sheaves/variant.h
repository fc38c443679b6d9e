/* SPDX-License-Identifier: MIT */
/*
 * The sheaves model's part of the design template (kernels/template/): one
 * design (PCB_DESIGN_HEADER) in one build variant (SLAB_FREELIST_HARDENED;
 * PCB_IRQ_MODEL, the irq_model cost; its variants.def). A sheaves design's
 * per-CPU cache is struct slub_percpu_sheaves (sheaves.h); kmem_cache_cpu's
 * is v6.8's struct kmem_cache_cpu (cpu_slab.h).
 */
#ifndef PCB_SHEAVES_VARIANT_H
#define PCB_SHEAVES_VARIANT_H

#include "sheaves_model.h"

#include PCB_DESIGN_HEADER

#ifndef SHEAVES_CPU_SLAB
#define SHEAVES_CPU_SLAB 0		/* struct slub_percpu_sheaves */
#endif

#if SHEAVES_CPU_SLAB
#include "cpu_slab.h"
#define MODEL_STOCK		struct kmem_cache_cpu
#define MODEL_STOCK_HOT_BYTES	(offsetof(struct kmem_cache_cpu, slab) + sizeof(struct slab *))
#else
#include "sheaves.h"
#define MODEL_STOCK		struct slub_percpu_sheaves
#define MODEL_STOCK_HOT_BYTES	offsetof(struct slub_percpu_sheaves, rcu_free)
#endif
#include SHEAVES_DRAIN_HEADER
#include "shrink.h"
#include "loop.h"

#define MODEL_CPU		struct sheaves_cpu

static void FN(run)(struct pcb_worker *pw)
{
	struct sheaves_worker *w = sheaves_worker(pw);

	pcb_drain_online();
	if (w->role == SHEAVES_ALONE)
		sheaves_loop_alloc_free(w);
	else
		sheaves_loop_handoff(w);
	pcb_drain_offline();
}

static void FN(release)(struct pcb_worker *w)
{
	sheaves_release_held(sheaves_worker(w));
}

/* an empty cache: its lock set up for cpu; the main sheaf comes at cpu_setup() */
static void FN(stock_init)(const struct pcb_cpu *cpu, void *stock)
{
	__builtin_memset(stock, 0, sizeof(MODEL_STOCK));
#if !SHEAVES_CPU_SLAB
	pcs_lock_init(cpu, (struct slub_percpu_sheaves *)stock);
#else
	(void)cpu;
#endif
}

static pcb_work_data_t *FN(work_data)(struct pcb_cpu *cpu)
{
	return &sheaves_cpu(cpu)->flush.work.data;
}

/* the flush work, on its CPU: flush_cpu_sheaves() (flush_cpu_slab()) */
static void FN(drain_local)(struct pcb_cpu *this)
{
	struct sheaves_cpu *sc = sheaves_cpu(this);
	struct kmem_cache *s = READ_ONCE(sc->flush.s);

	slub_flush_cpu(this, s ? s : sc->cache);
}

/* kmem_cache_shrink() of the cache, over the online cpus[] */
static void FN(drain_all)(struct pcb_cpu *this, void *cache, struct pcb_cpu *const *cpus, int nr)
{
	__kmem_cache_shrink(this, cache, cpus, nr);
}

static void FN(prefill)(struct pcb_cpu *cpu, void *shared)
{
	slub_prefill(cpu, &((struct sheaves_shared *)shared)->cache);
}

static const struct sheaves_ops FN(ops) = {
	.cpu_slab = SHEAVES_CPU_SLAB,
	.hardened = SLAB_FREELIST_HARDENED,
	.stock_size = sizeof(MODEL_STOCK),
#if SHEAVES_CPU_SLAB
	.lock_offset = offsetof(struct kmem_cache_cpu, lock),
	.lock_size = 0,				/* local_lock_t: empty on !PREEMPT_RT */
	.freelist_offset = offsetof(struct kmem_cache_cpu, freelist),
	.tid_offset = offsetof(struct kmem_cache_cpu, tid),
	.slab_offset = offsetof(struct kmem_cache_cpu, slab),
#else
	.lock_offset = offsetof(struct slub_percpu_sheaves, lock),
	.lock_size = sizeof(pcs_lock_t),
	.main_offset = offsetof(struct slub_percpu_sheaves, main),
	.spare_offset = offsetof(struct slub_percpu_sheaves, spare),
	.rcu_free_offset = offsetof(struct slub_percpu_sheaves, rcu_free),
#endif
	.lock_name = PCS_LOCK_NAME,
};

#endif
