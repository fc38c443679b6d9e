/* SPDX-License-Identifier: MIT */
/*
 * The percpu sheaves (mm/slub.c, Vlastimil Babka, "slab: add opt-in caching
 * layer of percpu sheaves", v6.18; as the sheaves-for-all rework has it,
 * where they are every cache's): struct slub_percpu_sheaves under the
 * design's lock, alloc_from_pcs() and __pcs_replace_empty_main(),
 * free_to_pcs(), __pcs_replace_full_main() and __pcs_install_empty_sheaf(),
 * the slow path when the sheaves cannot serve (___slab_alloc():
 * get_from_partial_node(), a new slab), slab_alloc_node() and slab_free()
 * as kmem_cache_alloc() and kmem_cache_free() reach them, and a CPU's
 * flush (pcs_flush_all(), sheaf_flush_main()).
 *
 * A template over the design's lock: include a design header from
 * designs/ first. It defines
 *   pcs_lock_t, pcs_lock_init(cpu, pcs)	the lock in struct slub_percpu_sheaves
 *   pcs_trylock(this, pcs) -> bool		the owner's hot paths (local_trylock())
 *   pcs_lock(this, pcs), pcs_unlock(this, pcs)	local_lock() on the owner; a
 *						design that flushes remotely
 *						takes any CPU's
 *   SHEAVES_DRAIN_HEADER			"drain_work.h", "drain_remote.h"
 *						or "drain_qsbr.h"
 *   PCS_LOCK_NAME				the lock's type, for the output
 *
 * The flush's blocking form (sheaf_flush_main() over a CPU's sheaves, and
 * pcs_flush_all(s, cpu)) is the QPW series' ("slub: apply new
 * pw_queue_on() interface", Bras and Tosatti, v4, 2026), whose pw_lock()
 * is local_lock() on the owner where the lock stays local; the trylock
 * form __pcs_replace_full_main() uses is sheaf_try_flush_main() there, the
 * rework's sheaf_flush_main(). kfree_rcu()'s rcu_free sheaf is kept in the
 * layout and never filled.
 */
#ifndef PCB_SHEAVES_SHEAVES_H
#define PCB_SHEAVES_SHEAVES_H

#if !defined(SHEAVES_DRAIN_HEADER)
#error "include a design header from kernels/sheaves/designs/ before sheaves.h"
#endif

#include "barn.h"

struct slub_percpu_sheaves {
	pcs_lock_t lock;
	struct slab_sheaf *main;	/* never NULL when unlocked */
	struct slab_sheaf *spare;	/* empty or full, may be NULL */
	struct slab_sheaf *rcu_free;	/* for batching kfree_rcu() */
};

_Static_assert(sizeof(pcs_lock_t) <= 8 && offsetof(struct slub_percpu_sheaves, main) == 8 &&
	       offsetof(struct slub_percpu_sheaves, spare) == 16 &&
	       offsetof(struct slub_percpu_sheaves, rcu_free) == 24 &&
	       sizeof(struct slub_percpu_sheaves) == 32,
	       "struct slub_percpu_sheaves: the lock in the first word, then main, spare "
	       "and rcu_free, 32 bytes, whichever lock the design has");

/* this_cpu_ptr(s->cpu_sheaves); rcu_dereference() where a drain swaps it */
static inline struct slub_percpu_sheaves *this_cpu_pcs(struct pcb_cpu *this)
{
	return pcb_cpu_cache(this);
}

/*
 * local_trylock(&s->cpu_sheaves->lock) and local_lock(), then
 * this_cpu_ptr(): this CPU's sheaves locked, or NULL where the trylock
 * failed. Macros, so that a design counting contention names the kernel
 * function they expand in; a design that reaches the sheaves through a
 * pointer defines its own (designs/rcu.h).
 */
#ifndef pcs_trylock_this
#define pcs_trylock_this(this) ({						\
	struct slub_percpu_sheaves *pcs_ = this_cpu_pcs(this);			\
	pcs_trylock(this, pcs_) ? pcs_ : NULL; })
#endif
#ifndef pcs_lock_this
#define pcs_lock_this(this) ({							\
	struct slub_percpu_sheaves *pcs_ = this_cpu_pcs(this);			\
	pcs_lock(this, pcs_);							\
	pcs_; })
#endif

/*
 * A sheaf into main or spare. has_pcs_used() reads them racily from the
 * flushing CPU, and a sheaf's size through them: a release store, the
 * plain mov WRITE_ONCE() is on x86, so that the racy reader sees the
 * sheaf as kzalloc() left it
 */
