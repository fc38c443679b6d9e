/* SPDX-License-Identifier: MIT */
/*
 * The per-CPU layer sheaves replaced: struct kmem_cache_cpu of mm/slub.c
 * v6.8 (before sheaves), built without CONFIG_SLUB_CPU_PARTIAL. Each CPU
 * has a slab of its own, frozen, and keeps that slab's freelist beside a
 * transaction id. slab_alloc_node()'s fast path takes the first object
 * and do_slab_free()'s puts one back with one this_cpu_cmpxchg16b() of
 * freelist and tid (__update_cpu_freelist_fast(): cmpxchg16b without the
 * lock prefix, atomic against this CPU alone), with no lock and no
 * preempt count: an interruption or a move between the reads and the
 * cmpxchg changes the tid, the cmpxchg fails and the path starts again.
 * An object of another slab is freed to its slab (__slab_free()). The
 * slow path ___slab_alloc() reloads the CPU slab under
 * local_lock_irqsave(): the slab's own freelist (get_freelist()), a
 * partial slab frozen (freeze_slab()), or a new one; a flush
 * (flush_cpu_slab(), queued by flush_all() on every CPU with a CPU slab)
 * deactivates it (deactivate_slab()).
 */
#ifndef PCB_SHEAVES_CPU_SLAB_H
#define PCB_SHEAVES_CPU_SLAB_H

#if !defined(SHEAVES_DRAIN_HEADER) || !SHEAVES_CPU_SLAB
#error "include designs/kmem_cache_cpu.h before cpu_slab.h"
#endif

#include "../locks/irq_off.h"
#include "slub.h"

/* TID_STEP with CONFIG_PREEMPTION: roundup_pow_of_two(CONFIG_NR_CPUS), 8192 on Debian */
#define TID_STEP 8192UL

struct kmem_cache_cpu {
	union {
		struct {
			void **freelist;	/* Pointer to next available object */
			unsigned long tid;	/* Globally unique transaction id */
		};
		unsigned __int128 freelist_tid;	/* freelist_aba_t */
	};
	struct slab *slab;		/* The slab from which we are allocating */
	local_lock_t lock;		/* Protects the fields above */
};

_Static_assert(offsetof(struct kmem_cache_cpu, tid) == 8 &&
	       offsetof(struct kmem_cache_cpu, slab) == 16 &&
	       sizeof(struct kmem_cache_cpu) == 32 && _Alignof(struct kmem_cache_cpu) == 16,
	       "struct kmem_cache_cpu (no CPU partial, no stats): freelist and tid one "
	       "double word, then the slab; 32 bytes");

static inline unsigned long next_tid(unsigned long tid)
{
	return tid + TID_STEP;
}

static inline struct kmem_cache_cpu *this_cpu_kcc(struct pcb_cpu *this)
{
	return pcb_cpu_cache(this);
}

/*
 * __update_cpu_freelist_fast(): this_cpu_try_cmpxchg_freelist(), on x86
 * cmpxchg16b of the per-CPU double word without the lock prefix
 */
static __always_inline bool __update_cpu_freelist_fast(struct kmem_cache_cpu *c, void *freelist_old,
						       void *freelist_new, unsigned long tid)
{
	unsigned long lo = (unsigned long)freelist_old, hi = tid;
	bool ok;

	pcb_tsan_release(&c->freelist);
	__asm__ __volatile__("cmpxchg16b %[ptr]"
			     : "=@ccz"(ok), [ptr] "+m"(c->freelist_tid), "+a"(lo), "+d"(hi)
			     : "b"((unsigned long)freelist_new), "c"(next_tid(tid))
			     : "memory");
	if (ok)
		pcb_tsan_acquire(&c->freelist);
	return ok;
}

/* the CPU slab's fields written under its local lock */
static inline void kcc_set(struct kmem_cache_cpu *c, struct slab *slab, void *freelist)
{
	WRITE_ONCE(c->slab, slab);
	WRITE_ONCE(c->freelist, freelist);
	WRITE_ONCE(c->tid, next_tid(c->tid));
}

/*
 * deactivate_slab(): the CPU's freelist spliced onto the slab's, the slab
 * unfrozen, then discarded if empty, else onto the partial list if it has
 * free objects
 */
