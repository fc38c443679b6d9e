/* SPDX-License-Identifier: MIT */
/*
 * The runner (runner.h): one run of a design and configuration, its
 * coordinator's and helpers' CPUs picked, its threads started on one
 * barrier, the run released, collected (collect.c) and checked, and
 * everything given back.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../measure/xline.h"
#include "threads.h"

/* how long the runner waits for queued work to finish before it checks */
#define PCB_QUIESCE_TIMEOUT_S	0.75

/* whether a worker runs on cpu's core (an SMT sibling of cpu, or cpu) */
static int core_has_worker(const struct pcb_topo *topo, const struct pcb_scenario *sc,
			   unsigned int cpu)
{
	const struct pcb_topo_cpu *tc = pcb_topo_cpu(topo, cpu);
	unsigned int w;
	int has = 0;

	hwloc_bitmap_foreach_begin(w, sc->workers) {
		const struct pcb_topo_cpu *wc = pcb_topo_cpu(topo, w);

		has |= tc && wc && wc->core == tc->core;
	} hwloc_bitmap_foreach_end();
	return has;
}

/*
 * The CPUs of the helpers that stand in for the idle virtual CPUs (their
 * refills, their kworkers' work): every CPU with neither the coordinator
 * nor a worker, those whose core has no worker first, one a virtual CPU
 * at most; else one worker's CPU, for the refills alone (its
 * figures carry them as interruptions, and a drain that flushes its work
 * runs the idle CPUs' itself, never preempting the worker); else none,
 * and the drainer does it all.
 */
static void pick_helpers(const struct pcb_topo *topo, const struct pcb_scenario *sc,
			 int coord_cpu, int want, struct pcb_coord_shape *shape,
			 struct pcb_design_result *res)
{
	hwloc_bitmap_t free_cpus = hwloc_bitmap_alloc();
	unsigned int cpu;
	int n = 0;

	hwloc_bitmap_andnot(free_cpus, topo->all, sc->workers);
	hwloc_bitmap_clr(free_cpus, (unsigned int)coord_cpu);
	for (int shared_core = 0; shared_core <= 1; shared_core++) {
		hwloc_bitmap_foreach_begin(cpu, free_cpus) {
			if (n < want && n < PCB_MAX_HELPERS &&
			    core_has_worker(topo, sc, cpu) == shared_core)
				shape->helper_cpu[n++] = (int)cpu;
		} hwloc_bitmap_foreach_end();
	}
	shape->helpers_share = 0;
	if (!n) {
		hwloc_bitmap_copy(free_cpus, sc->workers);
		hwloc_bitmap_clr(free_cpus, (unsigned int)coord_cpu);
		if (!hwloc_bitmap_iszero(free_cpus)) {
			shape->helper_cpu[n++] = hwloc_bitmap_first(free_cpus);
			shape->helpers_share = 1;
		}
	}
	hwloc_bitmap_free(free_cpus);
	shape->nr_helpers = n;
	res->drain.nr_helpers = n;
	res->drain.helpers_share = shape->helpers_share;
	memcpy(res->drain.helper_cpu, shape->helper_cpu, sizeof(res->drain.helper_cpu));
}

/* the model's invariant over workers, the coordinator and virtual CPUs */
static int check_all(struct run_shared *s, char *msg, size_t len)
{
	int n = s->nr + (s->coord.self ? 1 + s->coord.nr_virtual : 0), k = 0, rc;
	struct pcb_cpu **all = calloc((size_t)n, sizeof(*all));
	struct pcb_quiescent q = {
		.shared = s->model_shared, .v = s->v, .w = s->ws, .nr_workers = s->nr, .cpus = all,
	};

	if (!all) {
		snprintf(msg, len, "out of memory");
		return -1;
	}
	for (int i = 0; i < s->nr; i++)
		all[k++] = s->cpus[i];
	if (s->coord.self) {
		all[k++] = s->coord.self;
		for (int i = 0; i < s->coord.nr_virtual; i++)
			all[k++] = s->coord.cpus[s->nr + i];
	}
	q.nr_cpus = k;
	rc = s->ops.check(&q, msg, len);
	free(all);
	return rc;
}

static void check_failed(struct pcb_design_result *res, const char *when, const char *msg)
{
	res->check_failed = 1;
	snprintf(res->check, sizeof(res->check), "%s: %s", when, msg);
}

