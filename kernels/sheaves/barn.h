/* SPDX-License-Identifier: MIT */
/*
 * What stands behind a CPU's sheaves (mm/slub.c, the sheaves-for-all
 * rework): empty sheaves from kmalloc (alloc_empty_sheaf(),
 * free_empty_sheaf()), a sheaf refilled from the node's partial slabs or
 * new ones (refill_sheaf(): refill_objects(), __refill_objects_node(),
 * get_partial_node_bulk(), get_freelist_nofreeze(), alloc_from_new_slab())
 * and flushed back to its slabs (sheaf_flush_unused():
 * __kmem_cache_free_bulk()), and the node's barn of full and empty sheaves
 * under its spinlock (barn_get_empty_sheaf(), barn_put_empty_sheaf(),
 * barn_put_full_sheaf(), barn_replace_empty_sheaf(),
 * barn_replace_full_sheaf(), barn_shrink()).
 *
 * Every caller here may spin (allow_spin, false only for
 * kmalloc_nolock(), which the model does not make), and blocks
 * (GFP_KERNEL). Where v6.18 as merged differs: its refill_sheaf() took the
 * objects through __kmem_cache_alloc_bulk() and the CPU slab, and its
 * barn functions had no allow_spin. The other nodes' partial lists
 * (__refill_objects_any()) are not searched: a refill short on its own
 * node takes new slabs.
 */
#ifndef PCB_SHEAVES_BARN_H
#define PCB_SHEAVES_BARN_H

#include "slub.h"

static inline struct slab_sheaf *sheaf_of(struct list_head *lh)
{
	return (struct slab_sheaf *)((char *)lh - offsetof(struct slab_sheaf, barn_list));
}

/* ---- sheaves from kmalloc ---- */

/*
 * __alloc_empty_sheaf(): kzalloc(struct_size(sheaf, objects, capacity)),
 * a kmalloc-512 object at the default capacity of 60, zeroed whole
 */
static inline struct slab_sheaf *alloc_empty_sheaf(struct pcb_cpu *this, struct kmem_cache *s)
{
	struct sheaf_pool *p = s->sheaves;
	struct slab_sheaf *sheaf = NULL;
	unsigned long flags = spin_lock_irqsave(this, &p->lock, __func__);

	if (!list_empty(&p->free)) {
		sheaf = sheaf_of(p->free.next);
		list_del(&sheaf->barn_list);
		p->nr_free--;
	}
	spin_unlock_irqrestore(this, &p->lock, flags);
	if (unlikely(!sheaf))
		return NULL;
	/*
	 * zeroed whole, as kzalloc() does; size by a store of its own, which
	 * another CPU's racy has_pcs_used() may read in a sheaf freed and
	 * taken again since it loaded the pointer
	 */
	__builtin_memset(sheaf, 0, offsetof(struct slab_sheaf, size));
	WRITE_ONCE(sheaf->size, 0);
	__builtin_memset(&sheaf->node, 0, p->bytes - offsetof(struct slab_sheaf, node));
	sheaf->cache = s;
	slub_stat(this, SHEAF_ALLOC);
	return sheaf;
}

/* free_empty_sheaf(): kfree() */
static inline void free_empty_sheaf(struct pcb_cpu *this, struct kmem_cache *s,
				    struct slab_sheaf *sheaf)
{
	struct sheaf_pool *p = s->sheaves;
	unsigned long flags = spin_lock_irqsave(this, &p->lock, __func__);

	list_add(&sheaf->barn_list, &p->free);
	p->nr_free++;
	spin_unlock_irqrestore(this, &p->lock, flags);
	slub_stat(this, SHEAF_FREE);
}

/* ---- a sheaf's objects from the slabs ---- */

/* struct partial_bulk_context */
struct partial_bulk_context {
	unsigned int min_objects;
	unsigned int max_objects;
	struct list_head slabs;
};

/*
 * get_partial_node_bulk(): partial slabs off the node's list, under
 * list_lock, until they hold max objects (or min, where the next would
 * overshoot max); their free counts read racily, a lower bound
 */
static inline bool get_partial_node_bulk(struct pcb_cpu *this, struct kmem_cache_node *n,
					 struct partial_bulk_context *pc)
{
	struct list_head *lh, *next;
	unsigned int total_free = 0;
	unsigned long flags;