static __attribute__((__noinline__, unused)) void deactivate_slab(struct pcb_cpu *this,
							      struct kmem_cache *s,
							      struct slab *slab, void *freelist)
{
	struct kmem_cache_node *n = get_node(s, slab_nid(slab));
	enum add_mode tail = READ_ONCE(slab->freelist) ? ADD_TO_TAIL : ADD_TO_HEAD;
	void *freelist_tail = NULL, *iter = freelist;
	struct freelist_counters old, new;
	unsigned int free_delta = 0;

	/* Stage one: count the CPU's freelist, remember its last object */
	while (iter) {
		freelist_tail = iter;
		free_delta++;
		iter = get_freepointer(s, iter);
	}
	/* Stage two: unfreeze the slab while splicing the CPU's freelist to its head */
	do {
		slab_read_freelist(slab, &old);
		new.counters = fc_make(fc_inuse(old.counters) - free_delta,
				       fc_objects(old.counters), 0);
		if (freelist_tail) {
			set_freepointer(s, freelist_tail, old.freelist);
			new.freelist = freelist;
		} else {
			new.freelist = old.freelist;
		}
	} while (!slab_update_freelist(slab, &old, &new));
	/* Stage three: the slab's list by its state */
	if (!fc_inuse(new.counters) && READ_ONCE(n->nr_partial) >= s->min_partial) {
		discard_slab(this, s, slab);
		slub_stat(this, FREE_SLAB);
	} else if (new.freelist) {
		unsigned long flags = spin_lock_irqsave(this, &n->list_lock, __func__);

		add_partial(n, slab, tail);
		spin_unlock_irqrestore(this, &n->list_lock, flags);
	}
}

/* get_freelist(): the frozen CPU slab's own freelist (remote frees), unfrozen if none */
static inline void *get_freelist(struct slab *slab)
{
	struct freelist_counters old, new;

	slab_read_freelist(slab, &old);
	do {
		new.freelist = NULL;
		new.counters = fc_make(fc_objects(old.counters), fc_objects(old.counters),
				       old.freelist != NULL);
	} while (!slab_update_freelist(slab, &old, &new));
	return old.freelist;
}

/* freeze_slab(): a partial slab's freelist taken whole, the slab frozen */
static inline void *freeze_slab(struct slab *slab)
{
	struct freelist_counters old, new;

	slab_read_freelist(slab, &old);
	do {
		new.freelist = NULL;
		new.counters = fc_make(fc_objects(old.counters), fc_objects(old.counters), 1);
	} while (!slab_update_freelist(slab, &old, &new));
	return old.freelist;
}

/* get_partial_node() without CPU partial slabs: the first partial slab, off the list */
static inline struct slab *get_partial_node(struct pcb_cpu *this, struct kmem_cache_node *n)
{
	struct slab *slab = NULL;
	unsigned long flags;

	if (!n || !READ_ONCE(n->nr_partial))
		return NULL;
	flags = spin_lock_irqsave(this, &n->list_lock, __func__);
	if (!list_empty(&n->partial)) {
		slab = slab_of(n->partial.next);
		remove_partial(n, slab);
	}
	spin_unlock_irqrestore(this, &n->list_lock, flags);
	return slab;
}

/* a new slab, frozen whole for this CPU: its freelist, or NULL without memory */
static inline void *new_cpu_slab(struct pcb_cpu *this, struct kmem_cache *s, struct slab **slabp)
{
	struct slab *slab = new_slab(this, s, numa_mem_id(this));
	void *freelist;

	*slabp = slab;
	if (unlikely(!slab))
		return NULL;
	slub_stat(this, ALLOC_SLAB);
	freelist = slab->freelist;
	WRITE_ONCE(slab->freelist, NULL);
	WRITE_ONCE(slab->counters, fc_make(s->oo_objects, s->oo_objects, 1));
	inc_slabs_node(s, slab_nid(slab), s->oo_objects);
	return freelist;
}

/*
 * retry_load_slab: the CPU slab installed under the lock (another, loaded
 * meanwhile, deactivated first), its first object returned
 */
