/* SPDX-License-Identifier: MIT */
/*
 * The slabs behind every design's per-CPU layer (mm/slub.c): a slab's
 * freelist updated by cmpxchg16b, the node's partial list under list_lock,
 * new slabs from the page allocator (allocate_slab(), new_slab()) and
 * empty ones given back (discard_slab()), __slab_free(), and the bulk free
 * of a sheaf's objects (build_detached_freelist(), __kmem_cache_free_bulk()).
 *
 * The sheaves designs follow the mm/slub.c where sheaves are every cache's
 * per-CPU layer (no frozen slabs: __slab_free() takes list_lock when a
 * slab becomes empty or stops being full); kmem_cache_cpu
 * (SHEAVES_CPU_SLAB) follows v6.8's, whose CPU slab is frozen and takes
 * remote frees without list operations, built without
 * CONFIG_SLUB_CPU_PARTIAL. Left out, as their static keys or config
 * options leave them in production: the memcg, KASAN, KFENCE, kmemleak
 * and allocation-profiling hooks, slab debugging, freelist randomization,
 * pfmemalloc slabs and SLAB_TYPESAFE_BY_RCU.
 *
 * A template: the design header comes first (kernels/sheaves/designs/).
 */
#ifndef PCB_SHEAVES_SLUB_H
#define PCB_SHEAVES_SLUB_H

#include "sheaves_model.h"

#ifndef SHEAVES_CPU_SLAB
#define SHEAVES_CPU_SLAB 0
#endif

#define SLUB_E2BIG	7
#define SLUB_ENOMEM	12

#ifndef __KERNEL__
/* include/linux/err.h (the kernel backend has the kernel's) */
#define MAX_ERRNO	4095

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return unlikely((unsigned long)ptr >= (unsigned long)-MAX_ERRNO);
}
#endif

static inline struct slab *slab_of(struct list_head *lh)
{
	return (struct slab *)((char *)lh - offsetof(struct slab, slab_list));
}

/* stat(): CONFIG_SLUB_STATS's counters, the slow paths' only (sheaves_model.h) */
#define slub_stat(this, item) pcb_count(this, SHEAVES_EV_##item)

static inline void slub_stat_add(struct pcb_cpu *this, int ev, unsigned long v)
{
	this->ev[ev] += v;
}

/* ---- the page allocator, alloc_slab_page() and __free_slab() ---- */

/* alloc_slab_page(): a block, its node set as page_to_nid() reads it */
static inline struct slab *alloc_slab_page(struct pcb_cpu *this, struct kmem_cache *s, int node)
{
	struct slab_pool *p = s->pages;
	struct slab *slab = NULL;
	unsigned long flags = spin_lock_irqsave(this, &p->lock, __func__);

	if (!list_empty(&p->free)) {
		slab = slab_of(p->free.next);
		list_del(&slab->slab_list);
		p->nr_free--;
	}
	spin_unlock_irqrestore(this, &p->lock, flags);
	if (slab)
		WRITE_ONCE(slab->flags, (unsigned long)node << SLAB_NODE_SHIFT);
	return slab;
}

/* __free_slab(): __ClearPageSlab(), and the block back to the page allocator */
static inline void __free_slab(struct pcb_cpu *this, struct kmem_cache *s, struct slab *slab)
{
	struct slab_pool *p = s->pages;
	unsigned long flags;

	WRITE_ONCE(slab->slab_cache, NULL);
	WRITE_ONCE(slab->flags, 0);
	flags = spin_lock_irqsave(this, &p->lock, __func__);
	list_add(&slab->slab_list, &p->free);
	p->nr_free++;
	spin_unlock_irqrestore(this, &p->lock, flags);
}

/*
 * allocate_slab(): a block, its objects chained in address order (no
 * freelist randomization; setup_object() does nothing without a
 * constructor or debugging)
 */
static inline struct slab *allocate_slab(struct pcb_cpu *this, struct kmem_cache *s, int node)
{
	struct slab *slab = alloc_slab_page(this, s, node);
	unsigned char *start;

	if (!slab)
		return NULL;
	WRITE_ONCE(slab->counters, fc_make(0, s->oo_objects, 0));
	WRITE_ONCE(slab->slab_cache, s);
	start = slab_address(s, slab);
	for (unsigned int idx = 0; idx < s->oo_objects - 1; idx++)
		set_freepointer(s, start + idx * s->size, start + (idx + 1) * s->size);
	set_freepointer(s, start + (s->oo_objects - 1) * s->size, NULL);
	WRITE_ONCE(slab->freelist, start);
	return slab;
}

static inline struct slab *new_slab(struct pcb_cpu *this, struct kmem_cache *s, int node)
{
	return allocate_slab(this, s, node);
}

/* inc_slabs_node(), dec_slabs_node(): CONFIG_SLUB_DEBUG's atomics */
static inline void inc_slabs_node(struct kmem_cache *s, int node, unsigned int objects)
{
	struct kmem_cache_node *n = get_node(s, node);

	atomic_fetch_add_explicit(&n->nr_slabs, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&n->total_objects, objects, memory_order_relaxed);
}

static inline void dec_slabs_node(struct kmem_cache *s, int node, unsigned int objects)
{
	struct kmem_cache_node *n = get_node(s, node);

	atomic_fetch_sub_explicit(&n->nr_slabs, 1, memory_order_relaxed);
	atomic_fetch_sub_explicit(&n->total_objects, objects, memory_order_relaxed);
}

