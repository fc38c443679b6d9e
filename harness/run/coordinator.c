/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../measure/tsc.h"
#include "coordinator.h"
#include "cpu_area.h"
#include "pcb/registry.h"
#include "threads.h"

static void *area_on(size_t size, int node)
{
	void *p = pcb_alloc_on_node(size, node);

	if (p)
		memset(p, 0, size);
	return p;
}

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

/* the helpers watch their CPUs from now until helpers_unserve(); untimed */
static void helpers_serve(struct pcb_coord *c)
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
static void helpers_unserve(struct pcb_coord *c)
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
	char *p = area_on(size + VIRTUAL_PAGE, node);

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
		pcb_cpu_area_init(cpu, d, c->v, PCB_CPU_ID_VIRTUAL + (unsigned int)i, node,
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

int pcb_coord_setup(struct pcb_coord *c, const struct pcb_coord_args *a, char *err,
		    size_t errlen)
{
	const struct pcb_coord_shape *shape = &a->shape;
	int stocks = shape->stocks > a->nr_workers ? shape->stocks : a->nr_workers;
	int online = pcb_coord_online(shape->stocks, shape->online, a->nr_workers);

	memset(c, 0, sizeof(*c));
	c->model = a->model;
	c->ops = pcb_model_ops(a->model);
	c->d = a->d;
	c->v = a->v;
	c->shared = a->shared;
	c->topo = a->topo;
	c->tsc_hz = a->tsc_hz;
	c->preempt_ticks = a->preempt_ticks;
	c->target = c->ops.drain_target(a->shared);
	c->nr_workers = a->nr_workers;
	c->area_size = pcb_cpu_area_size(a->d, a->v);
	c->nr_virtual = online - a->nr_workers;
	c->nr_charged = stocks - a->nr_workers;
	c->nr_cpus = online;
	plan_helpers(c, a);
	pthread_mutex_init(&c->dirt_lock, NULL);
	pthread_cond_init(&c->dirt_cond, NULL);
	c->cpus = calloc((size_t)c->nr_cpus, sizeof(*c->cpus));
	c->self = area_on(c->area_size, -1);
	if (!c->cpus || !c->self) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	pcb_cpu_area_init(c->self, a->d, a->v, PCB_CPU_ID_COORDINATOR, -1, false);
	c->ops.cpu_setup(a->shared, a->d, c->self);
	for (int i = 0; i < a->nr_workers; i++)
		c->cpus[i] = a->workers[i];
	if (setup_virtual(c, shape, err, errlen) < 0 || start_helpers(c, a, err, errlen) < 0)
		return -1;
	c->overhead = pcb_clock_overhead(PCB_TIMING_BATCH);
	return 0;
}

void pcb_coord_teardown(struct pcb_coord *c)
{
	if (!c->model)		/* never set up */
		return;
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
		c->v->drain_local(cpu);
		virtual_free(cpu, c->area_size, i);
	}
	if (c->self)
		pcb_free_on_node(c->self, c->area_size);
	free(c->cpus);
	memset(c, 0, sizeof(*c));
}

void pcb_coord_reset(struct pcb_coord *c)
{
	memset(&c->drain, 0, sizeof(c->drain));
	memset(&c->completion, 0, sizeof(c->completion));
	c->completed = c->incomplete = 0;
	c->stranded_sum = c->stranded_max = c->stranded_n = 0;
	c->walk_sum = c->wake_sum = 0;
	c->waited_preempted = 0;
	atomic_store(&c->helper_ran, 0);
	atomic_store(&c->ran_after, 0);
	memset(c->self->h.cc, 0, sizeof(c->self->h.cc));
	memset(c->self->ev, 0, sizeof(c->self->ev));
	c->self->h.remote_drains = 0;
}

/* has the drain woken an idle virtual CPU? (its work then runs on its helper's core) */
static bool virtual_woken(const struct pcb_coord *c)
{
	for (int i = c->nr_workers; i < c->nr_cpus; i++)
		if (atomic_load_explicit(&c->cpus[i]->h.wq->wake, memory_order_relaxed))
			return true;
	return false;
}

/* the workers' drain windows (for the interruption classifier), outside the timed call */
static void workers_window(struct pcb_coord *c)
{
	if (c->d->drain.queues_work)
		return;
	for (int i = 0; i < c->nr_workers; i++)
		pcb_drain_window(c->cpus[i]);
}

/* ticks the drainer has waited on contended locks, over the run */
static uint64_t drainer_waited(const struct pcb_coord *c)
{
	uint64_t sum = 0;

	for (int i = 0; i < PCB_MAX_CONTENDED_FNS; i++)
		sum += c->self->h.cc[i].wait.sum;
	return sum;
}

