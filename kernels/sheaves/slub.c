/* SPDX-License-Identifier: MIT */
/*
 * The sheaves model's cache and its invariant: the cache's sizes as
 * calculate_sizes() sets them (calculate_order(),
 * calculate_sheaf_capacity()), the page allocator's blocks, the sheaves'
 * kmalloc pool, the nodes and their barns (init_kmem_cache_nodes(),
 * barn_init()); and at each quiescent point every object of the cache's
 * slabs in exactly one place (its slab's freelist, a CPU's freelist, a
 * sheaf of a CPU or of a barn, a worker's hands or a handoff ring), every
 * sheaf in exactly one (a CPU, a barn, the pool), every count equal to
 * what it counts.
 */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sheaves_model.h"

/* ---- what calculate_sizes() sets ---- */

static unsigned int fls32(unsigned int x)
{
	return x ? 32 - (unsigned int)__builtin_clz(x) : 0;
}

#ifndef __KERNEL__
/*
 * get_order(): the order of the smallest block of pages that holds size
 * bytes (the kernel backend has the kernel's)
 */
static unsigned int get_order(unsigned long size)
{
	unsigned int order = 0;

	size = (size - 1) >> PAGE_SHIFT;
	while (size) {
		order++;
		size >>= 1;
	}
	return order;
}
#endif

static unsigned int order_objects(unsigned int order, unsigned int size)
{
	return (unsigned int)((PAGE_SIZE << order) / size);
}

/* calc_slab_order(): the first order from min_order wasting at most 1/fract_leftover */
static unsigned int calc_slab_order(unsigned int size, unsigned int min_order,
				    unsigned int max_order, unsigned int fract_leftover)
{
	unsigned int order;

	for (order = min_order; order <= max_order; order++) {
		unsigned int slab_size = (unsigned int)PAGE_SIZE << order;

		if (slab_size % size <= slab_size / fract_leftover)
			break;
	}
	return order;
}

/*
 * calculate_order(): at least 4 (fls(CPUs) + 1) objects a slab
 * (slub_min_objects unset), as little waste as the order allows, up to
 * slub_max_order
 */
unsigned int sheaves_order_of(unsigned int size, unsigned int nr_cpus)
{
	unsigned int min_objects = 4 * (fls32(nr_cpus) + 1);
	unsigned int max_objects = order_objects(SLUB_MAX_ORDER, size);
	unsigned int min_order;

	if (max_objects < 1)
		max_objects = 1;
	if (min_objects > max_objects)
		min_objects = max_objects;
	min_order = get_order((unsigned long)min_objects * size);
	for (unsigned int fraction = 16; fraction > 1; fraction /= 2) {
		unsigned int order = calc_slab_order(size, min_order, SLUB_MAX_ORDER, fraction);

		if (order <= SLUB_MAX_ORDER)
			return order;
	}
	return get_order(size);
}

/* kmalloc_size_roundup(): the kmalloc bucket a size falls in (96 and 192 among them) */
static size_t kmalloc_size_roundup(size_t size)
{
	static const size_t buckets[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048,
					  4096, 8192 };

	for (size_t i = 0; i < sizeof(buckets) / sizeof(buckets[0]); i++)
		if (size <= buckets[i])
			return buckets[i];
	return PAGE_SIZE << get_order(size);
}

/*
 * calculate_sheaf_capacity(): by object size, as the percpu partial slabs
 * were sized (halved for two sheaves), then up to what fills the sheaf's
 * kmalloc bucket; at least what the cache asked for
 */
unsigned int sheaves_capacity_of(unsigned int size, unsigned int requested)
{
	size_t head = offsetof(struct slab_sheaf, objects), bytes;
	unsigned int capacity;

	if (size >= PAGE_SIZE)
		capacity = 4;
	else if (size >= 1024)
		capacity = 12;
	else if (size >= 256)
		capacity = 26;
	else
		capacity = 60;
	bytes = kmalloc_size_roundup(head + capacity * sizeof(void *));
	capacity = (unsigned int)((bytes - head) / sizeof(void *));
	return capacity > requested ? capacity : requested;
}