	if (!n || !READ_ONCE(n->nr_partial))
		return false;
	INIT_LIST_HEAD(&pc->slabs);
	flags = spin_lock_irqsave(this, &n->list_lock, __func__);
	for (lh = n->partial.next; lh != &n->partial; lh = next) {
		struct slab *slab = slab_of(lh);
		unsigned long counters = READ_ONCE(slab->counters);
		unsigned int slab_free = fc_objects(counters) - fc_inuse(counters);

		next = lh->next;
		if (total_free >= pc->min_objects && total_free + slab_free > pc->max_objects)
			break;
		remove_partial(n, slab);
		list_add(&slab->slab_list, &pc->slabs);
		total_free += slab_free;
		if (total_free >= pc->max_objects)
			break;
	}
	spin_unlock_irqrestore(this, &n->list_lock, flags);
	return total_free > 0;
}

/* get_freelist_nofreeze(): the whole freelist of a slab off the lists, inuse = objects */
static inline void *get_freelist_nofreeze(struct slab *slab)
{
	struct freelist_counters old, new;

	slab_read_freelist(slab, &old);
	do {
		new.freelist = NULL;
		new.counters = fc_make(fc_objects(old.counters), fc_objects(old.counters), 0);
	} while (!slab_update_freelist(slab, &old, &new));
	return old.freelist;
}

/* the freelist's remainder back to its slab, as a detached freelist */
static inline void refill_give_back(struct pcb_cpu *this, struct kmem_cache *s, struct slab *slab,
				    void *object)
{
	void *head = object, *tail;
	unsigned int cnt = 0;

	do {
		tail = object;
		cnt++;
		object = get_freepointer(s, object);
	} while (object);
	__slab_free(this, s, slab, head, tail, cnt);
}

/* the slabs a refill took and did not empty: back on the list, or discarded */
static inline void refill_put_slabs(struct pcb_cpu *this, struct kmem_cache *s,
				    struct kmem_cache_node *n, struct list_head *slabs)
{
	struct list_head *lh, *next;
	unsigned long flags = spin_lock_irqsave(this, &n->list_lock, "__refill_objects_node");

	for (lh = slabs->next; lh != slabs; lh = next) {
		struct slab *slab = slab_of(lh);

		next = lh->next;
		if (unlikely(!fc_inuse(READ_ONCE(slab->counters)) &&
			     n->nr_partial >= s->min_partial))
			continue;
		list_del(&slab->slab_list);
		add_partial(n, slab, ADD_TO_HEAD);
	}
	spin_unlock_irqrestore(this, &n->list_lock, flags);
	/* any slabs left are completely free and for discard */
	for (lh = slabs->next; lh != slabs; lh = next) {
		next = lh->next;
		list_del(lh);
		discard_slab(this, s, slab_of(lh));
	}
}

/* __refill_objects_node(): up to max objects into p[] from the node's partial slabs */
static inline unsigned int __refill_objects_node(struct pcb_cpu *this, struct kmem_cache *s,
						 void **p, unsigned int min, unsigned int max,
						 struct kmem_cache_node *n)
{
	struct partial_bulk_context pc = { .min_objects = min, .max_objects = max };
	struct list_head *lh, *next;
	unsigned int refilled = 0;

	if (!get_partial_node_bulk(this, n, &pc))
		return 0;
	for (lh = pc.slabs.next; lh != &pc.slabs; lh = next) {
		struct slab *slab = slab_of(lh);
		void *object;

		next = lh->next;
		list_del(&slab->slab_list);
		object = get_freelist_nofreeze(slab);
		while (object && refilled < max) {
			p[refilled] = object;
			object = get_freepointer(s, object);
			refilled++;
		}
		/* the freelist had more than we can take: free the rest back */
		if (unlikely(object))
			refill_give_back(this, s, slab, object);
		if (refilled >= max)
			break;
	}
	if (unlikely(!list_empty(&pc.slabs)))
		refill_put_slabs(this, s, n, &pc.slabs);
	return refilled;
}

/*
 * alloc_from_new_slab(): up to count objects from a slab nobody else sees
 * yet; onto the partial list if it keeps some
 */