/*
 * The idle CPUs' caches as their owners would leave them, for the next
 * drain: called as soon as the last one is over, not just before the next,
 * so that a helper on a worker's CPU, which preempts the worker for it,
 * does so at no fixed time before a drain. Just before, the drain would
 * start as the worker resumed, perhaps inside its lock, and meet it there.
 */
static void coord_prepare(struct pcb_coord *c)
{
	if (c->nr_virtual)
		helpers_do(c, DIRT_REFILL);
}

void pcb_coord_drain_once(struct pcb_coord *c)
{
	uint64_t t0, t1, waited;

	workers_window(c);
	pcb_wake_ticks_take();
	waited = drainer_waited(c);
	/* a flushing drain's idle CPUs' work: on their helpers, watching before the call */
	if (c->helpers_serve)
		helpers_serve(c);

	t0 = pcb_tsc_start();
	c->v->drain_all(c->self, c->target, c->cpus, c->nr_cpus);
	t1 = pcb_tsc_end();

	if (c->helpers_serve)
		helpers_unserve(c);

	/* a lock's section is far shorter than an interruption: its holder was preempted */
	if (drainer_waited(c) - waited > c->preempt_ticks)
		c->waited_preempted++;

	pcb_stat_record(&c->drain, t1 - t0, (uint64_t)(c->overhead + 0.5), 1, PCB_NO_LIMIT);
	c->wake_sum += pcb_wake_ticks_take();
	workers_window(c);

	if (c->d->drain.queues_work) {
		uint64_t timeout = (uint64_t)(c->tsc_hz * PCB_DRAIN_COMPLETION_TIMEOUT_S);
		uint64_t now = pcb_tsc_now();

		/* work its owner will never run (it stopped at the deadline) ends with the run */
		if (c->deadline && now + timeout > c->deadline)
			timeout = c->deadline > now ? c->deadline - now : 0;
		/* until every real worker ran the work queued to it */
		if (pcb_work_wait_idle(c->cpus, c->nr_workers, timeout, 1) == 0) {
			c->completion.count[pcb_hist_index(pcb_tsc_end() - t0)]++;
			c->completed++;
		} else {
			c->incomplete++;
		}
	}
	/* what a drain leaves behind: isolated CPUs' pages of the target */
	if (c->d->skips_isolated) {
		uint64_t left = 0;

		for (int i = 0; i < c->nr_cpus; i++)
			if (c->cpus[i]->isolated)
				left += c->ops.stranded(c->shared, c->v, c->target, c->cpus[i]);
		c->stranded_sum += left;
		c->stranded_n++;
		if (left > c->stranded_max)
			c->stranded_max = left;
	}
	if (c->nr_virtual) {
		/* the idle virtual CPUs' kworkers, untimed; then the walk alone over their empty caches */
		if (c->d->drain.queues_work && virtual_woken(c))
			helpers_do(c, DIRT_RUN_WORK);
		t0 = pcb_tsc_start();
		c->v->drain_all(c->self, c->target, c->cpus + c->nr_workers, c->nr_virtual);
		t1 = pcb_tsc_end();
		c->walk_sum += t1 - t0 > (uint64_t)c->overhead ? t1 - t0 - (uint64_t)c->overhead : 0;
		if (c->d->drain.queues_work && virtual_woken(c))
			helpers_do(c, DIRT_RUN_WORK);
	}
}

static void wait_until(uint64_t when, double tsc_hz)
{
	for (;;) {
		uint64_t now = pcb_tsc_now();
		double left_ns;

		if (now >= when)
			return;
		left_ns = (double)(when - now) * 1e9 / tsc_hz;
		if (left_ns > 200000) {
			struct timespec ts = { 0, (long)(left_ns - 100000) };

			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec = ts.tv_nsec / 1000000000L;
				ts.tv_nsec %= 1000000000L;
			}
			nanosleep(&ts, NULL);
		} else {
			__builtin_ia32_pause();
		}
	}
}