/*
 * How drain work reaches the workers' CPUs: not at all where no drain runs
 * (no helper thread is started), and by signal where the kworker helper
 * would need SCHED_FIFO and this process may not have it.
 */
static int pick_delivery(const struct pcb_scenario *sc, const struct pcb_design *d,
			 struct pcb_design_result *res)
{
	static int fifo = -1;

	if (!d->drain.queues_work || (sc->drain_rate_hz <= 0 && sc->drain_count <= 0)) {
		res->delivery = -1;
		return -1;
	}
	res->delivery = sc->delivery;
	if (sc->delivery != PCB_DELIVER_KWORKER)
		return sc->delivery;
	if (fifo < 0)
		fifo = pcb_workq_fifo_permitted();
	if (!fifo) {
		snprintf(res->run_note, sizeof(res->run_note), "%s: the kworker helper needs "
			 "SCHED_FIFO (CAP_SYS_NICE), refused here: drain work was delivered by "
			 "signal instead", res->label);
		res->delivery = PCB_DELIVER_SIGNAL;
	}
	return res->delivery;
}

/* the threads, each on the one barrier; a thread that cannot start ends the process */
static void start_threads(struct run_shared *s)
{
	if (s->coord_cpu >= 0) {
		int e = pthread_create(&s->coord_tid, NULL, pcb_coord_main, s);

		if (e) {
			fprintf(stderr, "pcpbench: cannot start the coordinator: %s\n", strerror(e));
			exit(1);
		}
	}
	for (int i = 0; i < s->nr; i++) {
		int e = pthread_create(&s->t[i].tid, NULL, pcb_worker_main, &s->t[i]);

		if (e) {
			/* the started workers wait on a barrier sized for all: no way back */
			fprintf(stderr, "pcpbench: cannot start a worker thread: %s\n", strerror(e));
			exit(1);
		}
	}
}

static void stop_threads(struct run_shared *s)
{
	s->stop = 1;
	pthread_barrier_wait(&s->bar);
	for (int i = 0; i < s->nr; i++)
		pthread_join(s->t[i].tid, NULL);
	if (s->coord_cpu >= 0) {
		pthread_join(s->coord_tid, NULL);
		s->coord_cpu = -1;
	}
}

/* after the set up barrier: every worker's CPU, or the first one's failure */
static int workers_ready(struct run_shared *s, char *err, size_t errlen)
{
	for (int i = 0; i < s->nr; i++) {
		struct thread_ctx *t = &s->t[i];

		if (t->error) {
			if (t->errmsg[0])
				snprintf(err, errlen, "worker on CPU %u: %s", t->cpu, t->errmsg);
			else
				snprintf(err, errlen, "worker on CPU %u: %s: %s", t->cpu,
					 t->error == -ENOMEM ? "allocation" : "pinning",
					 strerror(-t->error));
			return -1;
		}
		s->ws[i] = t->w;
		s->cpus[i] = t->w->cpu;
		s->res->worker[i].cache_node = pcb_node_of_addr(t->w->cpu->stock);
	}
	return 0;
}

/* the run itself, after every thread is set up */
atomic_int pcb_stop_now;

void pcb_run_stop(void)
{
	atomic_store_explicit(&pcb_stop_now, 1, memory_order_relaxed);
}

/* one run, collected and checked; 1 where a stop cut it short (its figures dropped) */
static int run_one(struct run_shared *s, char *err, size_t errlen)
{
	uint64_t timeout = (uint64_t)(s->tsc_hz * PCB_QUIESCE_TIMEOUT_S);
	struct pcb_design_result *res = s->res;
	char msg[256], when[32];
	int stopped;

	pthread_barrier_wait(&s->bar);	/* release the run */
	pthread_barrier_wait(&s->bar);	/* start together */
	pthread_barrier_wait(&s->bar);	/* run over */
	if (s->coord_failed) {
		snprintf(err, errlen, "coordinator: %s", s->coord_err);
		return -1;
	}
	stopped = atomic_load(&pcb_stop_now);
	if (!stopped) {
		pcb_collect_run(res, s->t, s->nr, s->run, s->clk);
		if (s->coord_cpu >= 0)
			pcb_collect_coord(res, s, s->run);
	}
	/* nothing runs on any CPU before the check reads it */
	pcb_work_wait_idle(s->cpus, s->nr, timeout, 0);
	/* quiescent: every worker waits at the next barrier */
	if (!res->check_failed && check_all(s, msg, sizeof(msg)) < 0) {
		snprintf(when, sizeof(when), "after run %d", s->run + 1);
		check_failed(res, when, msg);
	}
	return stopped;
}