/* system_has_freelist_aba(): cmpxchg16b, which every design's slab freelist takes */
const char *sheaves_unavailable(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & bit_CMPXCHG16B))
		return "this CPU has no cmpxchg16b (CX16), which SLUB's freelist updates take "
		       "(the slab_lock() fallback is not modeled)";
	return NULL;
}

/* ---- the cache ---- */

/* the sheaves kmalloc may have: four a CPU, and every barn full */
#define SHEAVES_POOL_SHEAVES (4 * 1100 + 64 * (MAX_FULL_SHEAVES + MAX_EMPTY_SHEAVES))

static void *zalloc_aligned(size_t align, size_t size)
{
	size_t rounded = (size + align - 1) & ~(align - 1);
	void *p = aligned_alloc(align, rounded ? rounded : align);

	if (p)
		memset(p, 0, rounded ? rounded : align);
	return p;
}

/* the slab-sized blocks of the page allocator, each free, touched now */
static int pool_create(struct slab_pool *p, unsigned long bytes, unsigned int order)
{
	p->shift = PAGE_SHIFT + order;
	p->nr = bytes >> p->shift;
	p->base = zalloc_aligned(1ul << p->shift, p->nr << p->shift);
	p->memmap = zalloc_aligned(SMP_CACHE_BYTES, p->nr * sizeof(struct slab));
	if (!p->base || !p->memmap)
		return -1;
	spin_lock_init(&p->lock);
	INIT_LIST_HEAD(&p->free);
	for (unsigned long i = p->nr; i-- > 0;)
		list_add(&p->memmap[i].slab_list, &p->free);
	p->nr_free = p->nr;
	return 0;
}

/* the sheaves' pool: SHEAVES_POOL_SHEAVES of struct_size(sheaf, objects, capacity) */
static int sheaf_pool_create(struct sheaf_pool *p, unsigned int capacity)
{
	p->bytes = (offsetof(struct slab_sheaf, objects) + capacity * sizeof(void *) +
		    SMP_CACHE_BYTES - 1) & ~(size_t)(SMP_CACHE_BYTES - 1);
	p->nr = SHEAVES_POOL_SHEAVES;
	p->base = zalloc_aligned(SMP_CACHE_BYTES, p->nr * p->bytes);
	if (!p->base)
		return -1;
	spin_lock_init(&p->lock);
	INIT_LIST_HEAD(&p->free);
	for (unsigned long i = p->nr; i-- > 0;)
		list_add(&sheaf_pool_at(p, i)->barn_list, &p->free);
	p->nr_free = p->nr;
	return 0;
}

/* init_kmem_cache_nodes(), barn_init(): every node's, a node with CPUs or not */
static int nodes_create(struct sheaves_shared *sh)
{
	struct kmem_cache *s = &sh->cache;

	sh->nodes = zalloc_aligned(SMP_CACHE_BYTES, SHEAVES_MAX_NODES * sizeof(*sh->nodes));
	sh->barns = zalloc_aligned(SMP_CACHE_BYTES, SHEAVES_MAX_NODES * sizeof(*sh->barns));
	if (!sh->nodes || !sh->barns)
		return -1;
	for (int node = 0; node < SHEAVES_MAX_NODES; node++) {
		struct kmem_cache_node *n = &sh->nodes[node];
		struct node_barn *barn = &sh->barns[node];

		spin_lock_init(&n->list_lock);
		INIT_LIST_HEAD(&n->partial);
		INIT_LIST_HEAD(&n->full);
		spin_lock_init(&barn->lock);
		INIT_LIST_HEAD(&barn->sheaves_full);
		INIT_LIST_HEAD(&barn->sheaves_empty);
		n->barn = barn;
		s->node[node] = n;
	}
	s->nr_nodes = 1;
	return 0;
}

