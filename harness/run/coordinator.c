/* SPDX-License-Identifier: MIT */
/*
 * The coordinator (coordinator.h): its CPU and the idle CPUs set up
 * (idle.c), and the model's drain called by plan and timed, with its
 * completion and what it stranded.
 */
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
#include "idle.h"
#include "pcb/plan.h"
#include "pcb/registry.h"
#include "threads.h"

int pcb_coord_setup(struct pcb_coord *c, const struct pcb_coord_args *a, char *err,
		    size_t errlen)
{
	const struct pcb_coord_shape *shape = &a->shape;
	int cpu = sched_getcpu();
	const struct pcb_topo_cpu *tc = cpu >= 0 ? pcb_topo_cpu(a->topo, (unsigned int)cpu) : NULL;
	int node = tc ? tc->node : -1;

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
	c->place = c->ops.stock_place(a->shared, a->d);
	c->area_size = pcb_cpu_area_size(a->d, a->v, c->place);
	c->nr_virtual = pcb_coord_idle(shape->stocks, shape->online, a->nr_workers,
				       &c->nr_charged, &c->self_charged);
	c->nr_cpus = a->nr_workers + c->nr_virtual;
	pcb_idle_plan(c, a);
	c->cpus = calloc((size_t)c->nr_cpus, sizeof(*c->cpus));
	c->walk = calloc((size_t)c->nr_cpus + 1, sizeof(*c->walk));
	c->self = pcb_cpu_area_alloc(c->area_size, node);
	if (!c->cpus || !c->walk || !c->self) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* on its CPU's node, by its number: the walk meets it there, a fence from it needs none */
	pcb_cpu_area_init(c->self, a->d, a->v, c->place,
			  cpu >= 0 ? (unsigned int)cpu : PCB_CPU_ID_COORDINATOR, node, false);
	c->ops.cpu_setup(a->shared, a->d, c->self);
	for (int i = 0; i < a->nr_workers; i++)
		c->cpus[i] = a->workers[i];
	if (pcb_idle_start(c, a, err, errlen) < 0)
		return -1;
	c->nr_online = pcb_drain_walk(c->walk, c->self, c->cpus, c->nr_workers, c->nr_cpus);
	c->overhead = pcb_clock_overhead(PCB_TIMING_BATCH);
	return 0;
}

void pcb_coord_teardown(struct pcb_coord *c)
{
	if (!c->model)		/* never set up */
		return;
	pcb_idle_stop(c);
	if (c->self)
		pcb_free_on_node(c->self, c->area_size);
	free(c->cpus);
	free(c->walk);
	memset(c, 0, sizeof(*c));
}

void pcb_coord_reset(struct pcb_coord *c)
{
	memset(&c->drain, 0, sizeof(c->drain));
	memset(&c->completion, 0, sizeof(c->completion));
	c->completed = c->incomplete = 0;
	c->stranded_sum = c->stranded_max = c->stranded_n = 0;
	c->walk_sum = c->wake_sum = 0;
	c->nr_drains = c->wake_n = 0;
	c->waited_preempted = 0;
	atomic_store(&c->helper_ran, 0);
	atomic_store(&c->ran_after, 0);
	memset(c->self->h.cc, 0, sizeof(c->self->h.cc));
	memset(c->self->ev, 0, sizeof(c->self->ev));
	c->self->h.remote_drains = 0;
}

/* the workers' drain windows (for the interruption classifier), outside the timed call */
static void workers_window(struct pcb_coord *c, bool open)
{
	if (c->d->drain.queues_work)
		return;
	for (int i = 0; i < c->nr_workers; i++) {
		if (open)
			pcb_drain_window_open(c->cpus[i]);
		else
			pcb_drain_window_close(c->cpus[i]);
	}
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
		pcb_idle_refill(c);
	/* the drainer's own cache, charged: by itself, its owner */
	if (c->self_charged)
		c->v->prefill(c->self, c->shared);
}

void pcb_coord_drain_once(struct pcb_coord *c)
{
	uint64_t t0, t1, waited;
	bool wake_timed = pcb_wake_sampled(c->d->drain.queues_work, ++c->nr_drains);

	workers_window(c, true);
	pcb_wake_ticks_take();
	pcb_wake_time(wake_timed);
	waited = drainer_waited(c);
	/* a flushing drain's idle CPUs' work: on their helpers, watching before the call */
	if (c->helpers_serve)
		pcb_idle_serve(c);

	t0 = pcb_tsc_start();
	c->v->drain_all(c->self, c->target, c->walk, c->nr_online);
	t1 = pcb_tsc_end();

	if (c->helpers_serve)
		pcb_idle_unserve(c);

	/* a lock's section is far shorter than an interruption: its holder was preempted */
	if (drainer_waited(c) - waited > c->preempt_ticks)
		c->waited_preempted++;

	/* a drain that timed its wakes is their figure, not the drain's */
	if (wake_timed) {
		c->wake_sum += pcb_wake_ticks_take();
		c->wake_n++;
	} else {
		pcb_stat_record(&c->drain, t1 - t0, (uint64_t)(c->overhead + 0.5), 1,
				PCB_NO_LIMIT);
	}
	pcb_wake_time(false);
	workers_window(c, false);

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
		pcb_idle_run_woken(c);
		t0 = pcb_tsc_start();
		c->v->drain_all(c->self, c->target, c->cpus + c->nr_workers, c->nr_virtual);
		t1 = pcb_tsc_end();
		c->walk_sum += t1 - t0 > (uint64_t)c->overhead ? t1 - t0 - (uint64_t)c->overhead : 0;
		pcb_idle_run_woken(c);
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
