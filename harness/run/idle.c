/* SPDX-License-Identifier: MIT */
/*
 * The idle CPUs a coordinator's drain walks beyond the workers' (idle.h):
 * virtual CPUs placed on nodes as the machine's would be, some holding
 * charges, some isolated, and the helper threads on other cores that
 * stand in for them: each refills its share of their caches before each
 * drain and runs the work a drain queued to them, after the timed call
 * or, where the drain flushes its work, within it, in parallel.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idle.h"

enum { DIRT_REFILL = 1, DIRT_RUN_WORK = 2, DIRT_SERVE = 3 };

/*
 * An idle CPU's cache that holds nothing, as its owner left it: each of
 * its lines written back unchanged, so that the drain finds it Modified in
 * another core's cache, not Shared in its own from the last drain. In the
 * kernel the drainer's copy of an idle CPU's stock is long gone by the next
 * drain (seed 000's came seconds apart) and each is a miss to another core
 * or node.
 */
static void dirt_lines(void *cache, size_t size)
{
	volatile unsigned char *p = cache;

	for (size_t off = 0; off < size; off += PCB_CACHE_LINE)
		p[off] = p[off];
}

/*
 * Helper h's share of the virtual CPUs (all of them where no helper runs):
 * their caches refilled (or, not charged, their lines dirtied) as their
 * owners would have left them, or the work a drain woke them for run, as
 * their kworkers would
 */
static void dirt_do(struct pcb_coord *c, int h, int what)
{
	int step = c->nr_helpers > 0 ? c->nr_helpers : 1;

	for (int i = h; i < c->nr_virtual; i += step) {
		struct pcb_cpu *cpu = c->cpus[c->nr_workers + i];

		if (what == DIRT_REFILL && i < c->nr_charged)
			c->v->prefill(cpu, c->shared);
		else if (what == DIRT_REFILL)
			dirt_lines(cpu->stock, c->v->stock_size);
		else if (what == DIRT_RUN_WORK && pcb_virtual_run_woken(cpu))
			atomic_fetch_add_explicit(&c->ran_after, 1, memory_order_relaxed);
	}
}

/*
 * Inside a timed drain that flushes its work: helper h watches its virtual
 * CPUs' wake words (a polling idle loop, which a store wakes) and runs
 * what a drain queued there, while the drainer waits in flush_work()
 */
static void helper_serve(struct pcb_coord *c, int h)
{
	for (int i = h; i < c->nr_virtual; i += c->nr_helpers)
		atomic_store_explicit(&c->cpus[c->nr_workers + i]->h.wq->served, 1,
				      memory_order_release);
	atomic_fetch_add(&c->watching, 1);
	for (unsigned int idle = 0; atomic_load_explicit(&c->serving, memory_order_acquire);) {
		for (int i = h; i < c->nr_virtual; i += c->nr_helpers)
			if (pcb_virtual_run_woken(c->cpus[c->nr_workers + i])) {
				atomic_fetch_add_explicit(&c->helper_ran, 1, memory_order_relaxed);
				idle = 0;
			}
		__builtin_ia32_pause();
		/* on a CPU of its own a yield returns at once; sharing one, the drainer runs */
		if (++idle % 256 == 0)
			sched_yield();
	}
	for (int i = h; i < c->nr_virtual; i += c->nr_helpers)
		atomic_store_explicit(&c->cpus[c->nr_workers + i]->h.wq->served, 0,
				      memory_order_release);
	atomic_fetch_sub(&c->watching, 1);
}

/*
 * A helper: on another core, it refills its virtual CPUs' caches before
 * each drain and runs the work a drain queued to them, so their caches
 * and pools are Modified there as on their owners' cores, not hot in the
 * drainer's cache; and each helper on its own core, as each idle CPU's
 * kworker runs on its own.
 */
static void *helper_main(void *arg)
{
	struct pcb_helper *hp = arg;
	struct pcb_coord *c = hp->c;
	unsigned int gen = 0;
	int what;

	pcb_topo_pin(c->topo, (unsigned int)hp->cpu);
	pthread_mutex_lock(&c->dirt_lock);
	for (;;) {
		while (c->dirt_gen == gen && !c->dirt_stop)
			pthread_cond_wait(&c->dirt_cond, &c->dirt_lock);
		if (c->dirt_stop)
			break;
		gen = c->dirt_gen;
		what = c->dirt_request;
		pthread_mutex_unlock(&c->dirt_lock);
		if (what == DIRT_SERVE) {
			helper_serve(c, hp->index);
			pthread_mutex_lock(&c->dirt_lock);
			continue;
		}
		dirt_do(c, hp->index, what);
		pthread_mutex_lock(&c->dirt_lock);
		if (++c->dirt_done == c->nr_helpers)
			pthread_cond_broadcast(&c->dirt_cond);
	}
	pthread_mutex_unlock(&c->dirt_lock);
	return NULL;
}