/* s's sizes, as calculate_sizes() and do_kmem_cache_create() set them */
static void cache_sizes(struct kmem_cache *s, const struct sheaves_config *c, int nr_cpus)
{
	unsigned int order;

	s->object_size = (unsigned int)c->object_size;
	s->size = (s->object_size + 7) & ~7u;		/* ALIGN(size, sizeof(void *)) */
	/* the free pointer near the middle of the object */
	s->offset = (s->object_size / 2) & ~7u;
	order = sheaves_order_of(s->size, (unsigned int)nr_cpus);
	s->oo_order = order;
	s->oo_objects = order_objects(order, s->size);
	/* the larger the object, the more partial slabs kept */
	s->min_partial = (fls32(s->size) - 1) / 2;	/* ilog2(size) / 2 */
	if (s->min_partial > MAX_PARTIAL)
		s->min_partial = MAX_PARTIAL;
	if (s->min_partial < MIN_PARTIAL)
		s->min_partial = MIN_PARTIAL;
	s->sheaf_capacity = sheaves_capacity_of(s->size, (unsigned int)c->capacity);
	s->random = 0x9e3779b97f4a7c15ul;	/* get_random_long(), fixed for runs to repeat */
	pcs_mutex_init(&s->flush_lock);
}

/* the handoff pairs' rings: a pair for every two workers */
static int rings_create(struct sheaves_shared *sh, int nr_workers)
{
	sh->nr_rings = sh->cfg.workload == SHEAVES_WL_HANDOFF ? nr_workers / 2 : 0;
	if (!sh->nr_rings)
		return 0;
	sh->rings = zalloc_aligned(SMP_CACHE_BYTES, (size_t)sh->nr_rings * sizeof(*sh->rings));
	return sh->rings ? 0 : -1;
}

int sheaves_cache_create(struct sheaves_shared *sh, int nr_cpus, char *err, size_t errlen)
{
	struct kmem_cache *s = &sh->cache;
	long present = sysconf(_SC_NPROCESSORS_CONF);

	/* calculate_order() counts the machine's CPUs: num_present_cpus() */
	cache_sizes(s, &sh->cfg, present > 0 ? (int)present : 1);
	s->pages = &sh->pages;
	s->sheaves = &sh->sheaves;
	s->flush_cpus = calloc(SHEAVES_MAX_CPUS, sizeof(*s->flush_cpus));
	s->flush_old = calloc(SHEAVES_MAX_CPUS, sizeof(*s->flush_old));
	if (!s->flush_cpus || !s->flush_old ||
	    pool_create(&sh->pages, (unsigned long)sh->cfg.pool_mib << 20, s->oo_order) < 0 ||
	    sheaf_pool_create(&sh->sheaves, s->sheaf_capacity) < 0 || nodes_create(sh) < 0 ||
	    rings_create(sh, nr_cpus) < 0)
		goto nomem;
	sh->marks = calloc(sh->pages.nr * s->oo_objects, 1);
	sh->sheaf_marks = calloc(sh->sheaves.nr, 1);
	sh->node_slabs = calloc(SHEAVES_MAX_NODES, sizeof(*sh->node_slabs));
	if (!sh->marks || !sh->sheaf_marks || !sh->node_slabs)
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory for the cache's %d MiB of slabs and its sheaves",
		 sh->cfg.pool_mib);
	return -1;
}

void sheaves_cache_destroy(struct sheaves_shared *sh)
{
	free(sh->cache.flush_cpus);
	free(sh->cache.flush_old);
	free(sh->pages.base);
	free(sh->pages.memmap);
	free(sh->sheaves.base);
	free(sh->nodes);
	free(sh->barns);
	free(sh->rings);
	free(sh->marks);
	free(sh->sheaf_marks);
	free(sh->node_slabs);
}

/* ---- the invariant ---- */

static struct slab *slab_of(struct list_head *lh)
{
	return (struct slab *)((char *)lh - offsetof(struct slab, slab_list));
}

static struct slab_sheaf *sheaf_of_list(struct list_head *lh)
{
	return (struct slab_sheaf *)((char *)lh - offsetof(struct slab_sheaf, barn_list));
}

