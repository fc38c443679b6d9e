/* SPDX-License-Identifier: MIT */
/*
 * The coordinator (coordinator.h): its CPU and the idle CPUs set up
 * (idle.c), and the model's drain called by plan and timed, with its
 * completion and what it stranded.
 */
#include <errno.h>
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
#include "pcb/sequence.h"
#include "threads.h"

/* a housekeeping CPU without a worker, else a housekeeping one, else the first */
int pcb_pick_coord_cpu(const struct pcb_topo *topo, const struct pcb_scenario *sc,
		       struct pcb_design_result *res)
{
	hwloc_bitmap_t hk = hwloc_bitmap_alloc(), free_hk = hwloc_bitmap_alloc();
	int cpu;

	hwloc_bitmap_andnot(hk, topo->all, sc->isolated);
	hwloc_bitmap_andnot(free_hk, hk, sc->workers);
	if (sc->drain_cpu >= 0)
		cpu = sc->drain_cpu;
	else if (!hwloc_bitmap_iszero(free_hk))
		cpu = hwloc_bitmap_first(free_hk);
	else if (!hwloc_bitmap_iszero(hk))
		cpu = hwloc_bitmap_first(hk);
	else
		cpu = hwloc_bitmap_first(topo->all);
	if (hwloc_bitmap_isset(sc->workers, (unsigned int)cpu))
		res->drain.shares_cpu = 1;
	hwloc_bitmap_free(hk);
	hwloc_bitmap_free(free_hk);
	return cpu;
}

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

	pcb_seq_drain_windows(c->d, c->cpus, c->nr_workers, true);
	pcb_wake_ticks_take();
	pcb_wake_time(wake_timed);
	waited = pcb_seq_lock_waited(c->self);
	/* a flushing drain's idle CPUs' work: on their helpers, watching before the call */
	if (c->helpers_serve)
		pcb_idle_serve(c);

	t0 = pcb_tsc_start();
	c->v->drain_all(c->self, c->target, c->walk, c->nr_online);
	t1 = pcb_tsc_end();

	if (c->helpers_serve)
		pcb_idle_unserve(c);

	/* a lock's section is far shorter than an interruption: its holder was preempted */
	if (pcb_seq_lock_waited(c->self) - waited > c->preempt_ticks)
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
	pcb_seq_drain_windows(c->d, c->cpus, c->nr_workers, false);

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

static void seq_prepare(void *c)
{
	coord_prepare(c);
}

static void seq_wait_until(void *c, uint64_t when)
{
	wait_until(when, ((struct pcb_coord *)c)->tsc_hz);
}

static void seq_drain(void *c)
{
	pcb_coord_drain_once(c);
}

static const struct pcb_seq_coord_ops seq_ops = {
	.prepare = seq_prepare, .wait_until = seq_wait_until, .drain = seq_drain,
};

/* plan's arrivals in ticks, its Poisson sequence rng */
static struct pcb_seq_drains seq_drains(const struct pcb_coord *c, const struct pcb_coord_plan *p,
					uint64_t rng)
{
	return (struct pcb_seq_drains){
		.period_ticks = p->count <= 0 && p->rate_hz > 0 ?
				(uint64_t)(c->tsc_hz / p->rate_hz) : 0,
		.count = p->count > 0 ? (uint64_t)p->count : 0,
		.burst = p->burst > 0 ? (uint32_t)p->burst : 0,
		.poisson = p->poisson,
		.rng = rng,
	};
}

uint64_t pcb_coord_run(struct pcb_coord *c, const struct pcb_coord_plan *p,
		       uint64_t start, uint64_t deadline, uint64_t rng)
{
	struct pcb_seq_drains drains = seq_drains(c, p, rng);

	c->deadline = deadline;
	pcb_work_set_deadline(deadline);
	return pcb_seq_coord_run(&seq_ops, c, &drains, start, deadline);
}

/* under this much warm-up there is no drain in it (pcb_seq_coord_warm()) */
#define PCB_WARM_DRAIN_MIN_MS 2

static void coord_warm(struct pcb_coord *c, const struct pcb_coord_plan *p, uint64_t warmup_ticks)
{
	struct pcb_seq_drains drains = seq_drains(c, p, 1);
	uint64_t end = pcb_tsc_now() + warmup_ticks;

	c->deadline = end;
	pcb_work_set_deadline(end);
	pcb_seq_coord_warm(&seq_ops, c, &drains, warmup_ticks,
			   (uint64_t)(c->tsc_hz * PCB_WARM_DRAIN_MIN_MS / 1e3));
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
			coord_warm(&s->coord, &plan, s->seq.warmup_ticks);
		pcb_coord_reset(&s->coord);
		pthread_barrier_wait(&s->bar);	/* every worker starts together */
		if (!s->coord_failed) {
			uint64_t start;

			pcb_counters_start(&s->coord_pmc);
			start = pcb_tsc_now();
			s->fired = pcb_coord_run(&s->coord, &plan, start,
						 start + s->seq.duration_ticks,
						 pcb_seq_drain_rng((uint64_t)sc->seed,
								   (uint32_t)s->run));
			pcb_counters_stop(&s->coord_pmc, s->coord_ctr);
		}
		pthread_barrier_wait(&s->bar);	/* run over */
	}
	pcb_counters_close(&s->coord_pmc);
	return NULL;
}