/* every helper's share done (the coordinator's own where none runs) */
static void helpers_do(struct pcb_coord *c, int what)
{
	if (!c->nr_helpers) {
		dirt_do(c, 0, what);
		return;
	}
	pthread_mutex_lock(&c->dirt_lock);
	c->dirt_done = 0;
	c->dirt_request = what;
	c->dirt_gen++;
	pthread_cond_broadcast(&c->dirt_cond);
	while (c->dirt_done < c->nr_helpers)
		pthread_cond_wait(&c->dirt_cond, &c->dirt_lock);
	pthread_mutex_unlock(&c->dirt_lock);
}

/* the helpers watch their CPUs from now until pcb_idle_unserve(); untimed */
void pcb_idle_serve(struct pcb_coord *c)
{
	atomic_store(&c->serving, 1);
	pthread_mutex_lock(&c->dirt_lock);
	c->dirt_request = DIRT_SERVE;
	c->dirt_gen++;
	pthread_cond_broadcast(&c->dirt_cond);
	pthread_mutex_unlock(&c->dirt_lock);
	while (atomic_load(&c->watching) < c->nr_helpers)
		sched_yield();
}

/* ... and stop, each past the work it was running */
void pcb_idle_unserve(struct pcb_coord *c)
{
	atomic_store(&c->serving, 0);
	while (atomic_load(&c->watching) > 0)
		sched_yield();
}

/* virtual CPU i of n is isolated when the share reaches a new whole CPU: spread evenly */
static bool virtual_isolated(int i, int pct)
{
	return (long)(i + 1) * pct / 100 > (long)i * pct / 100;
}

/*
 * Virtual CPU i's area and work queue start (i % 64) lines into their
 * pages. Each is a page of its own, so at one offset every idle CPU's
 * stock would fall in the same set of each cache, and the helper core
 * that holds them all as their owners would (up to 127) would evict its
 * own refills, more or fewer by where the pages happened to land in its
 * L2: a drain's cost set by page colour. In the kernel each stock is
 * alone in its owner's cache.
 */
#define VIRTUAL_PAGE 4096

static size_t virtual_colour(int i)
{
	return (size_t)(i % (VIRTUAL_PAGE / PCB_CACHE_LINE)) * PCB_CACHE_LINE;
}

static void *virtual_on(size_t size, int node, int i)
{
	char *p = pcb_cpu_area_alloc(size + VIRTUAL_PAGE, node);

	return p ? p + virtual_colour(i) : NULL;
}

static void virtual_free(void *p, size_t size, int i)
{
	if (p)
		pcb_free_on_node((char *)p - virtual_colour(i), size + VIRTUAL_PAGE);
}

/* the idle CPUs a drain walks beyond the workers', each on its node, some isolated */
static int setup_virtual(struct pcb_coord *c, const struct pcb_coord_shape *shape,
			 char *err, size_t errlen)
{
	const struct pcb_design *d = c->d;

	for (int i = 0; i < c->nr_virtual; i++) {
		/* placed as the (workers + i)-th CPU of the machine would be */
		int k = c->nr_workers + i;
		int node = c->topo->nr_cpus ? c->topo->cpu[k % c->topo->nr_cpus].node : -1;
		struct pcb_cpu *cpu = virtual_on(c->area_size, node, i);
		struct pcb_workq *wq = NULL;

		if (cpu && d->drain.queues_work)
			wq = virtual_on(sizeof(*wq), node, i);
		if (!cpu || (d->drain.queues_work && !wq)) {
			virtual_free(cpu, c->area_size, i);
			snprintf(err, errlen, "out of memory for virtual CPU %d", i);
			return -1;
		}
		pcb_cpu_area_init(cpu, d, c->v, c->place, PCB_CPU_ID_VIRTUAL + (unsigned int)i, node,
				  virtual_isolated(i, shape->isolated_pct));
		c->ops.cpu_setup(c->shared, d, cpu);
		c->cpus[k] = cpu;
		if (wq) {
			struct pcb_work work = pcb_drain_work(c->v, cpu);

			pcb_workq_start_virtual(wq, &work);
		}
	}
	return 0;
}