/* where the check found an object, or a sheaf */
enum { NOWHERE, IN_SLAB, ON_CPU_FREELIST, IN_SHEAF, HELD };
static const char *const obj_where[] = { "nowhere", "a slab's freelist", "a CPU's freelist",
					 "a sheaf", "a worker's hands" };
enum { SHEAF_NOWHERE, SHEAF_IN_POOL, SHEAF_IN_BARN, SHEAF_ON_CPU };
static const char *const sheaf_where[] = { "nowhere", "the kmalloc pool", "a barn", "a CPU" };

struct check {
	struct sheaves_shared *sh;
	struct kmem_cache *s;
	const struct sheaves_ops *ops;
	char *msg;
	size_t len;
};

/* get_freepointer() as the build that ran encodes it */
static void *next_free(const struct check *c, void *x)
{
	unsigned long ptr_addr = (unsigned long)x + c->s->offset;
	unsigned long v = *(unsigned long *)ptr_addr;

	if (c->ops->hardened)
		v ^= c->s->random ^ __builtin_bswap64(ptr_addr);
	return (void *)v;
}

/* the mark slot of an object, or -1 if it is not one of the pool's object slots */
static long object_slot(const struct kmem_cache *s, const void *x, struct slab **slabp)
{
	const unsigned char *p = x;
	const struct slab_pool *pool = s->pages;
	unsigned long off;

	if (p < pool->base || p >= pool->base + (pool->nr << pool->shift))
		return -1;
	*slabp = virt_to_slab(s, x);
	off = (unsigned long)(p - slab_address(s, *slabp));
	if (off % s->size || off / s->size >= s->oo_objects)
		return -1;
	return (long)((unsigned long)(*slabp - pool->memmap) * s->oo_objects + off / s->size);
}

static int mark_object(struct check *c, void *x, unsigned char where)
{
	struct slab *slab;
	long i = object_slot(c->s, x, &slab);

	if (i < 0) {
		snprintf(c->msg, c->len, "%p in %s is no object of the cache", x, obj_where[where]);
		return -1;
	}
	if (slab->slab_cache != c->s) {
		snprintf(c->msg, c->len, "%p in %s is in a slab the page allocator has", x,
			 obj_where[where]);
		return -1;
	}
	if (c->sh->marks[i]) {
		snprintf(c->msg, c->len, "object %p in two places: %s and %s", x,
			 obj_where[c->sh->marks[i]], obj_where[where]);
		return -1;
	}
	c->sh->marks[i] = where;
	return 0;
}

static int mark_sheaf(struct check *c, struct slab_sheaf *sheaf, unsigned char where)
{
	const struct sheaf_pool *p = c->s->sheaves;
	unsigned long off = (unsigned long)((unsigned char *)sheaf - p->base), i = off / p->bytes;

	if ((unsigned char *)sheaf < p->base || off % p->bytes || i >= p->nr) {
		snprintf(c->msg, c->len, "%p in %s is no sheaf", (void *)sheaf, sheaf_where[where]);
		return -1;
	}
	if (c->sh->sheaf_marks[i]) {
		snprintf(c->msg, c->len, "sheaf %lu in two places: %s and %s", i,
			 sheaf_where[c->sh->sheaf_marks[i]], sheaf_where[where]);
		return -1;
	}
	c->sh->sheaf_marks[i] = where;
	return 0;
}

/* a sheaf of a CPU or a barn: its size within capacity, its objects marked */
static int check_sheaf(struct check *c, struct slab_sheaf *sheaf, unsigned char where)
{
	if (mark_sheaf(c, sheaf, where) < 0)
		return -1;
	if (sheaf->cache != c->s || sheaf->size > c->s->sheaf_capacity) {
		snprintf(c->msg, c->len, "a sheaf in %s: cache %p, %u objects of %u", sheaf_where[where],
			 (void *)sheaf->cache, sheaf->size, c->s->sheaf_capacity);
		return -1;
	}
	for (unsigned int i = 0; i < sheaf->size; i++)
		if (mark_object(c, sheaf->objects[i], IN_SHEAF) < 0)
			return -1;
	return 0;
}

