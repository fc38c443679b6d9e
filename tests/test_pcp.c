/* SPDX-License-Identifier: MIT */

/*
 * The page allocator model's torture test: for every design, build
 * variant, work delivery and workload, workers pinned two to a CPU allocate
 * and free pages (or fault them in and unmap them, charging a memcg) while
 * another thread fires drain_all_pages() as fast as it can. At each
 * quiescent point every page is in exactly one place (a zone free list, a
 * CPU's lists, or held by a worker), every count equals its list, charges
 * balance; a drain then empties every CPU's lists; at the end nothing is
 * left on them. The last worker's CPU is isolated, which qpw drains from
 * the drainer's CPU under its lock. The check is shown to catch a page in two places, a lost
 * page and a count that lies.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testing.h"
#include "../harness/run/cpu_area.h"
#include "../harness/run/work.h"
#include "../kernels/locks/irq.h"
#include "../kernels/pcp/buddy.h"
#include "../kernels/pcp/pcp_model.h"

#define NR_WORKERS 4
#define ROUNDS 3
#define OPS 8000

struct ctx {
	const struct pcb_design *d;
	const struct pcb_variant *v;
	struct pcp_config cfg;
	enum pcb_delivery delivery;
	struct pcp_shared *s;
	struct pcp_worker *w[NR_WORKERS];
	struct pcb_worker *pw[NR_WORKERS];
	struct pcb_cpu *cpu[NR_WORKERS + 1];	/* the last is the drainer's */
	struct pcb_workq wq[NR_WORKERS];
	pthread_barrier_t bar;
	atomic_int stop_drainer;
	atomic_long drains;
	int ncpu, failed_setup;
};

struct warg {
	struct ctx *x;
	int i;
};

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *worker_thread(void *arg)
{
	struct warg *a = arg;
	struct ctx *x = a->x;
	struct pcb_worker *w = x->pw[a->i];
	int os = a->i % x->ncpu;
	char err[256];
	struct pcb_work work = pcb_drain_work(x->v, w->cpu);

	pin(os);
	if (x->d->drain.queues_work &&
	    pcb_workq_start(&x->wq[a->i], &work, x->delivery, os, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		x->failed_setup = 1;
	}
	if (x->v->thread_start)
		x->v->thread_start();
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&x->bar);	/* round starts */
		w->ops = 0;
		w->ops_limit = OPS;
		x->v->run(w);
		pthread_barrier_wait(&x->bar);	/* quiescent */
		pthread_barrier_wait(&x->bar);	/* checked and drained */
	}
	if (x->d->drain.queues_work)
		pcb_workq_stop(&x->wq[a->i]);
	x->v->release(w);
	x->v->drain_local(w->cpu);
	if (x->v->thread_stop)
		x->v->thread_stop();
	return NULL;
}

static void *drainer_thread(void *arg)
{
	struct ctx *x = arg;

	if (x->v->thread_start)
		x->v->thread_start();
	/* at least one drain a round, however quickly the workers finish */
	do {
		/* flush_work() of the work designs waits a moment at most */
		pcb_work_set_deadline(pcb_tsc_now() + (uint64_t)2e8);
		x->v->drain_all(x->cpu[NR_WORKERS], &x->s->zone, x->cpu, NR_WORKERS);
		atomic_fetch_add(&x->drains, 1);
	} while (!atomic_load(&x->stop_drainer));
	if (x->v->thread_stop)
		x->v->thread_stop();
	return NULL;
}

static int check(struct ctx *x, char *msg, size_t len)
{
	struct pcb_quiescent q = { .shared = x->s, .v = x->v, .w = x->pw, .nr_workers = NR_WORKERS,
				   .cpus = x->cpu, .nr_cpus = NR_WORKERS + 1 };

	return pcp_model.check(&q, msg, len);
}

