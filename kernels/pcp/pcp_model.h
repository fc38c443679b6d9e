/* SPDX-License-Identifier: MIT */
/*
 * The page allocator's per-CPU lists as the harness sees them (model.c
 * registers the model): its settings, its per-CPU data, its worker, the
 * state one design's runs share, and what each build exports for the
 * invariant.
 */
#ifndef PCB_PCP_MODEL_H
#define PCB_PCP_MODEL_H

#include "../memcg/memcg_model.h"
#include "../workqueue.h"
#include "mmzone.h"

/* the table rows, under their kernel names */
enum pcp_fn {
	PCP_FN_RMQUEUE_PCPLIST,
	PCP_FN_FREE_UNREF_PAGE,
	PCP_FN_PAGE_FAULT,		/* one fault: allocate, clear, charge, add to the LRU */
	PCP_FN_UNMAP_PAGE,		/* munmap, per page: off the LRU, uncharged, freed */
	PCP_FN_NR,
};
_Static_assert(PCP_FN_NR <= PCB_MAX_FN, "pcp rows fit the worker's statistics");

/*
 * vm_event counters, after the memcg model's (memcontrol.h), which a
 * fault's charge counts in the same per-CPU array
 */
enum pcp_event {
	PCP_EV_PGALLOC = MEMCG_NR_EV,
	PCP_EV_PGFREE,
	PCP_EV_REFILL,			/* rmqueue_bulk() calls: a list ran empty */
	PCP_EV_SPILL,			/* free_pcppages_bulk() calls: count reached high */
	PCP_EV_FALLBACK,		/* a failed pcp trylock: the zone lock instead */
	/* with pcp.zone_lock_hold: ticks the zone lock was held, summed */
	PCP_EV_REFILL_HELD,		/* in rmqueue_bulk() */
	PCP_EV_SPILL_HELD,		/* in free_pcppages_bulk() */
	PCP_EV_BAD_PAGE,		/* bad_page(): a page not in its expected state, leaked */
	PCP_NR_EV,
};
_Static_assert(PCP_NR_EV <= PCB_MAX_EV, "pcp events fit a CPU's counters");

enum pcp_workload {
	PCP_WL_ALLOC_FREE,		/* order-0 allocations and frees, in bursts */
	PCP_WL_PAGE_FAULT,		/* mmtests pft: fault pages in, unmap them */
	PCP_WL_NR,
};

/* what page faults charge (seed 003's kernels and a real memcg) */
enum pcp_accounting {
	PCP_ACCT_MEMCG,			/* charged to a memcg through the memcg stock */
	PCP_ACCT_NONE,			/* no memcg calls compiled in (003's nomemcg) */
	PCP_ACCT_ALWAYS,		/* the root memcg: the hooks always called (003's base) */
	PCP_ACCT_STATIC_KEY,		/* the hooks behind a jump label left a nop (003's bypassed) */
};

#define PCP_NR_KEYS 12

/* pcp.lock_placement: where struct per_cpu_pages keeps its lock */
enum pcp_lock_placement {
	PCP_LOCK_END,			/* after the lists, at 256 bytes: the series */
	PCP_LOCK_FIRST_LINE,		/* first, beside count, high and batch: v6.2 */
	PCP_LOCK_DESIGN,		/* where the design's kernel has it (pcp_design_info) */
};

struct pcp_config {
	int workload;			/* enum pcp_workload */
	int timing;
	int irq_model;
	int in_kernel;			/* run.backend = kernel: cli and sti executed */
	int lock_placement;		/* enum pcp_lock_placement */
	int batch, high;		/* pcp->batch, pcp->high */
	long zone_pages;
	int burst;			/* pages allocated before they are freed */
	int map_pages;			/* page_fault: pages faulted in before the munmap */
	int accounting;			/* enum pcp_accounting */
	int depth;			/* memcg.depth of the charged memcg */
	int clear;			/* page_fault: clear the page (4 KiB of stores) */
	int zone_hold;			/* pcp.zone_lock_hold: time the zone lock's hold */
};

/* pages a worker holds at most: a burst, or a mapping */
#define PCP_MAX_HELD 4096

struct pcp_worker {
	struct pcb_worker w;		/* the harness's part, first */
	struct zone *zone;
	struct lruvec *lruvec;
	struct mem_cgroup *memcg;	/* what faults charge, NULL with accounting none */
	int workload, burst, map_pages, accounting, clear, key_patched;
	int nr_held;
	struct page *held[PCP_MAX_HELD];	/* allocated or mapped, not yet freed */
	uint64_t charged;		/* pages charged and not uncharged */
};
_Static_assert(sizeof(struct pcp_worker) <= 131072, "worker within 128 KiB");

static inline struct pcp_worker *pcp_worker(struct pcb_worker *w)
{
	return (struct pcp_worker *)w;
}

/* DEFINE_PER_CPU(struct pcpu_drain, pcpu_drain): the work drain_all_pages() queues */
struct pcpu_drain {
	struct zone *zone;
	struct work_struct work;
};