/*
 * A slab's freelist, marked: every object of it, none twice (nor a cycle),
 * as many as inuse leaves; frozen only for a CPU's slab before sheaves
 */
static int check_slab(struct check *c, struct slab *slab, long *partial)
{
	unsigned int objects = fc_objects(slab->counters), n = 0;
	void *x;

	if (objects != c->s->oo_objects) {
		snprintf(c->msg, c->len, "a slab of %u objects, not %u", objects, c->s->oo_objects);
		return -1;
	}
	for (x = slab->freelist; x; x = next_free(c, x), n++)
		if (n >= objects || mark_object(c, x, IN_SLAB) < 0 || virt_to_slab(c->s, x) != slab) {
			if (n >= objects || virt_to_slab(c->s, x) != slab)
				snprintf(c->msg, c->len, "a slab's freelist runs past its objects");
			return -1;
		}
	if (fc_inuse(slab->counters) != objects - n) {
		snprintf(c->msg, c->len, "a slab's inuse is %u, but %u of its %u objects are free",
			 fc_inuse(slab->counters), n, objects);
		return -1;
	}
	if (fc_frozen(slab->counters) && !c->ops->cpu_slab) {
		snprintf(c->msg, c->len, "a frozen slab with sheaves");
		return -1;
	}
	/* unfrozen with free objects: on its node's partial list; full: on no list */
	if (!fc_frozen(slab->counters) && !n != !(slab->flags & SL_PARTIAL)) {
		snprintf(c->msg, c->len, "a slab with %u free objects is %son the partial list", n,
			 n ? "not " : "");
		return -1;
	}
	*partial += !!(slab->flags & SL_PARTIAL);
	return 0;
}

/* the page allocator's blocks, and every slab of the cache's */
static int check_slabs(struct check *c)
{
	struct slab_pool *p = c->s->pages;
	unsigned long nr_free = 0, *nr_slabs = c->sh->node_slabs;
	long partial = 0, listed = 0;

	memset(nr_slabs, 0, SHEAVES_MAX_NODES * sizeof(*nr_slabs));

	for (struct list_head *lh = p->free.next; lh != &p->free; lh = lh->next)
		if (++nr_free > p->nr || slab_of(lh)->slab_cache) {
			snprintf(c->msg, c->len, "the page allocator's free list is broken");
			return -1;
		}
	for (unsigned long i = 0; i < p->nr; i++) {
		struct slab *slab = &p->memmap[i];

		if (!slab->slab_cache)
			continue;
		nr_slabs[slab_nid(slab)]++;
		if (check_slab(c, slab, &partial) < 0)
			return -1;
	}
	if (nr_free != p->nr_free) {
		snprintf(c->msg, c->len, "%lu blocks free of %lu, but nr_free says %lu", nr_free,
			 p->nr, p->nr_free);
		return -1;
	}
	for (int node = 0; node < SHEAVES_MAX_NODES; node++) {
		struct kmem_cache_node *n = c->s->node[node];
		unsigned long count = 0;

		for (struct list_head *lh = n->partial.next; lh != &n->partial; lh = lh->next)
			if (++count > p->nr || slab_nid(slab_of(lh)) != node ||
			    !slab_of(lh)->slab_cache) {
				snprintf(c->msg, c->len, "node %d's partial list is broken", node);
				return -1;
			}
		if (count != n->nr_partial ||
		    (unsigned long)atomic_load(&n->nr_slabs) != nr_slabs[node] ||
		    (unsigned long)atomic_load(&n->total_objects) != nr_slabs[node] * c->s->oo_objects) {
			snprintf(c->msg, c->len, "node %d: %lu slabs on the partial list, nr_partial "
				 "%lu; %lu slabs, nr_slabs %ld", node, count, n->nr_partial,
				 nr_slabs[node], atomic_load(&n->nr_slabs));
			return -1;
		}
		listed += (long)count;
	}
	if (listed != partial) {
		snprintf(c->msg, c->len, "%ld slabs marked SL_partial, %ld on partial lists", partial,
			 listed);
		return -1;
	}
	return 0;
}

