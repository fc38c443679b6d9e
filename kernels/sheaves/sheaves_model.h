/* SPDX-License-Identifier: MIT */
/*
 * SLUB's percpu sheaves as the harness sees them (model.c registers the
 * model): its settings, its per-CPU data, its worker, the state one
 * design's runs share, and what each build exports for the invariant.
 */
#ifndef PCB_SHEAVES_MODEL_H
#define PCB_SHEAVES_MODEL_H

#include "../workqueue.h"
#include "pcb/model.h"
#include "slab.h"

/* the table rows, under their kernel names */
enum sheaves_fn {
	SHEAVES_FN_ALLOC,		/* kmem_cache_alloc(): slab_alloc_node() */
	SHEAVES_FN_FREE,		/* kmem_cache_free(): slab_free() */
	SHEAVES_FN_NR,
};
_Static_assert(SHEAVES_FN_NR <= PCB_MAX_FN, "sheaves rows fit the worker's statistics");

/*
 * enum stat_item's slow-path items (CONFIG_SLUB_STATS, off in production
 * kernels: the model counts only where an increment is lost in the path's
 * own cost, and takes the calls from the timed rows), and the workload's
 */
enum sheaves_event {
	SHEAVES_EV_ALLOC_SLOWPATH,	/* from a partial or new slab: no sheaf served it */
	SHEAVES_EV_FREE_SLOWPATH,	/* to the slab: no sheaf took it */
	SHEAVES_EV_BARN_GET,		/* a full sheaf from the barn */
	SHEAVES_EV_BARN_GET_FAIL,
	SHEAVES_EV_BARN_PUT,		/* a full sheaf to the barn */
	SHEAVES_EV_BARN_PUT_FAIL,
	SHEAVES_EV_SHEAF_REFILL,	/* objects refilled to a sheaf from slabs */
	SHEAVES_EV_SHEAF_FLUSH,		/* objects flushed from a sheaf to slabs */
	SHEAVES_EV_SHEAF_ALLOC,		/* empty sheaves allocated */
	SHEAVES_EV_SHEAF_FREE,		/* ... and freed */
	SHEAVES_EV_ALLOC_SLAB,		/* new slabs from the page allocator */
	SHEAVES_EV_FREE_SLAB,		/* slabs given back to it */
	SHEAVES_EV_PCS_BUSY,		/* the sheaves' trylock failed: the slab path instead */
	SHEAVES_EV_CMPXCHG_CPU_FAIL,	/* kmem_cache_cpu: this_cpu_cmpxchg16b failed, retried */
	SHEAVES_EV_CPUSLAB_FLUSH,	/* kmem_cache_cpu: a CPU slab deactivated by a flush */
	SHEAVES_EV_HANDOFF_STALL,	/* handoff: the partner's ring was full, or empty */
	SHEAVES_NR_EV,
};
_Static_assert(SHEAVES_NR_EV <= PCB_MAX_EV, "sheaves events fit a CPU's counters");

enum sheaves_workload {
	SHEAVES_WL_ALLOC_FREE,		/* workload.burst allocations, then as many frees */
	SHEAVES_WL_HANDOFF,		/* one CPU allocates, its partner frees: the barn path */
	SHEAVES_WL_NR,
};

#define SHEAVES_NR_KEYS 7

struct sheaves_config {
	int workload;			/* enum sheaves_workload */
	int timing;
	int irq_model;
	int in_kernel;			/* run.backend = kernel: cli and sti executed */
	int hardened;			/* CONFIG_SLAB_FREELIST_HARDENED */
	int object_size;
	int capacity;			/* 0: calculate_sheaf_capacity()'s */
	int pool_mib;			/* MiB of slab blocks the page allocator has */
	int burst;
};

/* objects a worker holds at most, and a handoff ring's slots */
#define SHEAVES_MAX_BURST	1024
#define SHEAVES_RING		2048

/*
 * Between an allocating worker and the worker that frees what it
 * allocated, on another CPU: one producer, one consumer
 */
struct sheaves_ring {
	unsigned long head ____cacheline_aligned;	/* objects the allocator pushed */
	unsigned long tail ____cacheline_aligned;	/* objects the freer took */
	void *slot[SHEAVES_RING] ____cacheline_aligned;
};

enum sheaves_role {
	SHEAVES_ALONE,			/* allocates and frees its own */
	SHEAVES_ALLOCATOR,		/* handoff: allocates, pushes to its ring */
	SHEAVES_FREER,			/* handoff: frees what its ring brings */
};

struct sheaves_worker {
	struct pcb_worker w;		/* the harness's part, first */
	struct kmem_cache *s;
	int workload, burst, role;
	struct sheaves_ring *ring;	/* handoff: the pair's */
	int nr_held;
	void *held[SHEAVES_MAX_BURST];	/* allocated, not yet freed or pushed */
};
_Static_assert(sizeof(struct sheaves_worker) <= 131072, "worker within 128 KiB");