uint64_t pcb_coord_run(struct pcb_coord *c, const struct pcb_coord_plan *p,
		       uint64_t start, uint64_t deadline, uint64_t seed)
{
	uint64_t fired = 0, next = start, rng = seed | 1;
	double mean_ticks;

	c->deadline = deadline;
	pcb_work_set_deadline(deadline);
	if (p->count > 0)
		mean_ticks = (double)(deadline - start) / (double)(p->count + 1);
	else if (p->rate_hz > 0)
		mean_ticks = c->tsc_hz / p->rate_hz;
	else
		return 0;

	for (;;) {
		double gap = mean_ticks;

		if (p->poisson && p->count <= 0) {
			double u = (double)(pcb_rng_next(&rng) >> 11) / 9007199254740992.0;

			gap = -log(1.0 - u) * mean_ticks;
		}
		/* the schedule and the clock both end at the deadline, however late a drain ran */
		if (gap >= (double)(deadline - next))
			break;
		next += (uint64_t)gap;
		if (pcb_tsc_now() >= deadline || (p->count > 0 && fired >= (uint64_t)p->count) ||
		    atomic_load(&pcb_stop_now))
			break;
		coord_prepare(c);
		wait_until(next, c->tsc_hz);
		/* a burst, too, ends with the run: drains after it are no run's */
		for (int b = 0; b < p->burst && (b == 0 || pcb_tsc_now() < deadline); b++) {
			if (b)
				coord_prepare(c);
			pcb_coord_drain_once(c);
			fired++;
		}
	}
	return fired;
}

/*
 * One drain a quarter into the workers' warm-up, untimed (the reset after
 * it drops its figures), as the workers warm their own paths: a run's
 * first drain otherwise meets its code and the lines it walks cold, costs
 * several times the others, and in a short run sets the mean. The rest of
 * the warm-up is for the work it queued, which must not spill into the
 * timed run: under PCB_WARM_DRAIN_MIN_MS of warm-up there is no such drain.
 */
#define PCB_WARM_DRAIN_MIN_MS 2

static void coord_warm(struct pcb_coord *c, const struct pcb_coord_plan *p, uint64_t warmup_ticks)
{
	uint64_t start = pcb_tsc_now(), end = start + warmup_ticks;

	if ((double)warmup_ticks < c->tsc_hz * PCB_WARM_DRAIN_MIN_MS / 1e3 ||
	    (p->rate_hz <= 0 && p->count <= 0))
		return;
	c->deadline = end;
	pcb_work_set_deadline(end);
	coord_prepare(c);
	wait_until(start + warmup_ticks / 4, c->tsc_hz);
	if (!atomic_load(&pcb_stop_now))
		pcb_coord_drain_once(c);
}

/* the coordinator thread: set up once, then one plan of drains per run */
void *pcb_coord_main(void *arg)
{
	struct run_shared *s = arg;
	const struct pcb_scenario *sc = s->sc;
	struct pcb_coord_plan plan = {
		.rate_hz = sc->drain_rate_hz, .poisson = sc->drain_poisson,
		.burst = sc->drain_burst, .count = sc->drain_count,
	};
	struct pcb_coord_args args = {
		.model = s->model, .d = s->d, .v = s->v, .shared = s->model_shared,
		.topo = s->topo, .tsc_hz = s->tsc_hz, .workers = s->cpus, .nr_workers = s->nr,
		.shape = s->shape,
		.preempt_ticks = (uint64_t)(s->tsc_hz * (double)(sc->gap_threshold_ns ?
					    sc->gap_threshold_ns : PCB_GAP_FLOOR_NS) / 1e9),
	};
	int set_up = 0;

	args.shape.stocks = sc->drain_stocks;
	args.shape.online = sc->drain_online;
	args.shape.isolated_pct = sc->drain_isolated_pct;
	if (pcb_topo_pin(s->topo, (unsigned int)s->coord_cpu) < 0)
		snprintf(s->coord_err, sizeof(s->coord_err), "cannot pin the coordinator to CPU %d",
			 s->coord_cpu);
	pcb_counters_open(&s->coord_pmc, &sc->counters);
	pthread_barrier_wait(&s->bar);		/* set up */
	for (;;) {
		pthread_barrier_wait(&s->bar);	/* a run released, or stop */
		if (s->stop)
			break;
		if (!set_up) {
			if (pcb_coord_setup(&s->coord, &args, s->coord_err, sizeof(s->coord_err)) < 0)
				s->coord_failed = 1;
			set_up = 1;
		}
		if (!s->coord_failed)
			coord_warm(&s->coord, &plan, s->warmup_ticks);
		pcb_coord_reset(&s->coord);
		pthread_barrier_wait(&s->bar);	/* every worker starts together */
		if (!s->coord_failed) {
			uint64_t start;

			pcb_counters_start(&s->coord_pmc);
			start = pcb_tsc_now();
			s->fired = pcb_coord_run(&s->coord, &plan, start,
						 start + s->duration_ticks,
						 ((uint64_t)sc->seed + 1) * 0x9E3779B97F4A7C15ULL +
						 (uint64_t)s->run);
			pcb_counters_stop(&s->coord_pmc, s->coord_ctr);
		}
		pthread_barrier_wait(&s->bar);	/* run over */
	}
	pcb_counters_close(&s->coord_pmc);
	return NULL;
}