/* after every owner drained its cache: nothing held, every cache empty */
static void final_check(struct run_shared *s)
{
	struct pcb_design_result *res = s->res;
	char msg[256];

	if (!res->check_failed && check_all(s, msg, sizeof(msg)) < 0)
		check_failed(res, "after the final drain", msg);
	for (int i = 0; i < s->nr; i++) {
		struct pcb_workq *wq = s->t[i].wq;

		if (!wq)
			continue;
		res->drain.work_queued += (uint64_t)atomic_load(&wq->queued);
		res->drain.work_ran += (uint64_t)atomic_load(&wq->ran);
		res->drain.work_deferred += (uint64_t)atomic_load(&wq->deferred);
	}
	/* what is left is in the model's shared state (the objcgs' remainders) */
	for (int i = 0; i < s->nr && !res->check_failed; i++)
		if (!s->ops.cache_empty(s->model_shared, s->v, s->cpus[i])) {
			snprintf(msg, sizeof(msg), "the stock of CPU %u is not empty", s->cpus[i]->cpu);
			check_failed(res, "after the final drain", msg);
		}
}

/* the NUMA node every worker's CPU is on, -1 where they span several or it is unknown */
static int workers_node(const struct pcb_topo *topo, hwloc_const_bitmap_t workers)
{
	unsigned int cpu;
	int node = -2;

	hwloc_bitmap_foreach_begin(cpu, workers) {
		const struct pcb_topo_cpu *tc = pcb_topo_cpu(topo, cpu);

		if (!tc || (node != -2 && tc->node != node))
			return -1;
		node = tc->node;
	} hwloc_bitmap_foreach_end();
	return node < 0 ? -1 : node;
}

/* the model's state, the coordinator's CPU and each worker's thread context */
static int run_setup(struct run_shared *s, char *err, size_t errlen)
{
	const struct pcb_scenario *sc = s->sc;
	struct pcb_design_result *res = s->res;
	struct pcb_model_setup ms = {
		.config = sc->config, .d = s->d, .v = s->v, .nr_cpus = s->nr,
		.note = res->model_note, .notelen = sizeof(res->model_note),
	};
	unsigned int cpu;
	int i = 0;

	/* the model's shared state (the zone) on the workers' node, as their own memory */
	res->workers_node = workers_node(s->topo, sc->workers);
	pcb_prefer_node(res->workers_node);
	s->model_shared = s->ops.setup(&ms, err, errlen);
	pcb_prefer_node(-1);
	if (!s->model_shared)
		return -1;
	s->place = s->ops.stock_place(s->model_shared, s->d);
	res->target_node = pcb_node_of_addr(s->ops.drain_target(s->model_shared));
	s->delivery = pick_delivery(sc, s->d, res);
	s->tsc_hz = s->clk->tsc_hz;
	s->seq = (struct pcb_seq){
		.seed = (uint64_t)sc->seed, .run = (uint32_t)s->run,
		.timing = (enum pcb_timing)sc->timing,
		.tsc_khz = (uint64_t)(s->tsc_hz / 1e3 + 0.5),
		.warmup_ticks = (uint64_t)(s->tsc_hz * (double)sc->warmup_ms / 1e3),
		.duration_ticks = (uint64_t)(s->tsc_hz * (double)sc->duration_ms / 1e3),
		.gap_threshold_ticks = (uint64_t)(s->tsc_hz * (double)sc->gap_threshold_ns / 1e9),
		.gap_floor_ticks = (uint64_t)(s->tsc_hz * PCB_GAP_FLOOR_NS / 1e9),
		.gap_periods = PCB_GAP_PERIODS,
		.ops = (uint64_t)sc->ops,
	};
	s->coord_cpu = -1;
	if (sc->drain_rate_hz > 0 || sc->drain_count > 0) {
		s->coord_cpu = pcb_pick_coord_cpu(s->topo, sc, res);
		res->drain.active = 1;
		res->drain.cpu = s->coord_cpu;
		memset(&s->shape, 0, sizeof(s->shape));
		/* every idle CPU's cache is left by a helper, charged or not */
		int charged;
		bool self_charged;
		int idle = pcb_coord_idle(sc->drain_stocks, sc->drain_online, s->nr, &charged,
					  &self_charged);

		if (idle > 0)
			pick_helpers(s->topo, sc, s->coord_cpu, idle, &s->shape, res);
	}
	pthread_barrier_init(&s->bar, NULL, (unsigned int)s->nr + 1 + (s->coord_cpu >= 0));

	hwloc_bitmap_foreach_begin(cpu, sc->workers) {
		const struct pcb_topo_cpu *tc = pcb_topo_cpu(s->topo, cpu);

		s->t[i].cpu = cpu;
		s->t[i].node = tc ? tc->node : -1;
		s->t[i].shared = s;
		res->worker[i].cpu = cpu;
		res->worker[i].node = s->t[i].node;
		res->worker[i].isolated = hwloc_bitmap_isset(sc->isolated, cpu);
		i++;
	} hwloc_bitmap_foreach_end();
	return 0;
}