static inline unsigned int alloc_from_new_slab(struct pcb_cpu *this, struct kmem_cache *s,
					       struct slab *slab, void **p, unsigned int count)
{
	unsigned int objects = fc_objects(slab->counters), allocated = 0;
	bool needs_add_partial = objects > count;
	void *object = slab->freelist;

	while (object && allocated < count) {
		p[allocated] = object;
		object = get_freepointer(s, object);
		allocated++;
	}
	WRITE_ONCE(slab->freelist, object);
	WRITE_ONCE(slab->counters, fc_make(allocated, objects, 0));
	if (needs_add_partial) {
		struct kmem_cache_node *n = get_node(s, slab_nid(slab));
		unsigned long flags = spin_lock_irqsave(this, &n->list_lock, __func__);

		add_partial(n, slab, ADD_TO_HEAD);
		spin_unlock_irqrestore(this, &n->list_lock, flags);
	}
	inc_slabs_node(s, slab_nid(slab), objects);
	return allocated;
}

/* refill_objects(): the local node's partial slabs, then new slabs until min */
static inline unsigned int refill_objects(struct pcb_cpu *this, struct kmem_cache *s, void **p,
					  unsigned int min, unsigned int max)
{
	int local_node = numa_mem_id(this);
	unsigned int refilled = __refill_objects_node(this, s, p, min, max,
						      get_node(s, local_node));

	while (refilled < min) {
		struct slab *slab = new_slab(this, s, local_node);

		if (!slab)
			break;
		slub_stat(this, ALLOC_SLAB);
		refilled += alloc_from_new_slab(this, s, slab, p + refilled, max - refilled);
	}
	return refilled;
}

/* refill_sheaf(): to capacity; -ENOMEM when short */
static inline int refill_sheaf(struct pcb_cpu *this, struct kmem_cache *s, struct slab_sheaf *sheaf)
{
	unsigned int to_fill = s->sheaf_capacity - sheaf->size, filled;

	if (!to_fill)
		return 0;
	filled = refill_objects(this, s, &sheaf->objects[sheaf->size], to_fill, to_fill);
	WRITE_ONCE(sheaf->size, sheaf->size + filled);
	slub_stat_add(this, SHEAVES_EV_SHEAF_REFILL, filled);
	return filled < to_fill ? -SLUB_ENOMEM : 0;
}

/*
 * sheaf_flush_unused(): every object of a sheaf no CPU has back to its
 * slab, no lock needed
 */
static inline void sheaf_flush_unused(struct pcb_cpu *this, struct kmem_cache *s,
				      struct slab_sheaf *sheaf)
{
	if (!sheaf->size)
		return;
	slub_stat_add(this, SHEAVES_EV_SHEAF_FLUSH, sheaf->size);
	__kmem_cache_free_bulk(this, s, sheaf->size, &sheaf->objects[0]);
	WRITE_ONCE(sheaf->size, 0);
}

/*
 * alloc_full_sheaf(); a refill that comes short flushes what it got
 * before the sheaf is freed, as mm/slub.c does since
 */
static inline struct slab_sheaf *alloc_full_sheaf(struct pcb_cpu *this, struct kmem_cache *s)
{
	struct slab_sheaf *sheaf = alloc_empty_sheaf(this, s);

	if (!sheaf)
		return NULL;
	if (refill_sheaf(this, s, sheaf)) {
		sheaf_flush_unused(this, s, sheaf);
		free_empty_sheaf(this, s, sheaf);
		return NULL;
	}
	return sheaf;
}

/* ---- the barn ---- */

static inline struct slab_sheaf *barn_get_empty_sheaf(struct pcb_cpu *this, struct node_barn *barn)
{
	struct slab_sheaf *empty = NULL;
	unsigned long flags;

	if (!READ_ONCE(barn->nr_empty))
		return NULL;
	flags = spin_lock_irqsave(this, &barn->lock, __func__);
	if (likely(barn->nr_empty)) {
		empty = sheaf_of(barn->sheaves_empty.next);
		list_del(&empty->barn_list);
		WRITE_ONCE(barn->nr_empty, barn->nr_empty - 1);
	}
	spin_unlock_irqrestore(this, &barn->lock, flags);
	return empty;
}