/*
 * The helpers the shape asks for, one a virtual CPU at most, and where
 * IPIs to their virtual CPUs land: where each one's cache lives, its
 * helper's core; where that is a worker's, on the drainer's own CPU
 * instead: a worker must see the IPIs to its own CPU, not fifteen others'.
 */
static void plan_helpers(struct pcb_coord *c, const struct pcb_coord_args *a)
{
	const struct pcb_coord_shape *shape = &a->shape;

	c->nr_helpers = shape->nr_helpers < PCB_MAX_HELPERS ? shape->nr_helpers : PCB_MAX_HELPERS;
	if (c->nr_helpers > c->nr_virtual)
		c->nr_helpers = c->nr_virtual;
	c->helpers_share = shape->helpers_share;
	/* a flushing drain waits for the idle CPUs' work: theirs in parallel, never on a worker */
	c->helpers_serve = a->d->drain.flushes && c->nr_helpers > 0 && !c->helpers_share;
	for (int h = 0; h < c->nr_helpers; h++) {
		c->ipi_home[h] = shape->helper_cpu[h];
		for (int i = 0; i < a->nr_workers; i++)
			if (a->workers[i]->cpu == (unsigned int)shape->helper_cpu[h])
				c->ipi_home[h] = -1;
	}
	pcb_cpu_set_virtual_home(c->ipi_home, c->nr_helpers);
}

/* the helper threads, each pinned to its CPU */
static int start_helpers(struct pcb_coord *c, const struct pcb_coord_args *a, char *err,
			 size_t errlen)
{
	if (!c->nr_helpers)
		return 0;
	c->helper = calloc((size_t)c->nr_helpers, sizeof(*c->helper));
	if (!c->helper) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int h = 0; h < c->nr_helpers; h++) {
		struct pcb_helper *hp = &c->helper[h];
		int rc;

		*hp = (struct pcb_helper){ .c = c, .index = h, .cpu = a->shape.helper_cpu[h] };
		rc = pthread_create(&hp->tid, NULL, helper_main, hp);
		if (rc) {
			snprintf(err, errlen, "cannot start the thread for virtual CPUs on CPU %d: %s",
				 hp->cpu, strerror(rc));
			return -1;
		}
		hp->started = 1;
	}
	return 0;
}

/* has the drain woken an idle virtual CPU? (its work then runs on its helper's core) */
static bool virtual_woken(const struct pcb_coord *c)
{
	for (int i = c->nr_workers; i < c->nr_cpus; i++)
		if (atomic_load_explicit(&c->cpus[i]->h.wq->wake, memory_order_relaxed))
			return true;
	return false;
}

void pcb_idle_plan(struct pcb_coord *c, const struct pcb_coord_args *a)
{
	plan_helpers(c, a);
	pthread_mutex_init(&c->dirt_lock, NULL);
	pthread_cond_init(&c->dirt_cond, NULL);
}

int pcb_idle_start(struct pcb_coord *c, const struct pcb_coord_args *a, char *err, size_t errlen)
{
	if (setup_virtual(c, &a->shape, err, errlen) < 0 || start_helpers(c, a, err, errlen) < 0)
		return -1;
	return 0;
}

void pcb_idle_stop(struct pcb_coord *c)
{
	pthread_mutex_lock(&c->dirt_lock);
	c->dirt_stop = 1;
	pthread_cond_broadcast(&c->dirt_cond);
	pthread_mutex_unlock(&c->dirt_lock);
	for (int h = 0; c->helper && h < c->nr_helpers; h++)
		if (c->helper[h].started)
			pthread_join(c->helper[h].tid, NULL);
	free(c->helper);
	pcb_cpu_set_virtual_home(NULL, 0);
	pthread_mutex_destroy(&c->dirt_lock);
	pthread_cond_destroy(&c->dirt_cond);
	for (int i = 0; c->cpus && i < c->nr_virtual; i++) {
		struct pcb_cpu *cpu = c->cpus[c->nr_workers + i];
		struct pcb_workq *wq;

		if (!cpu)
			continue;
		wq = cpu->h.wq;
		if (wq) {
			pcb_workq_stop(wq);
			virtual_free(wq, sizeof(*wq), i);
		}
		c->v->drain_dead(cpu);
		virtual_free(cpu, c->area_size, i);
	}
}

void pcb_idle_refill(struct pcb_coord *c)
{
	helpers_do(c, DIRT_REFILL);
}

void pcb_idle_run_woken(struct pcb_coord *c)
{
	if (c->d->drain.queues_work && virtual_woken(c))
		helpers_do(c, DIRT_RUN_WORK);
}