static inline void pcs_publish(struct slab_sheaf **slot, struct slab_sheaf *sheaf)
{
	__atomic_store_n(slot, sheaf, __ATOMIC_RELEASE);
}

static inline void swap_sheaves(struct slab_sheaf **a, struct slab_sheaf **b)
{
	struct slab_sheaf *t = *a;

	pcs_publish(a, *b);
	pcs_publish(b, t);
}

/* ---- allocation ---- */

/* the refilled sheaf back under the lock, wherever we are now (the lock was dropped) */
static inline struct slub_percpu_sheaves *pcs_install_full(struct pcb_cpu *this,
							   struct node_barn *barn,
							   struct slab_sheaf *full)
{
	/* a trylock, as 7.3's __pcs_replace_empty_main() takes it again: NULL if it fails */
	struct slub_percpu_sheaves *pcs = pcs_trylock_this(this);

	if (!pcs)
		goto barn_put;
	if (pcs->main->size == 0) {
		if (!pcs->spare)
			pcs_publish(&pcs->spare, pcs->main);
		else
			barn_put_empty_sheaf(this, barn, pcs->main);
		pcs_publish(&pcs->main, full);
		return pcs;
	}
	if (!pcs->spare) {
		pcs_publish(&pcs->spare, full);
		return pcs;
	}
	if (pcs->spare->size == 0) {
		barn_put_empty_sheaf(this, barn, pcs->spare);
		pcs_publish(&pcs->spare, full);
		return pcs;
	}
barn_put:
	barn_put_full_sheaf(this, barn, full);
	slub_stat(this, BARN_PUT);
	return pcs;
}

/*
 * __pcs_replace_empty_main(): called locked with an empty main sheaf; the
 * spare if it has objects, else a full sheaf from the barn for the empty
 * one, else (GFP_KERNEL may block) the spare or an empty sheaf of the
 * barn refilled from the slabs with the lock dropped. Returns the sheaves
 * locked, or NULL unlocked.
 */
static __attribute__((__noinline__, unused)) struct slub_percpu_sheaves *
__pcs_replace_empty_main(struct pcb_cpu *this, struct kmem_cache *s, struct slub_percpu_sheaves *pcs)
{
	struct slab_sheaf *empty = NULL, *full;
	struct node_barn *barn;

	/* Bootstrap or debug cache, back off */
	if (unlikely(!s->sheaf_capacity)) {
		pcs_unlock(this, pcs);
		return NULL;
	}
	if (pcs->spare && pcs->spare->size > 0) {
		swap_sheaves(&pcs->main, &pcs->spare);
		return pcs;
	}
	barn = get_barn(s, this);
	if (!barn) {
		pcs_unlock(this, pcs);
		return NULL;
	}
	full = barn_replace_empty_sheaf(this, barn, pcs->main);
	if (full) {
		slub_stat(this, BARN_GET);
		pcs_publish(&pcs->main, full);
		return pcs;
	}
	slub_stat(this, BARN_GET_FAIL);
	if (pcs->spare) {
		empty = pcs->spare;
		pcs_publish(&pcs->spare, NULL);
	} else {
		empty = barn_get_empty_sheaf(this, barn);
	}
	pcs_unlock(this, pcs);

	if (empty) {
		if (!refill_sheaf(this, s, empty)) {
			full = empty;
		} else {
			/* we must be very low on memory so don't bother with the barn */
			sheaf_flush_unused(this, s, empty);
			free_empty_sheaf(this, s, empty);
		}
	} else {
		full = alloc_full_sheaf(this, s);
	}
	if (!full)
		return NULL;
	return pcs_install_full(this, barn, full);
}

/* alloc_from_pcs(): the last object of the main sheaf */
static __always_inline void *alloc_from_pcs(struct pcb_cpu *this, struct kmem_cache *s)
{
	struct slub_percpu_sheaves *pcs = pcs_trylock_this(this);
	struct slab_sheaf *main;
	unsigned int size;
	void *object;

	if (!pcs) {
		slub_stat(this, PCS_BUSY);
		return NULL;
	}
	if (unlikely(pcs->main->size == 0)) {
		pcs = __pcs_replace_empty_main(this, s, pcs);
		if (unlikely(!pcs))
			return NULL;
	}
	main = pcs->main;
	size = main->size;
	object = main->objects[size - 1];
	WRITE_ONCE(main->size, size - 1);
	pcs_unlock(this, pcs);
	return object;
}

/* get_from_partial_node(): one object of the node's first partial slab, under list_lock */
static inline void *get_from_partial_node(struct pcb_cpu *this, struct kmem_cache *s,
					  struct kmem_cache_node *n)
{
	struct freelist_counters old, new;
	unsigned long flags;
	struct slab *slab;
	void *object = NULL;