/* the next two undo an intended action: they do not check the barn's limits */
static inline void barn_put_empty_sheaf(struct pcb_cpu *this, struct node_barn *barn,
					struct slab_sheaf *sheaf)
{
	unsigned long flags = spin_lock_irqsave(this, &barn->lock, __func__);

	list_add(&sheaf->barn_list, &barn->sheaves_empty);
	WRITE_ONCE(barn->nr_empty, barn->nr_empty + 1);
	spin_unlock_irqrestore(this, &barn->lock, flags);
}

static inline void barn_put_full_sheaf(struct pcb_cpu *this, struct node_barn *barn,
				       struct slab_sheaf *sheaf)
{
	unsigned long flags = spin_lock_irqsave(this, &barn->lock, __func__);

	list_add(&sheaf->barn_list, &barn->sheaves_full);
	WRITE_ONCE(barn->nr_full, barn->nr_full + 1);
	spin_unlock_irqrestore(this, &barn->lock, flags);
}

/* a full sheaf for the empty one, which the barn keeps whatever its limit */
static inline struct slab_sheaf *barn_replace_empty_sheaf(struct pcb_cpu *this,
							  struct node_barn *barn,
							  struct slab_sheaf *empty)
{
	struct slab_sheaf *full = NULL;
	unsigned long flags;

	if (!READ_ONCE(barn->nr_full))
		return NULL;
	flags = spin_lock_irqsave(this, &barn->lock, __func__);
	if (likely(barn->nr_full)) {
		full = sheaf_of(barn->sheaves_full.next);
		list_del(&full->barn_list);
		list_add(&empty->barn_list, &barn->sheaves_empty);
		WRITE_ONCE(barn->nr_full, barn->nr_full - 1);
		WRITE_ONCE(barn->nr_empty, barn->nr_empty + 1);
	}
	spin_unlock_irqrestore(this, &barn->lock, flags);
	return full;
}

/* an empty sheaf for the full one; -E2BIG past MAX_FULL_SHEAVES, -ENOMEM with none */
static inline struct slab_sheaf *barn_replace_full_sheaf(struct pcb_cpu *this,
							 struct node_barn *barn,
							 struct slab_sheaf *full)
{
	struct slab_sheaf *empty;
	unsigned long flags;

	/* we don't repeat this check under barn->lock as it's not critical */
	if (READ_ONCE(barn->nr_full) >= MAX_FULL_SHEAVES)
		return ERR_PTR(-SLUB_E2BIG);
	if (!READ_ONCE(barn->nr_empty))
		return ERR_PTR(-SLUB_ENOMEM);
	flags = spin_lock_irqsave(this, &barn->lock, __func__);
	if (likely(barn->nr_empty)) {
		empty = sheaf_of(barn->sheaves_empty.next);
		list_del(&empty->barn_list);
		list_add(&full->barn_list, &barn->sheaves_full);
		WRITE_ONCE(barn->nr_empty, barn->nr_empty - 1);
		WRITE_ONCE(barn->nr_full, barn->nr_full + 1);
	} else {
		empty = ERR_PTR(-SLUB_ENOMEM);
	}
	spin_unlock_irqrestore(this, &barn->lock, flags);
	return empty;
}

/* barn_shrink(): every sheaf out of the barn, the full ones flushed, all freed */
static inline void barn_shrink(struct pcb_cpu *this, struct kmem_cache *s, struct node_barn *barn)
{
	struct list_head empty_list, full_list, *lh, *next;
	unsigned long flags;

	INIT_LIST_HEAD(&empty_list);
	INIT_LIST_HEAD(&full_list);
	flags = spin_lock_irqsave(this, &barn->lock, __func__);
	list_splice_init(&barn->sheaves_full, &full_list);
	WRITE_ONCE(barn->nr_full, 0);
	list_splice_init(&barn->sheaves_empty, &empty_list);
	WRITE_ONCE(barn->nr_empty, 0);
	spin_unlock_irqrestore(this, &barn->lock, flags);

	for (lh = full_list.next; lh != &full_list; lh = next) {
		next = lh->next;
		sheaf_flush_unused(this, s, sheaf_of(lh));
		free_empty_sheaf(this, s, sheaf_of(lh));
	}
	for (lh = empty_list.next; lh != &empty_list; lh = next) {
		next = lh->next;
		free_empty_sheaf(this, s, sheaf_of(lh));
	}
}

#endif
