/* SPDX-License-Identifier: MIT */
/*
 * SLUB's data, as mm/slub.c and mm/slab.h have it once the percpu sheaves
 * are every cache's per-CPU layer (the rework after v6.18 that removed
 * struct kmem_cache_cpu; the full mm/slub.c followed is that of the
 * sheaves-for-all series, "(C) 2025 SUSE, Vlastimil Babka" in its head),
 * reduced to what the sheaves and the slabs behind them touch:
 *
 *   struct slab			a slab's descriptor, the 64 bytes of its
 *					struct page, in a memmap apart from the
 *					slab's memory (vmemmap)
 *   struct kmem_cache_node		a node's partial list under list_lock,
 *					and its barn
 *   struct node_barn		full and empty sheaves under a spinlock,
 *					MAX_FULL_SHEAVES / MAX_EMPTY_SHEAVES
 *   struct slab_sheaf		an array of object pointers
 *   struct slub_percpu_sheaves	main, spare and rcu_free under the
 *					design's lock (local_trylock_t upstream)
 *   struct kmem_cache		what the paths read of the cache
 *
 * and the two allocators the slabs stand on, kept as light as the pcp
 * model's buddy: the page allocator (alloc_slab_page(), __free_slab())
 * as one pool of slab-sized blocks under its lock, and kzalloc()/kfree()
 * of a sheaf (a kmalloc-512 object for the default capacity) as one pool
 * of sheaves under its lock. Each takes its lock and touches the lines
 * the kernel's would; neither is the kernel's allocator.
 *
 * Freelist pointers are encoded as CONFIG_SLAB_FREELIST_HARDENED encodes
 * them where the build says so (SLAB_FREELIST_HARDENED, a variant axis).
 */
#ifndef PCB_SHEAVES_SLAB_H
#define PCB_SHEAVES_SLAB_H

#include "../list.h"
#include "../locks/spinlock.h"
#include "../percpu.h"

#ifndef SLAB_FREELIST_HARDENED
#define SLAB_FREELIST_HARDENED 0
#endif

#ifndef __KERNEL__
#define PAGE_SHIFT		12
#define PAGE_SIZE		4096UL	/* 1 << PAGE_SHIFT, as the other models spell it */
#endif
#define SLUB_MAX_ORDER		3	/* slub_max_order: PAGE_ALLOC_COSTLY_ORDER */
#define MAX_OBJS_PER_PAGE	32767	/* slab.objects is u15 */

/* mm/slub.c */
#define MIN_PARTIAL		5
#define MAX_PARTIAL		10
#define MAX_FULL_SHEAVES	10
#define MAX_EMPTY_SHEAVES	10
#define PCS_BATCH_MAX		32U
#define SHRINK_PROMOTE_MAX	32

/* MAX_NUMNODES (NODES_SHIFT 10): a kmem_cache_node and a barn each */
#define SHEAVES_MAX_NODES	1024
/* CPUs a flush walks at most: drain.online's bound, and room */
#define SHEAVES_MAX_CPUS	2048

/* ---- the slab ---- */

/*
 * struct slab (mm/slab.h): the struct page of the slab's first page. Its
 * freelist and counters are one 16-byte word, updated by cmpxchg16b
 * (slab_update_freelist()); the node sits in the flags word, as
 * page_to_nid() reads it, and so does SL_partial (PG_workingset), set and
 * cleared with locked bit operations.
 */
struct slab {
	unsigned long flags;		/* the node in the top 16 bits; SL_partial */
	struct kmem_cache *slab_cache;	/* NULL while the block is the page allocator's */
	struct list_head slab_list;	/* the node's partial list, or the page pool's */
	union {
		struct {
			void *freelist;		/* first free object */
			union {
				unsigned long counters;
				struct {
					unsigned inuse:16;
					unsigned objects:15;
					unsigned frozen:1;
				};
			};
		};
		unsigned __int128 freelist_counters;	/* struct freelist_counters */
	};
	unsigned int __page_type;
	int __page_refcount;
	unsigned long obj_exts;
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct slab) == 64, "struct slab: one struct page, 64 bytes");
_Static_assert(offsetof(struct slab, slab_cache) == 8 && offsetof(struct slab, slab_list) == 16 &&
	       offsetof(struct slab, freelist) == 32 && offsetof(struct slab, counters) == 40,
	       "struct slab: slab_cache, slab_list, freelist and counters where mm/slab.h has them");
_Static_assert(offsetof(struct slab, freelist) % 16 == 0,
	       "freelist and counters: one double word, aligned for cmpxchg16b");

/* SL_partial (PG_workingset) and SL_pfmemalloc (PG_active, never set here); bits of the model's */
#define SL_PARTIAL		(1UL << 13)
#define SL_PFMEMALLOC		(1UL << 6)
#define SLAB_NODE_SHIFT		48

/* the freelist and counters read or written as one (struct freelist_counters) */
struct freelist_counters {
	void *freelist;
	unsigned long counters;
};

/* ---- sheaves and the barn ---- */

#ifndef __KERNEL__
/* struct rcu_head (the kernel backend has the kernel's) */
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};
#endif