/* free_slab() without debugging or RCU: __free_slab() */
static inline void discard_slab(struct pcb_cpu *this, struct kmem_cache *s, struct slab *slab)
{
	dec_slabs_node(s, slab_nid(slab), fc_objects(READ_ONCE(slab->counters)));
	__free_slab(this, s, slab);
}

/* ---- the node's partial list ---- */

/* SL_partial, set and cleared with set_bit()/clear_bit(): locked operations */
static inline bool slab_test_node_partial(const struct slab *slab)
{
	return READ_ONCE(slab->flags) & SL_PARTIAL;
}

static inline void slab_set_node_partial(struct slab *slab)
{
	__atomic_fetch_or(&slab->flags, SL_PARTIAL, __ATOMIC_RELAXED);
}

static inline void slab_clear_node_partial(struct slab *slab)
{
	__atomic_fetch_and(&slab->flags, ~SL_PARTIAL, __ATOMIC_RELAXED);
}

enum add_mode {
	ADD_TO_HEAD,
	ADD_TO_TAIL,
};

static inline void add_partial(struct kmem_cache_node *n, struct slab *slab, enum add_mode mode)
{
	WRITE_ONCE(n->nr_partial, n->nr_partial + 1);
	if (mode == ADD_TO_TAIL)
		list_add_tail(&slab->slab_list, &n->partial);
	else
		list_add(&slab->slab_list, &n->partial);
	slab_set_node_partial(slab);
}

static inline void remove_partial(struct kmem_cache_node *n, struct slab *slab)
{
	list_del(&slab->slab_list);
	slab_clear_node_partial(slab);
	WRITE_ONCE(n->nr_partial, n->nr_partial - 1);
}

/* ---- freeing to a slab ---- */

/*
 * __slab_free(): cnt objects, head to tail already chained, onto their
 * slab's freelist by cmpxchg16b; list_lock only where the slab becomes
 * empty or stops being full. kmem_cache_cpu's frozen CPU slab takes frees
 * without list operations (v6.8, without CONFIG_SLUB_CPU_PARTIAL).
 */
static __attribute__((__noinline__, unused)) void
__slab_free(struct pcb_cpu *this, struct kmem_cache *s, struct slab *slab, void *head, void *tail,
	    unsigned int cnt)
{
	struct kmem_cache_node *n = NULL;
	struct freelist_counters old, new;
	bool was_full, was_frozen = false, on_node_partial = false;
	unsigned long flags = 0;

	do {
		if (unlikely(n)) {
			spin_unlock_irqrestore(this, &n->list_lock, flags);
			n = NULL;
		}
		slab_read_freelist(slab, &old);
		was_full = old.freelist == NULL;
		set_freepointer(s, tail, old.freelist);
		new.freelist = head;
		new.counters = old.counters - cnt;	/* new.inuse -= cnt */
#if SHEAVES_CPU_SLAB
		was_frozen = fc_frozen(old.counters);
#endif
		if ((!fc_inuse(new.counters) || was_full) && !was_frozen) {
			n = get_node(s, slab_nid(slab));
			/* speculatively: a failed cmpxchg drops it */
			flags = spin_lock_irqsave(this, &n->list_lock, __func__);
			on_node_partial = slab_test_node_partial(slab);
		}
	} while (!slab_update_freelist(slab, &old, &new));

	if (likely(!n))
		return;		/* on the partial list and staying, or frozen */
	if (!was_full && !on_node_partial) {
		spin_unlock_irqrestore(this, &n->list_lock, flags);
		return;
	}
	if (unlikely(!fc_inuse(new.counters) && n->nr_partial >= s->min_partial)) {
		if (likely(!was_full))
			remove_partial(n, slab);
		spin_unlock_irqrestore(this, &n->list_lock, flags);
		slub_stat(this, FREE_SLAB);
		discard_slab(this, s, slab);
		return;
	}
	if (unlikely(was_full))
		add_partial(n, slab, ADD_TO_TAIL);
	spin_unlock_irqrestore(this, &n->list_lock, flags);
}

struct detached_freelist {
	struct slab *slab;
	void *tail;
	void *freelist;
	unsigned int cnt;
};

/*
 * build_detached_freelist(): from the end of p[], the objects of one slab
 * chained into a freelist, with a look-ahead of three; returns how many of
 * p[] are left
 */
static inline size_t build_detached_freelist(struct kmem_cache *s, size_t size, void **p,
					     struct detached_freelist *df)
{
	int lookahead = 3;
	void *object = p[--size];
	size_t same;

	df->slab = virt_to_slab(s, object);
	df->tail = object;
	df->freelist = object;
	df->cnt = 1;
	set_freepointer(s, object, NULL);

	same = size;
	while (size) {
		object = p[--size];
		if (df->slab == virt_to_slab(s, object)) {
			set_freepointer(s, object, df->freelist);
			df->freelist = object;
			df->cnt++;
			same--;
			if (size != same) {
				void *t = p[size];

				p[size] = p[same];
				p[same] = t;
			}
			continue;
		}
		if (!--lookahead)
			break;
	}
	return same;
}

/* __kmem_cache_free_bulk(): each slab's share of p[] in one __slab_free() */
static inline void __kmem_cache_free_bulk(struct pcb_cpu *this, struct kmem_cache *s, size_t size,
					  void **p)
{
	while (size) {
		struct detached_freelist df;

		size = build_detached_freelist(s, size, p, &df);
		__slab_free(this, s, df.slab, df.freelist, df.tail, df.cnt);
	}
}

#endif