	if (!n || !READ_ONCE(n->nr_partial))
		return NULL;
	flags = spin_lock_irqsave(this, &n->list_lock, __func__);
	if (!list_empty(&n->partial)) {
		slab = slab_of(n->partial.next);
		do {
			slab_read_freelist(slab, &old);
			new.freelist = get_freepointer(s, old.freelist);
			new.counters = old.counters + 1;	/* new.inuse++ */
		} while (!slab_update_freelist(slab, &old, &new));
		object = old.freelist;
		if (!new.freelist)
			remove_partial(n, slab);
	}
	spin_unlock_irqrestore(this, &n->list_lock, flags);
	return object;
}

/*
 * ___slab_alloc(): the sheaves could not serve (their lock was taken); a
 * partial slab's object, else a new slab's (get_from_any_partial() not
 * modeled)
 */
static __attribute__((__noinline__, unused)) void *___slab_alloc(struct pcb_cpu *this,
							     struct kmem_cache *s)
{
	int node = numa_mem_id(this);

	slub_stat(this, ALLOC_SLOWPATH);
	for (;;) {
		void *object = get_from_partial_node(this, s, get_node(s, node));
		struct slab *slab;

		if (object)
			return object;
		slab = new_slab(this, s, node);
		if (unlikely(!slab))
			return NULL;
		slub_stat(this, ALLOC_SLAB);
		alloc_from_new_slab(this, s, slab, &object, 1);
		if (likely(object))
			return object;
	}
}

/* kmem_cache_alloc(): slab_alloc_node() */
static __always_inline void *kmem_cache_alloc(struct pcb_cpu *this, struct kmem_cache *s)
{
	void *object = alloc_from_pcs(this, s);

	if (!object)
		object = ___slab_alloc(this, s);
	return object;
}

/* ---- free ---- */

/*
 * __pcs_install_empty_sheaf(): locked again with an empty sheaf for the
 * full main; what an interruption or a migration changed meanwhile
 */
static inline void __pcs_install_empty_sheaf(struct pcb_cpu *this, struct kmem_cache *s,
					     struct slub_percpu_sheaves *pcs,
					     struct slab_sheaf *empty, struct node_barn *barn)
{
	if (likely(!pcs->spare)) {
		pcs_publish(&pcs->spare, pcs->main);
		pcs_publish(&pcs->main, empty);
		return;
	}
	if (pcs->main->size < s->sheaf_capacity) {
		barn_put_empty_sheaf(this, barn, empty);
		return;
	}
	if (pcs->spare->size < s->sheaf_capacity) {
		swap_sheaves(&pcs->main, &pcs->spare);
		barn_put_empty_sheaf(this, barn, empty);
		return;
	}
	barn_put_full_sheaf(this, barn, pcs->main);
	slub_stat(this, BARN_PUT);
	pcs_publish(&pcs->main, empty);
}

/*
 * Under the sheaves' lock: the main sheaf's last PCS_BATCH_MAX objects (or
 * fewer) moved to objects[], as sheaf_flush_main() and
 * sheaf_try_flush_main() take them; how many were moved, *remaining left
 */
static __always_inline unsigned int sheaf_take_batch(struct slub_percpu_sheaves *pcs,
						     void **objects, unsigned int *remaining)
{
	struct slab_sheaf *sheaf = pcs->main;
	unsigned int batch = pcb_min(PCS_BATCH_MAX, sheaf->size);

	*remaining = sheaf->size - batch;
	__builtin_memcpy(objects, sheaf->objects + *remaining, batch * sizeof(void *));
	WRITE_ONCE(sheaf->size, *remaining);
	return batch;
}

/*
 * sheaf_try_flush_main(): the main sheaf to its slabs, PCS_BATCH_MAX
 * objects at a time moved to the stack under the trylock; true if at
 * least part was flushed
 */
static inline bool sheaf_try_flush_main(struct pcb_cpu *this, struct kmem_cache *s)
{
	void *objects[PCS_BATCH_MAX];
	unsigned int batch, remaining;
	bool ret = false;

	do {
		struct slub_percpu_sheaves *pcs = pcs_trylock_this(this);

		if (!pcs)
			return ret;
		batch = sheaf_take_batch(pcs, objects, &remaining);
		pcs_unlock(this, pcs);
		__kmem_cache_free_bulk(this, s, batch, &objects[0]);
		slub_stat_add(this, SHEAVES_EV_SHEAF_FLUSH, batch);
		ret = true;
	} while (remaining);
	return ret;
}