static inline void *load_cpu_slab(struct pcb_cpu *this, struct kmem_cache *s, struct slab *slab,
				  void *freelist)
{
	struct kmem_cache_cpu *c = this_cpu_kcc(this);

	for (;;) {
		unsigned long flags = local_lock_irqsave_model(this);
		struct slab *flush_slab = c->slab;
		void *flush_freelist = c->freelist;

		if (likely(!flush_slab)) {
			/* c->slab = slab; load_freelist */
			kcc_set(c, slab, get_freepointer(s, freelist));
			local_unlock_irqrestore_model(this, flags);
			return freelist;
		}
		kcc_set(c, NULL, NULL);
		local_unlock_irqrestore_model(this, flags);
		deactivate_slab(this, s, flush_slab, flush_freelist);
		slub_stat(this, CPUSLAB_FLUSH);
	}
}

/*
 * The CPU slab's freelist ran out (or there is none): its slab's own
 * freelist, under the local lock; NULL sends the caller to a new slab
 */
static inline void *reload_cpu_slab(struct pcb_cpu *this, struct kmem_cache *s, bool *again)
{
	struct kmem_cache_cpu *c = this_cpu_kcc(this);
	struct slab *slab = READ_ONCE(c->slab);
	unsigned long flags;
	void *freelist;

	*again = false;
	if (!slab)
		return NULL;
	flags = local_lock_irqsave_model(this);
	/* must check again c->slab in case we got preempted and it changed */
	if (unlikely(slab != c->slab)) {
		local_unlock_irqrestore_model(this, flags);
		*again = true;
		return NULL;
	}
	freelist = c->freelist;
	if (!freelist)
		freelist = get_freelist(slab);
	if (!freelist) {
		/* DEACTIVATE_BYPASS: the slab is full, and unfrozen */
		WRITE_ONCE(c->slab, NULL);
		WRITE_ONCE(c->tid, next_tid(c->tid));
		local_unlock_irqrestore_model(this, flags);
		return NULL;
	}
	/* load_freelist */
	WRITE_ONCE(c->freelist, get_freepointer(s, freelist));
	WRITE_ONCE(c->tid, next_tid(c->tid));
	local_unlock_irqrestore_model(this, flags);
	return freelist;
}

/* ___slab_alloc() (v6.8): reload the CPU slab, or freeze a partial or new one */
static __attribute__((__noinline__, unused)) void *___slab_alloc(struct pcb_cpu *this,
							     struct kmem_cache *s)
{
	struct slab *slab;
	void *freelist;
	bool again;

	slub_stat(this, ALLOC_SLOWPATH);
	do
		freelist = reload_cpu_slab(this, s, &again);
	while (again);
	if (freelist)
		return freelist;
	/* new_objects */
	slab = get_partial_node(this, get_node(s, numa_mem_id(this)));
	if (slab) {
		freelist = freeze_slab(slab);
	} else {
		/* slub_put_cpu_ptr() around new_slab(): the page allocator may sleep */
		preempt_enable(this);
		freelist = new_cpu_slab(this, s, &slab);
		preempt_disable(this);
		if (unlikely(!slab))
			return NULL;
	}
	return load_cpu_slab(this, s, slab, freelist);
}

/* __slab_alloc(): the slow path with migration off, the CPU's pointer fetched again */
static inline void *__slab_alloc(struct pcb_cpu *this, struct kmem_cache *s)
{
	void *p;

	preempt_disable(this);		/* slub_get_cpu_ptr(): CONFIG_PREEMPT_COUNT */
	p = ___slab_alloc(this, s);
	preempt_enable(this);
	return p;
}

/* kmem_cache_alloc(): slab_alloc_node()'s lockless fast path, __slab_alloc() else */
static __always_inline void *kmem_cache_alloc(struct pcb_cpu *this, struct kmem_cache *s)
{
	struct kmem_cache_cpu *c;
	unsigned long tid;
	struct slab *slab;
	void *object;

redo:
	c = this_cpu_kcc(this);			/* raw_cpu_ptr() */
	tid = READ_ONCE(c->tid);
	barrier();
	object = READ_ONCE(c->freelist);
	slab = READ_ONCE(c->slab);
	if (unlikely(!object || !slab)) {
		object = __slab_alloc(this, s);
	} else {
		void *next_object = get_freepointer(s, object);	/* get_freepointer_safe() */

		if (unlikely(!__update_cpu_freelist_fast(c, object, next_object, tid))) {
			slub_stat(this, CMPXCHG_CPU_FAIL);	/* note_cmpxchg_failure() */
			goto redo;
		}
		__builtin_prefetch((char *)next_object + s->offset, 1);	/* prefetchw */
	}
	return object;
}