struct slab_sheaf {
	union {
		struct callback_head rcu_head;
		struct list_head barn_list;
		/* only used for prefilled sheafs */
		struct {
			unsigned int capacity;
			bool pfmemalloc;
		};
	};
	struct kmem_cache *cache;
	unsigned int size;
	int node;			/* only used for rcu_sheaf */
	void *objects[];
};

_Static_assert(offsetof(struct slab_sheaf, cache) == 16 &&
	       offsetof(struct slab_sheaf, size) == 24 &&
	       offsetof(struct slab_sheaf, objects) == 32,
	       "struct slab_sheaf: a 32-byte head, then the object pointers");

struct node_barn {
	spinlock_t lock;
	struct list_head sheaves_full;
	struct list_head sheaves_empty;
	unsigned int nr_full;
	unsigned int nr_empty;
} ____cacheline_aligned;	/* kmalloc_node()'s, on a line of its own */

_Static_assert(offsetof(struct node_barn, sheaves_full) == 8 &&
	       offsetof(struct node_barn, sheaves_empty) == 24 &&
	       offsetof(struct node_barn, nr_full) == 40 &&
	       offsetof(struct node_barn, nr_empty) == 44,
	       "struct node_barn: the lock, both lists and both counts in one line");

/*
 * struct kmem_cache_node with CONFIG_SLUB_DEBUG (on in distributions'
 * kernels, debugging itself off): nr_slabs and total_objects are atomics
 * every new and discarded slab updates
 */
struct kmem_cache_node {
	spinlock_t list_lock;
	unsigned long nr_partial;
	struct list_head partial;
	atomic_long nr_slabs;
	atomic_long total_objects;
	struct list_head full;
	struct node_barn *barn;
} ____cacheline_aligned;	/* kmem_cache_alloc_node(kmem_cache_node)'s */

_Static_assert(offsetof(struct kmem_cache_node, partial) == 16 &&
	       offsetof(struct kmem_cache_node, nr_slabs) == 32 &&
	       offsetof(struct kmem_cache_node, barn) == 64,
	       "struct kmem_cache_node: list_lock, nr_partial and partial in its first line");

/* ---- the allocators the slabs stand on ---- */

/* alloc_slab_page() / __free_slab(): slab-sized blocks under one lock */
struct slab_pool {
	spinlock_t lock ____cacheline_aligned;
	struct list_head free;		/* the blocks' struct slabs, by slab_list */
	unsigned long nr_free;
	struct slab *memmap;		/* a struct slab per block */
	unsigned char *base;		/* the blocks' memory */
	unsigned long nr;		/* blocks */
	unsigned int shift;		/* PAGE_SHIFT + the slab's order */
};

/* kzalloc()/kfree() of a sheaf: sheaves of the cache's capacity under one lock */
struct sheaf_pool {
	spinlock_t lock ____cacheline_aligned;
	struct list_head free;		/* by barn_list */
	unsigned long nr_free;
	unsigned long nr;
	size_t bytes;			/* a sheaf: struct_size(sheaf, objects, capacity) */
	unsigned char *base;
};

/*
 * struct mutex, as flush_all()'s flush_lock: mutex_lock()'s fast path, an acquire
 * cmpxchg of the owner (kernels/mutex.h's is drain_all_stock()'s trylock)
 */
struct pcs_mutex {
	atomic_long owner;
};

/* ---- the cache ---- */

struct kmem_cache {
	unsigned int size;		/* the object, aligned */
	unsigned int object_size;
	unsigned int offset;		/* of the free pointer in an object */
	unsigned int sheaf_capacity;
	unsigned int oo_order, oo_objects;	/* s->oo */
	unsigned long min_partial;
	unsigned long random;		/* CONFIG_SLAB_FREELIST_HARDENED's */
	struct slab_pool *pages;
	struct sheaf_pool *sheaves;
	struct pcs_mutex flush_lock;	/* DEFINE_MUTEX(flush_lock): one a cache here */
	/* a flush's CPUs and their swapped sheaves, under flush_lock (SHEAVES_MAX_CPUS) */
	struct pcb_cpu **flush_cpus;
	void **flush_old;
	int nr_nodes;			/* nodes with a CPU: for_each_kmem_cache_node() */
	struct kmem_cache_node *node[SHEAVES_MAX_NODES];
};

/* numa_mem_id() of a modeled CPU: its node (the coordinator's, -1, is node 0) */
static inline int numa_mem_id(const struct pcb_cpu *this)
{
	return this->node > 0 ? this->node : 0;
}

static inline struct kmem_cache_node *get_node(const struct kmem_cache *s, int node)
{
	return s->node[node];
}

/* get_barn(): the barn of this CPU's node */
static inline struct node_barn *get_barn(const struct kmem_cache *s, const struct pcb_cpu *this)
{
	struct kmem_cache_node *n = get_node(s, numa_mem_id(this));

	return n ? n->barn : NULL;
}

/* ---- a slab's memory ---- */