static void set_up(struct ctx *x, const struct pcb_design *d, int lock_first, int irq,
		   int workload)
{
	char note[256], err[256];

	x->d = d;
	x->cfg = (struct pcp_config){
		.workload = workload, .timing = PCB_TIMING_CALL, .irq_model = irq,
		.lock_placement = lock_first ? PCP_LOCK_FIRST_LINE : PCP_LOCK_END, .batch = 7, .high = 40, .zone_pages = 4096,
		.burst = 1 + lock_first * 20, .map_pages = 100, .accounting = PCP_ACCT_MEMCG,
		.depth = 3, .clear = 1,
	};
	x->v = d->variant[pcp_model.variant_index(&x->cfg, d)];
	x->s = pcp_model.setup(&(struct pcb_model_setup){ .config = &x->cfg, .d = d,
							  .nr_cpus = NR_WORKERS, .note = note,
							  .notelen = sizeof(note) }, err, sizeof(err));
	CHECK(x->s != NULL, "setup: %s", err);
	x->ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (x->ncpu < 1)
		x->ncpu = 1;
	for (int i = 0; i <= NR_WORKERS; i++) {
		size_t size = (pcb_cpu_area_size(d, x->v) + 4095) & ~(size_t)4095;

		/* the last worker's CPU is isolated */
		x->cpu[i] = pcb_cpu_area_init(aligned_alloc(4096, size), d, x->v, (unsigned int)i, 0,
					      i == NR_WORKERS - 1);
		pcp_model.cpu_setup(x->s, d, x->cpu[i]);
	}
	for (int i = 0; i < NR_WORKERS; i++) {
		struct pcp_worker *w = aligned_alloc(64, sizeof(*w));

		memset(w, 0, sizeof(*w));
		w->w.cpu = x->cpu[i];
		w->w.timing = i & 1 ? PCB_TIMING_BATCH : PCB_TIMING_CALL;
		w->w.rng = 0x1234567ULL * (uint64_t)(i + 1);
		w->w.dbg.limit = PCB_NO_LIMIT;
		x->cpu[i]->h.dbg = &w->w.dbg;
		pcp_model.worker_setup(x->s, &w->w);
		x->w[i] = w;
		x->pw[i] = &w->w;
	}
}

static void tear_down(struct ctx *x)
{
	for (int i = 0; i < NR_WORKERS; i++)
		free(x->w[i]);
	for (int i = 0; i <= NR_WORKERS; i++)
		free(x->cpu[i]);
	pcp_model.teardown(x->s);
}

/*
 * NR_FREE_PAGES as zone_page_state_snapshot() reads it: the zone's atomic
 * and every CPU's vm_stat_diff. A page moved from one to the other keeps
 * the check whole; a diff that lies breaks it. The threshold is
 * calculate_normal_threshold()'s: 2 fls(4 CPUs) (1 + fls(16 MB / 128 MB)).
 */
static void vmstat_breaks(struct ctx *x, const char *name)
{
	struct zone *zone = &x->s->zone;
	struct per_cpu_zonestat *zs = &pcp_cpu(x->cpu[0])->zonestat;
	signed char keep = zs->vm_stat_diff[NR_FREE_PAGES];
	char msg[256];

	CHECK(zs->stat_threshold == 6, "%s: stat_threshold %d", name, zs->stat_threshold);
	zs->vm_stat_diff[NR_FREE_PAGES] = (signed char)(keep + 1);
	CHECK(check(x, msg, sizeof(msg)) < 0 && strstr(msg, "NR_FREE_PAGES"),
	      "%s: a lying diff: %s", name, msg);
	atomic_fetch_sub(&zone->vm_stat[NR_FREE_PAGES], 1);
	CHECK(check(x, msg, sizeof(msg)) == 0, "%s: a page in the diff, not the zone: %s",
	      name, msg);
	atomic_fetch_add(&zone->vm_stat[NR_FREE_PAGES], 1);
	zs->vm_stat_diff[NR_FREE_PAGES] = keep;
}

/*
 * The buddy allocator's part of the check: a block split by hand and not
 * merged, a block off its alignment, a lying nr_free, and PG_buddy on a
 * page held; and __rmqueue_smallest() then __free_one_page() of a page
 * leaving the free lists as they were (the split merged back).
 */