/* one CPU's sheaves (or the spare set an RCU flush swaps in) */
static int check_pcs(struct check *c, const void *pcs, unsigned int cpu)
{
	size_t off[3] = { c->ops->main_offset, c->ops->spare_offset, c->ops->rcu_free_offset };

	if (!sheaves_field(pcs, c->ops->main_offset)) {
		snprintf(c->msg, c->len, "CPU %u has no main sheaf", cpu);
		return -1;
	}
	for (int k = 0; k < 3; k++) {
		struct slab_sheaf *sheaf = sheaves_field(pcs, off[k]);

		if (sheaf && check_sheaf(c, sheaf, SHEAF_ON_CPU) < 0)
			return -1;
	}
	return 0;
}

/* one CPU's slab before sheaves: frozen, its freelist the CPU's */
static int check_kcc(struct check *c, const void *kcc, unsigned int cpu, long *frozen)
{
	struct slab *slab = sheaves_field(kcc, c->ops->slab_offset);
	void *x = sheaves_field(kcc, c->ops->freelist_offset);
	unsigned int n = 0;

	if (!slab) {
		if (x)
			snprintf(c->msg, c->len, "CPU %u has a freelist and no slab", cpu);
		return x ? -1 : 0;
	}
	if (!slab->slab_cache || !fc_frozen(slab->counters)) {
		snprintf(c->msg, c->len, "CPU %u's slab is not frozen", cpu);
		return -1;
	}
	(*frozen)++;
	for (; x; x = next_free(c, x))
		if (++n > c->s->oo_objects || virt_to_slab(c->s, x) != slab ||
		    mark_object(c, x, ON_CPU_FREELIST) < 0) {
			if (n > c->s->oo_objects || virt_to_slab(c->s, x) != slab)
				snprintf(c->msg, c->len, "CPU %u's freelist leaves its slab", cpu);
			return -1;
		}
	return 0;
}

static int check_cpus(struct check *c, const struct pcb_quiescent *q)
{
	long frozen = 0, frozen_slabs = 0;

	for (int i = 0; i < q->nr_cpus; i++) {
		struct pcb_cpu *cpu = q->cpus[i];

		if (c->ops->cpu_slab && check_kcc(c, cpu->stock, cpu->cpu, &frozen) < 0)
			return -1;
		if (!c->ops->cpu_slab && check_pcs(c, cpu->stock, cpu->cpu) < 0)
			return -1;
		if (!c->ops->cpu_slab && cpu->stock_spare &&
		    check_pcs(c, cpu->stock_spare, cpu->cpu) < 0)
			return -1;
	}
	for (unsigned long i = 0; i < c->s->pages->nr; i++)
		frozen_slabs += c->s->pages->memmap[i].slab_cache &&
				fc_frozen(c->s->pages->memmap[i].counters);
	if (frozen != frozen_slabs) {
		snprintf(c->msg, c->len, "%ld frozen slabs, %ld of them CPUs' slabs", frozen_slabs,
			 frozen);
		return -1;
	}
	return 0;
}

/* a barn's list of sheaves: nr of them, each full (or empty) */
static int check_barn_list(struct check *c, struct list_head *head, unsigned int nr, bool full,
			   int node)
{
	unsigned int count = 0;

	for (struct list_head *lh = head->next; lh != head; lh = lh->next) {
		struct slab_sheaf *sheaf = sheaf_of_list(lh);

		if (++count > nr || check_sheaf(c, sheaf, SHEAF_IN_BARN) < 0) {
			if (count > nr)
				snprintf(c->msg, c->len, "node %d's barn: more %s sheaves than nr_%s %u",
					 node, full ? "full" : "empty", full ? "full" : "empty", nr);
			return -1;
		}
		if (sheaf->size != (full ? c->s->sheaf_capacity : 0)) {
			snprintf(c->msg, c->len, "node %d's barn: a sheaf of %u objects on its %s list",
				 node, sheaf->size, full ? "full" : "empty");
			return -1;
		}
	}
	if (count != nr) {
		snprintf(c->msg, c->len, "node %d's barn: %u %s sheaves, nr_%s %u", node, count,
			 full ? "full" : "empty", full ? "full" : "empty", nr);
		return -1;
	}
	return 0;
}