static inline struct sheaves_worker *sheaves_worker(struct pcb_worker *w)
{
	return (struct sheaves_worker *)w;
}

/* DEFINE_PER_CPU(struct slub_flush_work, slub_flush): what flush_all_cpus_locked() queues */
struct slub_flush_work {
	struct work_struct work;
	struct kmem_cache *s;
	bool skip;
};

/*
 * The model's per-CPU data: struct pcb_cpu first, the cache this CPU's
 * area serves, and the flush work on a line of its own; the percpu
 * sheaves (or kmem_cache_cpu) follow as the harness's stock.
 */
struct sheaves_cpu {
	struct pcb_cpu cpu;
	struct kmem_cache *cache;
	struct slub_flush_work flush ____cacheline_aligned;
} ____cacheline_aligned;

static inline struct sheaves_cpu *sheaves_cpu(struct pcb_cpu *cpu)
{
	return (struct sheaves_cpu *)cpu;
}

/*
 * What each build exports for the invariant and the tests: where its
 * per-CPU struct keeps what (struct slub_percpu_sheaves, or the old
 * struct kmem_cache_cpu)
 */
struct sheaves_ops {
	int cpu_slab;			/* kmem_cache_cpu: a freelist and a frozen slab */
	int hardened;			/* its free pointers encoded (SLAB_FREELIST_HARDENED) */
	size_t stock_size;
	size_t lock_offset, lock_size;	/* the per-CPU lock (0 bytes: none in the struct) */
	size_t main_offset, spare_offset, rcu_free_offset;	/* slub_percpu_sheaves */
	size_t freelist_offset, tid_offset, slab_offset;	/* kmem_cache_cpu */
	const char *lock_name;		/* its type: local_trylock_t, spinlock_t, ... */
};

static inline const struct sheaves_ops *sheaves_ops(const struct pcb_variant *v)
{
	return v->ops;
}

/* a pointer member of a CPU's struct at offset */
static inline void *sheaves_field(const void *stock, size_t offset)
{
	return READ_ONCE(*(void *const *)((const char *)stock + offset));
}

/* the state one design's runs share */
struct sheaves_shared {
	struct sheaves_config cfg;
	const struct pcb_design *design;
	struct kmem_cache cache;
	struct slab_pool pages;
	struct sheaf_pool sheaves;
	struct kmem_cache_node *nodes;	/* SHEAVES_MAX_NODES of them */
	struct node_barn *barns;
	unsigned char *marks;		/* the invariant's: an object slot a byte */
	unsigned char *sheaf_marks;	/* ... a sheaf a byte */
	unsigned long *node_slabs;	/* ... the slabs of each node */
	struct sheaves_ring *rings;
	int nr_rings;
	atomic_int next_worker;		/* worker_setup()'s pairing */
};

extern const struct pcb_model sheaves_model;

/* slub.c: the cache, the invariant, what a machine needs */
int sheaves_cache_create(struct sheaves_shared *sh, int nr_cpus, char *err, size_t errlen);
void sheaves_cache_destroy(struct sheaves_shared *sh);
int sheaves_check(const struct pcb_quiescent *q, char *msg, size_t len);
const char *sheaves_unavailable(void);
/* calculate_sheaf_capacity() and calculate_order() for an object size */
unsigned int sheaves_capacity_of(unsigned int size, unsigned int requested);
unsigned int sheaves_order_of(unsigned int size, unsigned int nr_cpus);

/*
 * Its run-time operations (ops.c), which the program registers (model.c)
 * and the kernel backend's module runs (sheaves_model_ops)
 */
int sheaves_variant_index(const void *config, const struct pcb_design *d);
void *sheaves_setup(const struct pcb_model_setup *ms, char *err, size_t errlen);
void sheaves_teardown(void *shared);
void sheaves_cpu_setup(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu);
void sheaves_worker_setup(void *shared, struct pcb_worker *pw);
void *sheaves_drain_target(void *shared);
bool sheaves_cache_empty(void *shared, const struct pcb_variant *v, struct pcb_cpu *cpu);

#define SHEAVES_MODEL_OPS {						\
	.variant_index = sheaves_variant_index,				\
	.setup = sheaves_setup,						\
	.teardown = sheaves_teardown,					\
	.cpu_setup = sheaves_cpu_setup,					\
	.worker_size = sizeof(struct sheaves_worker),			\
	.worker_setup = sheaves_worker_setup,				\
	.drain_target = sheaves_drain_target,				\
	.check = sheaves_check,						\
	.cache_empty = sheaves_cache_empty,				\
}
extern const struct pcb_model_ops sheaves_model_ops;
extern const struct pcb_model_run sheaves_model_run;
/* its scenario keys (keys.c) */
extern const struct pcb_key sheaves_keys[];
/* its checks across them (keys.c), struct pcb_model_config's rules() */
int sheaves_rules(const void *config, int timing, const struct pcb_design *d,
		  struct pcb_refusal *r);

#endif