static void buddy_breaks(struct ctx *x, const char *name)
{
	struct zone *zone = &x->s->zone;
	unsigned long before[MAX_ORDER];
	unsigned int o = MAX_ORDER - 1;
	struct page *a, *p;
	char msg[256];

	while (o && list_empty(&zone->free_area[o].free_list[MIGRATE_MOVABLE]))
		o--;
	CHECK(o > 0, "%s: a free block above order 0", name);
	if (!o)
		return;
	a = page_of(zone->free_area[o].free_list[MIGRATE_MOVABLE].next);
	del_page_from_free_list(a, zone, o);
	set_buddy_order(a, o - 1);
	add_to_free_list(a, zone, o - 1, MIGRATE_MOVABLE);
	set_buddy_order(&a[1ul << (o - 1)], o - 1);
	add_to_free_list(&a[1ul << (o - 1)], zone, o - 1, MIGRATE_MOVABLE);
	CHECK(check(x, msg, sizeof(msg)) < 0 && strstr(msg, "not merged"), "%s: unmerged: %s",
	      name, msg);
	del_page_from_free_list(&a[1ul << (o - 1)], zone, o - 1);
	del_page_from_free_list(a, zone, o - 1);
	set_buddy_order(&a[1], o);
	add_to_free_list(&a[1], zone, o, MIGRATE_MOVABLE);
	CHECK(check(x, msg, sizeof(msg)) < 0 && strstr(msg, "not aligned"), "%s: misaligned: %s",
	      name, msg);
	del_page_from_free_list(&a[1], zone, o);
	__free_one_page(zone, a, page_to_pfn(zone, a), o, MIGRATE_MOVABLE);
	zone->free_area[o].nr_free++;
	CHECK(check(x, msg, sizeof(msg)) < 0 && strstr(msg, "blocks on the order"),
	      "%s: nr_free: %s", name, msg);
	zone->free_area[o].nr_free--;

	for (unsigned int i = 0; i < MAX_ORDER; i++)
		before[i] = zone->free_area[i].nr_free;
	p = __rmqueue_smallest(zone, 0, MIGRATE_MOVABLE);
	CHECK(p && !PageBuddy(p), "%s: a page off the free lists", name);
	if (!p)
		return;
	atomic_fetch_sub(&zone->vm_stat[NR_FREE_PAGES], 1);
	x->w[0]->held[x->w[0]->nr_held++] = p;
	CHECK(check(x, msg, sizeof(msg)) == 0, "%s: a page split off: %s", name, msg);
	/* of no order a block can have, so that no free neighbour takes it for its buddy */
	__SetPageBuddy(p);
	p->private = MAX_ORDER;
	CHECK(check(x, msg, sizeof(msg)) < 0 && strstr(msg, "PG_buddy but not"),
	      "%s: stray PG_buddy: %s", name, msg);
	__ClearPageBuddy(p);
	p->private = 0;
	x->w[0]->nr_held--;
	__free_one_page(zone, p, page_to_pfn(zone, p), 0, MIGRATE_MOVABLE);
	atomic_fetch_add(&zone->vm_stat[NR_FREE_PAGES], 1);
	for (unsigned int i = 0; i < MAX_ORDER; i++)
		CHECK(zone->free_area[i].nr_free == before[i], "%s: order %u: %lu blocks, %lu before",
		      name, i, zone->free_area[i].nr_free, before[i]);
	CHECK(check(x, msg, sizeof(msg)) == 0, "%s: merged back: %s", name, msg);
}

static void run_one(const struct pcb_design *d, int lock_first, int irq, int workload,
		    enum pcb_delivery delivery)
{
	struct ctx x = { .delivery = delivery };
	pthread_t tid[NR_WORKERS], drainer;
	struct warg args[NR_WORKERS];
	char name[160], msg[256];