static inline unsigned char *slab_address(const struct kmem_cache *s, const struct slab *slab)
{
	return s->pages->base + ((unsigned long)(slab - s->pages->memmap) << s->pages->shift);
}

/* virt_to_slab(): the struct slab of the block an object is in (its compound head) */
static inline struct slab *virt_to_slab(const struct kmem_cache *s, const void *x)
{
	return &s->pages->memmap[((const unsigned char *)x - s->pages->base) >> s->pages->shift];
}

static inline int slab_nid(const struct slab *slab)
{
	return (int)(READ_ONCE(slab->flags) >> SLAB_NODE_SHIFT);
}

/* freelist_ptr_encode(): with hardening, XOR with the cache's random and the swapped address */
static inline unsigned long freelist_ptr_encode(const struct kmem_cache *s, const void *ptr,
						unsigned long ptr_addr)
{
#if SLAB_FREELIST_HARDENED
	return (unsigned long)ptr ^ s->random ^ __builtin_bswap64(ptr_addr);
#else
	(void)s;
	(void)ptr_addr;
	return (unsigned long)ptr;
#endif
}

static inline void *get_freepointer(const struct kmem_cache *s, void *object)
{
	unsigned long ptr_addr = (unsigned long)object + s->offset;
	unsigned long v = READ_ONCE(*(unsigned long *)ptr_addr);

	return (void *)freelist_ptr_encode(s, (const void *)v, ptr_addr);
}

/* set_freepointer(): BUG_ON(object == fp) with hardening, a naive double free detector */
static inline void set_freepointer(const struct kmem_cache *s, void *object, void *fp)
{
	unsigned long ptr_addr = (unsigned long)object + s->offset;

#if SLAB_FREELIST_HARDENED
	if (unlikely(object == fp))
		__builtin_trap();
#endif
	WRITE_ONCE(*(unsigned long *)ptr_addr, freelist_ptr_encode(s, fp, ptr_addr));
}

/*
 * __slab_update_freelist(): cmpxchg16b of the freelist and counters, with
 * the lock prefix, as try_cmpxchg_freelist() takes it for a slab any CPU
 * may free to (system_has_freelist_aba(); the slab_lock() fallback of
 * machines without cmpxchg16b is not modeled)
 */
static inline bool slab_update_freelist(struct slab *slab, struct freelist_counters *old,
					const struct freelist_counters *new)
{
	unsigned long lo = (unsigned long)old->freelist, hi = old->counters;
	bool ok;

	pcb_tsan_release(&slab->freelist);
	__asm__ __volatile__("lock cmpxchg16b %[ptr]"
			     : "=@ccz"(ok), [ptr] "+m"(slab->freelist_counters), "+a"(lo), "+d"(hi)
			     : "b"((unsigned long)new->freelist), "c"(new->counters)
			     : "memory");
	if (ok)
		pcb_tsan_acquire(&slab->freelist);
	old->freelist = (void *)lo;
	old->counters = hi;
	return ok;
}

/* the two words read racily, as data_race(READ_ONCE()) */
static inline void slab_read_freelist(const struct slab *slab, struct freelist_counters *fc)
{
	fc->freelist = READ_ONCE(slab->freelist);
	fc->counters = READ_ONCE(slab->counters);
}

/* counters' fields, as the bit fields of struct slab lay them */
static inline unsigned int fc_inuse(unsigned long counters)
{
	return (unsigned int)(counters & 0xffff);
}

static inline unsigned int fc_objects(unsigned long counters)
{
	return (unsigned int)((counters >> 16) & 0x7fff);
}

static inline unsigned int fc_frozen(unsigned long counters)
{
	return (unsigned int)((counters >> 31) & 1);
}

static inline unsigned long fc_make(unsigned int inuse, unsigned int objects, unsigned int frozen)
{
	return (unsigned long)inuse | (unsigned long)objects << 16 | (unsigned long)frozen << 31;
}

/* ---- the sheaf pool, kzalloc() and kfree() of a sheaf ---- */

static inline struct slab_sheaf *sheaf_pool_at(const struct sheaf_pool *p, unsigned long i)
{
	return (struct slab_sheaf *)(p->base + i * p->bytes);
}

/* ---- flush_lock ---- */

static inline void pcs_mutex_init(struct pcs_mutex *m)
{
	atomic_init(&m->owner, 0);
}

/* mutex_lock(): the cmpxchg of the owner; where the kernel would sleep, this spins */
static inline void pcs_mutex_lock(struct pcb_cpu *this, struct pcs_mutex *m)
{
	long none = 0;

	while (!atomic_compare_exchange_weak_explicit(&m->owner, &none, (long)this,
						      memory_order_acquire, memory_order_relaxed)) {
		none = 0;
		__builtin_ia32_pause();
	}
}

/* mutex_unlock(): __mutex_unlock_fast(), a release cmpxchg of the owner back to 0 */
static inline void pcs_mutex_unlock(struct pcb_cpu *this, struct pcs_mutex *m)
{
	long owner = (long)this;

	atomic_compare_exchange_strong_explicit(&m->owner, &owner, 0, memory_order_release,
						memory_order_relaxed);
}

#endif