/* the threads' run: started, set up, run, checked and stopped */
static int run_threads(struct run_shared *s, char *err, size_t errlen)
{
	int rc = -1, r = -1;

	start_threads(s);
	pthread_barrier_wait(&s->bar);		/* set up */
	/* every thread of the run waits: the line between the drainer's CPU and a worker's */
	if (s->coord_cpu >= 0)
		s->res->drain.run_line[s->run] = pcb_xline_ticks(s->topo, (unsigned int)s->coord_cpu,
								 s->t[0].cpu, s->tsc_hz);
	if (workers_ready(s, err, errlen) == 0)
		r = run_one(s, err, errlen);
	/* a run a stop cut short is checked, not counted */
	if (r == 0)
		s->res->runs_done++;
	if (r >= 0)
		rc = 0;
	stop_threads(s);
	if (rc == 0)
		final_check(s);
	return rc;
}

/* what run_setup() made, given back */
static void run_teardown(struct run_shared *s)
{
	pcb_coord_teardown(&s->coord);
	for (int i = 0; i < s->nr; i++) {
		struct thread_ctx *t = &s->t[i];

		pcb_free_on_node(t->area, t->area_size);
		pcb_free_on_node(t->w, t->w_size);
		if (t->wq)
			pcb_free_on_node(t->wq, sizeof(*t->wq));
	}
	pthread_barrier_destroy(&s->bar);
	s->ops.teardown(s->model_shared);
}

int pcb_run_design(const struct pcb_topo *topo, const struct pcb_clock *clk,
		   struct pcb_design_result *res, int run, char *err, size_t errlen)
{
	const struct pcb_scenario *sc = res->sc;
	struct run_shared s = {
		.sc = sc, .model = sc->model, .ops = pcb_model_ops(sc->model), .d = res->design,
		.v = res->variant, .topo = topo,
		.run = run, .nr = res->nr_workers, .clk = clk, .res = res,
	};
	char why[192];
	int rc = -1;

	if (sc->backend == PCB_BACKEND_KERNEL)
		return pcb_kernel_run_design(topo, clk, res, run, err, errlen);
	if (sc->backend == PCB_BACKEND_INSTRUMENTED)
		return pcb_instrumented_run_design(topo, clk, res, run, err, errlen);

	/* the timer's sites rewritten while no thread of the run is started */
	rc = pcb_timer_set((enum pcb_timer)sc->timer, why, sizeof(why));
	if (rc < 0) {
		snprintf(err, errlen, "run.timer = %s: the timer's code cannot be rewritten "
			 "(mprotect() of the text: %s)", pcb_timer_name((enum pcb_timer)sc->timer),
			 why);
		return -1;
	}
	rc = -1;
	s.t = calloc((size_t)s.nr, sizeof(*s.t));
	s.ws = calloc((size_t)s.nr, sizeof(*s.ws));
	s.cpus = calloc((size_t)s.nr, sizeof(*s.cpus));
	if (!s.t || !s.ws || !s.cpus)
		snprintf(err, errlen, "out of memory");
	else if (run_setup(&s, err, errlen) == 0) {
		rc = run_threads(&s, err, errlen);
		run_teardown(&s);
	}
	free(s.cpus);
	free(s.ws);
	free(s.t);
	return rc;
}