/* bytes kept for this CPU's memcg stock (the memcg model's local_trylock layout) */
#define PCP_MEMCG_STOCK_BYTES 128

/*
 * The model's per-CPU data: the memcg model's (struct pcb_cpu first, for
 * the charges page faults make), the drain work, the LRU pagevec, and the
 * memcg stock; the per_cpu_pages follow as the harness's stock.
 */
struct pcp_cpu {
	struct memcg_cpu memcg;
	struct zone *zone;		/* the zone this CPU's per_cpu_pages belong to */
	struct per_cpu_zonestat zonestat;	/* this_cpu_ptr(zone->per_cpu_zonestats) */
	struct pcpu_drain drain ____cacheline_aligned;
	/* mm/swap.c's lru_pvecs.lru_add */
	struct {
		unsigned int nr;
		struct page *pages[PAGEVEC_SIZE];
	} lru_add ____cacheline_aligned;
	unsigned char memcg_stock[PCP_MEMCG_STOCK_BYTES] ____cacheline_aligned;
} ____cacheline_aligned;

static inline struct pcp_cpu *pcp_cpu(struct pcb_cpu *cpu)
{
	return (struct pcp_cpu *)cpu;
}

/* what the model knows of a design (pcb_design.info), from its header */
struct pcp_design_info {
	int lock_first;			/* its kernel's per_cpu_pages has the lock first (v6.2) */
};

/* the build a design runs puts the lock first (PCP_LOCK_FIRST) */
static inline int pcp_lock_first(const struct pcp_config *c, const struct pcb_design *d)
{
	const struct pcp_design_info *info = d->info;

	if (c->lock_placement == PCP_LOCK_DESIGN)
		return info && info->lock_first;
	return c->lock_placement == PCP_LOCK_FIRST_LINE;
}

/* what each build exports for the invariant */
struct pcp_ops {
	/* where this build's struct per_cpu_pages keeps the lock, its size (0: not there) */
	int lock_first;
	size_t lock_offset, lock_size;
	/* a per_cpu_pages: its count, and the pages on its lists (each marked) */
	int (*pcp_count)(const void *pcp);
	void (*pcp_set)(void *pcp, int high, int batch);
	/* the count off by n from its lists: for the check's own test */
	void (*pcp_miscount)(void *pcp, int n);
	long (*pcp_walk)(const void *pcp, int mark, long *marked_twice);
	/* the pages cpu's memcg stock holds for memcg */
	unsigned int (*memcg_stock_pages)(struct pcb_cpu *cpu, const struct mem_cgroup *memcg);
	int (*memcg_stock_refs)(struct pcb_cpu *cpu, const struct mem_cgroup *memcg);
};

static inline const struct pcp_ops *pcp_ops(const struct pcb_variant *v)
{
	return v->ops;
}

/* the state one design's runs share */
struct pcp_shared {
	struct pcp_config cfg;
	const struct pcb_design *design;
	struct zone zone;
	struct lruvec lruvec;
	struct memcg_tree tree;
	int key_patched;
};

extern const struct pcb_model pcp_model;

/* page_alloc.c: the zone and its pages, and the invariant */
int pcp_zone_create(struct zone *zone, unsigned long nr_pages, char *err, size_t errlen);
void pcp_zone_destroy(struct zone *zone);
int pcp_check(const struct pcb_quiescent *q, char *msg, size_t len);

/*
 * Its run-time operations (ops.c), which the program registers (model.c)
 * and the kernel backend's module runs (pcp_model_ops)
 */
int pcp_variant_index(const void *config, const struct pcb_design *d);
void *pcp_setup(const struct pcb_model_setup *ms, char *err, size_t errlen);
void pcp_teardown(void *shared);
void pcp_cpu_setup(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu);
void pcp_worker_setup(void *shared, struct pcb_worker *pw);
void *pcp_drain_target(void *shared);
bool pcp_cache_empty(void *shared, const struct pcb_variant *v, struct pcb_cpu *cpu);

#define PCP_MODEL_OPS {							\
	.variant_index = pcp_variant_index,				\
	.setup = pcp_setup,						\
	.teardown = pcp_teardown,					\
	.cpu_setup = pcp_cpu_setup,					\
	.worker_size = sizeof(struct pcp_worker),			\
	.worker_setup = pcp_worker_setup,				\
	.drain_target = pcp_drain_target,				\
	.check = pcp_check,						\
	.cache_empty = pcp_cache_empty,					\
}
extern const struct pcb_model_ops pcp_model_ops;
extern const struct pcb_model_run pcp_model_run;
/* its scenario keys (keys.c) */
extern const struct pcb_key pcp_keys[];
/* its checks across them (keys.c), struct pcb_model_config's rules() */
int pcp_rules(const void *config, int timing, const struct pcb_design *d,
	      struct pcb_refusal *r);

#endif