/* the barns, the kmalloc pool: every sheaf somewhere, once */
static int check_sheaves(struct check *c)
{
	struct sheaf_pool *p = c->s->sheaves;
	unsigned long nr_free = 0, lost = 0;

	for (int node = 0; node < SHEAVES_MAX_NODES; node++) {
		struct node_barn *barn = c->s->node[node]->barn;

		if (check_barn_list(c, &barn->sheaves_full, barn->nr_full, true, node) < 0 ||
		    check_barn_list(c, &barn->sheaves_empty, barn->nr_empty, false, node) < 0)
			return -1;
	}
	for (struct list_head *lh = p->free.next; lh != &p->free; lh = lh->next)
		if (++nr_free > p->nr || mark_sheaf(c, sheaf_of_list(lh), SHEAF_IN_POOL) < 0) {
			if (nr_free > p->nr)
				snprintf(c->msg, c->len, "the sheaves' pool free list is broken");
			return -1;
		}
	for (unsigned long i = 0; i < p->nr; i++)
		lost += !c->sh->sheaf_marks[i];
	if (lost || nr_free != p->nr_free) {
		snprintf(c->msg, c->len, "%lu sheaf(s) lost: neither on a CPU, in a barn nor free "
			 "(%lu free, nr_free %lu)", lost, nr_free, p->nr_free);
		return -1;
	}
	return 0;
}

/* what workers hold, and the handoff rings carry */
static int check_held(struct check *c, const struct pcb_quiescent *q)
{
	for (int i = 0; i < q->nr_workers; i++) {
		struct sheaves_worker *w = sheaves_worker(q->w[i]);

		for (int k = 0; k < w->nr_held; k++)
			if (mark_object(c, w->held[k], HELD) < 0)
				return -1;
	}
	for (int r = 0; r < c->sh->nr_rings; r++) {
		struct sheaves_ring *ring = &c->sh->rings[r];

		for (unsigned long t = ring->tail; t != ring->head; t++)
			if (mark_object(c, ring->slot[t % SHEAVES_RING], HELD) < 0)
				return -1;
	}
	return 0;
}

/* every object of every slab of the cache's found */
static int check_lost(struct check *c)
{
	struct slab_pool *p = c->s->pages;
	unsigned long lost = 0;

	for (unsigned long i = 0; i < p->nr; i++)
		for (unsigned int k = 0; p->memmap[i].slab_cache && k < c->s->oo_objects; k++)
			lost += !c->sh->marks[i * c->s->oo_objects + k];
	if (lost) {
		snprintf(c->msg, c->len, "%lu object(s) lost: in no slab, CPU, sheaf or worker's "
			 "hands", lost);
		return -1;
	}
	return 0;
}

int sheaves_check(const struct pcb_quiescent *q, char *msg, size_t len)
{
	struct sheaves_shared *sh = q->shared;
	struct check c = { .sh = sh, .s = &sh->cache, .ops = sheaves_ops(q->v), .msg = msg,
			   .len = len };

	memset(sh->marks, 0, sh->pages.nr * sh->cache.oo_objects);
	memset(sh->sheaf_marks, 0, sh->sheaves.nr);
	if (check_slabs(&c) < 0 || check_cpus(&c, q) < 0 || check_sheaves(&c) < 0 ||
	    check_held(&c, q) < 0 || check_lost(&c) < 0)
		return -1;
	snprintf(msg, len, "ok");
	return 0;
}