/*
 * The rest of __pcs_replace_full_main(), with the lock dropped: an empty
 * sheaf installed (the one given, or a new one), or with none to be had
 * the main sheaf flushed; the sheaves locked again, or NULL. *restart: the
 * main sheaf is full again (we were interrupted), locked.
 */
static inline struct slub_percpu_sheaves *pcs_get_empty(struct pcb_cpu *this, struct kmem_cache *s,
							struct node_barn *barn,
							struct slab_sheaf *empty, bool put_fail,
							bool *restart)
{
	struct slub_percpu_sheaves *pcs;

	*restart = false;
	if (!empty)
		empty = alloc_empty_sheaf(this, s);	/* GFP_NOWAIT */
	if (!empty) {
		if (put_fail)
			slub_stat(this, BARN_PUT_FAIL);
		if (!sheaf_try_flush_main(this, s))
			return NULL;
		pcs = pcs_trylock_this(this);
		if (!pcs)
			return NULL;
		/* flushed, but in case we were interrupted, check again */
		*restart = pcs->main->size == s->sheaf_capacity;
		return pcs;
	}
	pcs = pcs_trylock_this(this);
	if (!pcs) {
		barn_put_empty_sheaf(this, barn, empty);
		return NULL;
	}
	__pcs_install_empty_sheaf(this, s, pcs, empty, barn);
	return pcs;
}

/*
 * __pcs_replace_full_main(): called locked with a full main sheaf; an
 * empty one from the barn, or the spare if it has room, or the full main
 * to the barn for an empty one; past MAX_FULL_SHEAVES the full spare is
 * flushed to its slabs instead, and with no empty sheaf anywhere one is
 * allocated, or the main flushed. Returns the sheaves locked, or NULL
 * unlocked.
 */
static __attribute__((__noinline__, unused)) struct slub_percpu_sheaves *
__pcs_replace_full_main(struct pcb_cpu *this, struct kmem_cache *s, struct slub_percpu_sheaves *pcs)
{
	struct slab_sheaf *empty;
	struct node_barn *barn;
	bool restart;

	do {
		/* Bootstrap or debug cache, back off */
		if (unlikely(!s->sheaf_capacity) || !(barn = get_barn(s, this))) {
			pcs_unlock(this, pcs);
			return NULL;
		}
		if (!pcs->spare) {
			empty = barn_get_empty_sheaf(this, barn);
			if (empty) {
				pcs_publish(&pcs->spare, pcs->main);
				pcs_publish(&pcs->main, empty);
				return pcs;
			}
			pcs_unlock(this, pcs);
			pcs = pcs_get_empty(this, s, barn, NULL, false, &restart);
			continue;
		}
		if (pcs->spare->size < s->sheaf_capacity) {
			swap_sheaves(&pcs->main, &pcs->spare);
			return pcs;
		}
		empty = barn_replace_full_sheaf(this, barn, pcs->main);
		if (!IS_ERR(empty)) {
			slub_stat(this, BARN_PUT);
			pcs_publish(&pcs->main, empty);
			return pcs;
		}
		if (PTR_ERR(empty) == -SLUB_E2BIG) {
			/* Since we got here, spare exists and is full */
			struct slab_sheaf *to_flush = pcs->spare;

			slub_stat(this, BARN_PUT_FAIL);
			pcs_publish(&pcs->spare, NULL);
			pcs_unlock(this, pcs);
			sheaf_flush_unused(this, s, to_flush);
			pcs = pcs_get_empty(this, s, barn, to_flush, false, &restart);
			continue;
		}
		/* no empty sheaf in the barn: allocate one, count the fail if that fails */
		pcs_unlock(this, pcs);
		pcs = pcs_get_empty(this, s, barn, NULL, true, &restart);
	} while (restart);
	return pcs;
}

/* free_to_pcs(): into the main sheaf */
static __always_inline bool free_to_pcs(struct pcb_cpu *this, struct kmem_cache *s, void *object)
{
	struct slub_percpu_sheaves *pcs = pcs_trylock_this(this);
	struct slab_sheaf *main;
	unsigned int size;

	if (!pcs) {
		slub_stat(this, PCS_BUSY);
		return false;
	}
	if (unlikely(pcs->main->size == s->sheaf_capacity)) {
		pcs = __pcs_replace_full_main(this, s, pcs);
		if (unlikely(!pcs))
			return false;
	}
	main = pcs->main;
	size = main->size;
	main->objects[size] = object;
	WRITE_ONCE(main->size, size + 1);
	pcs_unlock(this, pcs);
	return true;
}