	snprintf(name, sizeof(name), "%s lock_first=%d irq=%d %s%s%s", d->name, lock_first, irq,
		 workload ? "page_fault" : "pcp_alloc_free", d->drain.queues_work ? " delivery=" : "",
		 d->drain.queues_work ? pcb_delivery_name[delivery] : "");
	if (d->drain.queues_work && delivery == PCB_DELIVER_KWORKER && !pcb_workq_fifo_permitted()) {
		printf("%s: skipped: SCHED_FIFO is not permitted here (CAP_SYS_NICE)\n", name);
		return;
	}
	set_up(&x, d, lock_first, irq, workload);
	if (!x.s)
		return;
	pthread_barrier_init(&x.bar, NULL, NR_WORKERS + 1);
	for (int i = 0; i < NR_WORKERS; i++) {
		args[i].x = &x;
		args[i].i = i;
		pthread_create(&tid[i], NULL, worker_thread, &args[i]);
	}
	for (int r = 0; r < ROUNDS; r++) {
		atomic_store(&x.stop_drainer, 0);
		pthread_barrier_wait(&x.bar);	/* round starts */
		pthread_create(&drainer, NULL, drainer_thread, &x);
		pthread_barrier_wait(&x.bar);	/* quiescent */
		atomic_store(&x.stop_drainer, 1);
		pthread_join(drainer, NULL);
		pcb_work_wait_idle(x.cpu, NR_WORKERS, (uint64_t)3e9, 0);
		CHECK(check(&x, msg, sizeof(msg)) == 0, "%s, round %d: %s", name, r, msg);
		/* a drain now empties every CPU's lists (work ones once the work ran) */
		pcb_work_set_deadline(pcb_tsc_now() + (uint64_t)3e8);
		if (x.v->thread_start)
			x.v->thread_start();
		x.v->drain_all(x.cpu[NR_WORKERS], &x.s->zone, x.cpu, NR_WORKERS);
		if (x.v->thread_stop)
			x.v->thread_stop();
		pcb_work_wait_idle(x.cpu, NR_WORKERS, (uint64_t)3e9, 0);
		for (int i = 0; i < NR_WORKERS && delivery != PCB_DELIVER_POLL; i++)
			CHECK(pcp_model.cache_empty(x.s, x.v, x.cpu[i]), "%s: CPU %d not drained",
			      name, i);
		CHECK(check(&x, msg, sizeof(msg)) == 0, "%s, after a drain: %s", name, msg);
		pthread_barrier_wait(&x.bar);	/* checked and drained */
	}
	for (int i = 0; i < NR_WORKERS; i++)
		pthread_join(tid[i], NULL);
	CHECK(!x.failed_setup, "%s: setup", name);
	CHECK(check(&x, msg, sizeof(msg)) == 0, "%s, at the end: %s", name, msg);
	for (int i = 0; i < NR_WORKERS; i++)
		CHECK(pcp_model.cache_empty(x.s, x.v, x.cpu[i]), "%s: CPU %d's lists not empty", name, i);
	{
		uint64_t ops = 0, allocs = 0;

		for (int i = 0; i < NR_WORKERS; i++) {
			ops += x.w[i]->w.ops;
			allocs += x.cpu[i]->ev[PCP_EV_PGALLOC];
		}
		CHECK(ops > 0 && allocs > 0, "%s: the workers allocated", name);
		CHECK(atomic_load(&x.drains) > 0, "%s: the drainer ran", name);
	}
	/* the check catches a page in two places, a lost page, and a lying count */
	{
		struct zone *zone = &x.s->zone;
		unsigned int o = MAX_ORDER - 1;
		struct page *a;

		while (o && list_empty(&zone->free_area[o].free_list[MIGRATE_MOVABLE]))
			o--;
		a = page_of(zone->free_area[o].free_list[MIGRATE_MOVABLE].next);
		x.w[0]->held[x.w[0]->nr_held++] = a;
		CHECK(check(&x, msg, sizeof(msg)) < 0 && strstr(msg, "two places"), "%s: twice: %s",
		      name, msg);
		x.w[0]->nr_held--;
		del_page_from_free_list(a, zone, o);
		atomic_fetch_sub(&zone->vm_stat[NR_FREE_PAGES], 1l << o);
		CHECK(check(&x, msg, sizeof(msg)) < 0 && strstr(msg, "pages in the zone"),
		      "%s: lost: %s", name, msg);
		__free_one_page(zone, a, page_to_pfn(zone, a), o, MIGRATE_MOVABLE);
		atomic_fetch_add(&zone->vm_stat[NR_FREE_PAGES], 1l << o);
		pcp_ops(x.v)->pcp_miscount(x.cpu[0]->stock, 1);
		CHECK(check(&x, msg, sizeof(msg)) < 0 && strstr(msg, "pcp->count"), "%s: count: %s",
		      name, msg);
		pcp_ops(x.v)->pcp_miscount(x.cpu[0]->stock, -1);
		CHECK(check(&x, msg, sizeof(msg)) == 0, "%s: restored: %s", name, msg);
		vmstat_breaks(&x, name);
		buddy_breaks(&x, name);
	}
	pthread_barrier_destroy(&x.bar);
	tear_down(&x);
}