/* do_slab_free(): to the CPU slab's freelist if the object is of it, else __slab_free() */
static __always_inline void do_slab_free(struct pcb_cpu *this, struct kmem_cache *s,
					 struct slab *slab, void *object)
{
	struct kmem_cache_cpu *c;
	unsigned long tid;
	void *freelist;

redo:
	c = this_cpu_kcc(this);
	tid = READ_ONCE(c->tid);
	barrier();
	if (unlikely(slab != READ_ONCE(c->slab))) {
		__slab_free(this, s, slab, object, object, 1);
		slub_stat(this, FREE_SLOWPATH);
		return;
	}
	freelist = READ_ONCE(c->freelist);
	set_freepointer(s, object, freelist);
	if (unlikely(!__update_cpu_freelist_fast(c, freelist, object, tid))) {
		slub_stat(this, CMPXCHG_CPU_FAIL);
		goto redo;
	}
}

/* kmem_cache_free(): cache_from_obj() (a look at the slab with hardening), slab_free() */
static __always_inline void kmem_cache_free(struct pcb_cpu *this, struct kmem_cache *s, void *x)
{
	struct slab *slab = virt_to_slab(s, x);

#if SLAB_FREELIST_HARDENED
	if (unlikely(READ_ONCE(slab->slab_cache) != s))
		return;		/* cache_from_obj()'s WARN; the model's objects are all of s */
#endif
	do_slab_free(this, s, slab, x);
}

/* ---- a CPU's flush ---- */

/* flush_slab(): the CPU slab taken off under the lock, then deactivated */
static inline void flush_slab(struct pcb_cpu *this, struct kmem_cache *s, struct kmem_cache_cpu *c)
{
	unsigned long flags = local_lock_irqsave_model(this);
	struct slab *slab = c->slab;
	void *freelist = c->freelist;

	kcc_set(c, NULL, NULL);
	local_unlock_irqrestore_model(this, flags);
	if (slab) {
		deactivate_slab(this, s, slab, freelist);
		slub_stat(this, CPUSLAB_FLUSH);
	}
}

/* flush_cpu_slab(): the flush work on its CPU, inside a drain's window */
static inline void slub_flush_cpu(struct pcb_cpu *this, struct kmem_cache *s)
{
	struct kmem_cache_cpu *c = this_cpu_kcc(this);

	pcb_drain_window_open(this);
	if (READ_ONCE(c->slab))
		flush_slab(this, s, c);
	pcb_drain_window_close(this);
}

/* has_cpu_slab() */
static inline bool slub_cpu_used(struct pcb_cpu *cpu)
{
	return READ_ONCE(((struct kmem_cache_cpu *)pcb_cpu_cache(cpu))->slab) != NULL;
}

/* an idle CPU's slab as its owner left it: a CPU slab loaded, its objects all free */
static inline void slub_prefill(struct pcb_cpu *this, struct kmem_cache *s)
{
	struct kmem_cache_cpu *c = this_cpu_kcc(this);
	struct slab *slab;
	void *freelist;
	unsigned long flags;

	if (READ_ONCE(c->slab))
		return;
	slab = get_partial_node(this, get_node(s, numa_mem_id(this)));
	freelist = slab ? freeze_slab(slab) : new_cpu_slab(this, s, &slab);
	if (!slab)
		return;
	flags = local_lock_irqsave_model(this);
	kcc_set(c, slab, freelist);
	local_unlock_irqrestore_model(this, flags);
}

/* no barn before sheaves */
static inline void slub_barn_shrink(struct pcb_cpu *this, struct kmem_cache *s,
				    struct kmem_cache_node *n)
{
	(void)this;
	(void)s;
	(void)n;
}

#endif