/* slab_free(): this node's object to the sheaves, else to its slab */
static __always_inline void slab_free(struct pcb_cpu *this, struct kmem_cache *s, struct slab *slab,
				      void *object)
{
	if (likely(slab_nid(slab) == numa_mem_id(this)) &&
	    likely(!(READ_ONCE(slab->flags) & SL_PFMEMALLOC))) {
		if (likely(free_to_pcs(this, s, object)))
			return;
	}
	__slab_free(this, s, slab, object, object, 1);
	slub_stat(this, FREE_SLOWPATH);
}

/* kmem_cache_free(); with hardening an object of another cache is leaked, warned of */
static __always_inline void kmem_cache_free(struct pcb_cpu *this, struct kmem_cache *s, void *x)
{
	struct slab *slab = virt_to_slab(s, x);

#if SLAB_FREELIST_HARDENED
	if (unlikely(READ_ONCE(slab->slab_cache) != s))
		return;		/* warn_free_bad_obj() */
#endif
	slab_free(this, s, slab, x);
}

/* ---- a CPU's flush ---- */

/* has_pcs_used(): racy reads from the flushing CPU */
static inline bool has_pcs_used(struct pcb_cpu *cpu)
{
	struct slub_percpu_sheaves *pcs = pcb_cpu_cache(cpu);

	return READ_ONCE(pcs->spare) || READ_ONCE(pcs->rcu_free) ||
	       READ_ONCE(__atomic_load_n(&pcs->main, __ATOMIC_ACQUIRE)->size);
}

/*
 * sheaf_flush_main(s, cpu) of the QPW series: cpu's main sheaf to its
 * slabs, a batch at a time under cpu's lock (local_lock() on the owner)
 */
static inline void sheaf_flush_main(struct pcb_cpu *this, struct kmem_cache *s,
				    struct slub_percpu_sheaves *pcs)
{
	void *objects[PCS_BATCH_MAX];
	unsigned int batch, remaining;

	do {
		pcs_lock(this, pcs);
		batch = sheaf_take_batch(pcs, objects, &remaining);
		pcs_unlock(this, pcs);
		__kmem_cache_free_bulk(this, s, batch, &objects[0]);
		slub_stat_add(this, SHEAVES_EV_SHEAF_FLUSH, batch);
	} while (remaining);
}

/*
 * pcs_flush_all(s, cpu): the spare taken off under the lock, flushed and
 * freed, then the main flushed; straight to the slabs, skipping the barn
 */
static inline void pcs_flush_all(struct pcb_cpu *this, struct kmem_cache *s, struct pcb_cpu *cpu)
{
	struct slub_percpu_sheaves *pcs = pcb_cpu_cache(cpu);
	struct slab_sheaf *spare;

	pcs_lock(this, pcs);
	spare = pcs->spare;
	pcs_publish(&pcs->spare, NULL);
	WRITE_ONCE(pcs->rcu_free, NULL);
	pcs_unlock(this, pcs);
	if (spare) {
		sheaf_flush_unused(this, s, spare);
		free_empty_sheaf(this, s, spare);
	}
	sheaf_flush_main(this, s, pcs);
}

/* __pcs_flush_all_cpu(): sheaves no CPU runs on any more, flushed without the lock */
static inline void __pcs_flush_all_cpu(struct pcb_cpu *this, struct kmem_cache *s,
				       struct slub_percpu_sheaves *pcs)
{
	sheaf_flush_unused(this, s, pcs->main);
	if (pcs->spare) {
		sheaf_flush_unused(this, s, pcs->spare);
		free_empty_sheaf(this, s, pcs->spare);
		pcs_publish(&pcs->spare, NULL);
	}
}

/* the flush work's function on its CPU (flush_cpu_sheaves()), inside a drain's window */
static inline void slub_flush_cpu(struct pcb_cpu *this, struct kmem_cache *s)
{
	pcb_drain_window_open(this);
	pcs_flush_all(this, s, this);
	pcb_drain_window_close(this);
}

/* an idle CPU's sheaves as its owner left them: the main sheaf full */
static inline void slub_prefill(struct pcb_cpu *this, struct kmem_cache *s)
{
	struct slub_percpu_sheaves *pcs = pcs_lock_this(this);

	(void)refill_sheaf(this, s, pcs->main);
	pcs_unlock(this, pcs);
}

static inline bool slub_cpu_used(struct pcb_cpu *cpu)
{
	return has_pcs_used(cpu);
}

/* barn_shrink() for __kmem_cache_do_shrink() */
static inline void slub_barn_shrink(struct pcb_cpu *this, struct kmem_cache *s,
				    struct kmem_cache_node *n)
{
	if (n->barn)
		barn_shrink(this, s, n->barn);
}

#endif