/* the variant a configuration runs is the build meson named for it: both read variants.def */
static void variant_names(const struct pcb_design *d)
{
	for (int lock_first = 0; lock_first <= 1; lock_first++)
		for (int irq = 0; irq < PCB_IRQ_MODELS; irq++) {
			struct pcp_config cfg = { .irq_model = irq,
				.lock_placement = lock_first ? PCP_LOCK_FIRST_LINE : PCP_LOCK_END };
			const struct pcb_variant *v = d->variant[pcp_model.variant_index(&cfg, d)];
			char name[16];

			snprintf(name, sizeof(name), "l%d_i%d", lock_first, irq);
			CHECK(!strcmp(v->name, name), "%s: lock_first %d, irq_model %d: variant %s",
			      d->name, lock_first, irq, v->name);
			CHECK(pcp_ops(v)->lock_first == lock_first &&
			      (!pcp_ops(v)->lock_size || !lock_first || pcp_ops(v)->lock_offset == 0),
			      "%s %s: the build's lock at %zu", d->name, v->name,
			      pcp_ops(v)->lock_offset);
		}
}

/*
 * pcp.lock_placement = design: the layout of the design's kernel, v6.2's
 * (the lock first, whole cache lines) for pcp_trylock, the series' for
 * the rest
 */
static void design_layout(const struct pcb_design *d)
{
	struct pcp_config cfg = { .lock_placement = PCP_LOCK_DESIGN };
	const struct pcb_variant *v = d->variant[pcp_model.variant_index(&cfg, d)];
	const struct pcp_ops *ops = pcp_ops(v);
	int v62 = !strcmp(d->name, "pcp_trylock");

	CHECK(ops->lock_first == v62, "%s: by default the lock %s, not %s", d->name,
	      v62 ? "first" : "after the lists", v->name);
	if (v62)
		CHECK(ops->lock_offset == 0 && v->stock_size % 64 == 0,
		      "pcp_trylock: v6.2's per_cpu_pages has the lock at 0 (here %zu), %zu bytes",
		      ops->lock_offset, v->stock_size);
	else if (ops->lock_size)
		CHECK(ops->lock_offset == 256, "%s: the series' lock at 256, here %zu", d->name,
		      ops->lock_offset);
}

int main(void)
{
	for (int i = 0; pcp_model.designs[i]; i++) {
		const struct pcb_design *d = pcp_model.designs[i];

		variant_names(d);
		design_layout(d);
		for (int wl = 0; wl < PCP_WL_NR; wl++) {
			if (d->drain.queues_work) {
				for (int del = 0; del <= PCB_DELIVER_POLL; del++) {
#if defined(__SANITIZE_THREAD__)
					/* as in test_invariant: poll is what TSan checks faithfully */
					if (del != PCB_DELIVER_POLL)
						continue;
#endif
					run_one(d, 0, 0, wl, (enum pcb_delivery)del);
				}
				run_one(d, 1, 1, wl, PCB_DELIVER_POLL);
			} else {
				run_one(d, 0, 0, wl, PCB_DELIVER_POLL);
				run_one(d, 1, 1, wl, PCB_DELIVER_POLL);
			}
			run_one(d, 0, PCB_IRQ_KERNEL, wl, PCB_DELIVER_POLL);
		}
	}
	return check_summary();
}
