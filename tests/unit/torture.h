/* SPDX-License-Identifier: MIT */
/*
 * A model's torture through the seam alone, as the runner drives it: its
 * struct pcb_model sets up the shared state, each CPU and each worker, and
 * each design's variants run their loops on workers pinned two to a CPU
 * while another thread fires the design's drain as fast as it can. At each
 * quiescent point the model's check() must hold; a drain then empties
 * every cache (work-based designs once the work ran) and check() holds
 * again; at the end every owner drains its own and every cache is empty.
 * The last worker's CPU is isolated. Work-based designs run with each
 * delivery (poll only under ThreadSanitizer: the kworker helper must never
 * block inside a drain, and the ThreadSanitizer runtime takes locks of its
 * own there; it also holds a signal for a thread blocked in a barrier
 * until the barrier opens).
 *
 * A test includes testing.h, then this, and calls pcb_torture() with one
 * configuration of the model's per variant (each must pick a different
 * one, and every variant must be picked), or torture_run() for one
 * design, configuration and delivery, with struct torture_ops saying what
 * it adds: its own touches of each CPU and worker after the model's, the
 * drains' targets, a thread beside the drainer, checks of its own after
 * each round and at the end.
 */
#ifndef PCB_TESTS_TORTURE_H
#define PCB_TESTS_TORTURE_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pcb/registry.h"
#include "pcb/worker.h"
#include "harness/run/cpu_area.h"
#include "harness/run/work.h"

#define TORTURE_WORKERS 4
#define TORTURE_ROUNDS 3

struct torture;

/* what a test adds to a torture; all optional */
struct torture_ops {
	int rounds;			/* 0: TORTURE_ROUNDS */
	uint64_t ops;			/* each worker's operations a round; 0: by time */
	uint64_t ticks;			/* ... then a round's length, TSC ticks */
	/* after the model's set up: the test's own of CPU i (the drainer's last) and worker i */
	void (*cpu)(struct torture *t, int i);
	void (*worker)(struct torture *t, int i);
	/* the target of the drainer's n-th drain; NULL: the model's drain_target() */
	void *(*target)(struct torture *t, unsigned long n);
	/* a thread beside the drainer each round, until stop_drainer */
	void *(*beside)(void *t);
	/* checks of the test's own after each round's, and at the end before teardown */
	void (*round)(struct torture *t, int r);
	void (*end)(struct torture *t);
};

struct torture {
	const struct pcb_model *m;
	struct pcb_model_ops ops;	/* m's, each default filled in */
	const struct pcb_design *d;
	const struct pcb_variant *v;
	const void *config;
	enum pcb_delivery delivery;
	const struct torture_ops *o;
	void *shared;
	void *target;
	struct pcb_stock_place place;	/* where each CPU's stock sits */
	struct pcb_worker *w[TORTURE_WORKERS];
	struct pcb_cpu *cpu[TORTURE_WORKERS + 1];	/* the last is the drainer's */
	struct pcb_workq wq[TORTURE_WORKERS];
	pthread_t tid[TORTURE_WORKERS];
	pthread_barrier_t bar;
	atomic_int stop_drainer;
	atomic_long drains;
	int ncpu, failed_setup;
	char name[160];
};

struct torture_arg {
	struct torture *t;
	int i;
};

static const struct torture_ops torture_none;

static void torture_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static int torture_rounds(const struct torture *t)
{
	return t->o->rounds ? t->o->rounds : TORTURE_ROUNDS;
}

static void *torture_worker(void *arg)
{
	struct torture_arg *a = arg;
	struct torture *t = a->t;
	struct pcb_worker *w = t->w[a->i];
	struct pcb_work work = pcb_drain_work(t->v, w->cpu);
	int os = a->i % t->ncpu;
	char err[256];

	torture_pin(os);
	if (t->d->drain.queues_work &&
	    pcb_workq_start(&t->wq[a->i], &work, t->delivery, os, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", t->name, err);
		t->failed_setup = 1;
	}
	if (t->v->thread_start)
		t->v->thread_start();
	for (int r = 0; r < torture_rounds(t); r++) {
		pthread_barrier_wait(&t->bar);	/* round starts */
		w->ops = 0;
		w->ops_limit = t->o->ops;
		w->deadline = pcb_tsc_now() + t->o->ticks;
		t->v->run(w);
		pthread_barrier_wait(&t->bar);	/* quiescent */
		pthread_barrier_wait(&t->bar);	/* checked and drained */
	}
	if (t->d->drain.queues_work)
		pcb_workq_stop(&t->wq[a->i]);
	t->v->release(w);
	t->v->drain_dead(w->cpu);
	if (t->v->thread_stop)
		t->v->thread_stop();
	return NULL;
}

static void *torture_drainer(void *arg)
{
	struct torture *t = arg;
	unsigned long n = 0;

	if (t->v->thread_start)
		t->v->thread_start();
	/* at least one drain a round, however quickly the workers finish */
	do {
		void *target = t->o->target ? t->o->target(t, n++) : t->target;

		/* flush_work() of the work designs waits a moment at most */
		pcb_work_set_deadline(pcb_tsc_now() + (uint64_t)2e8);
		t->v->drain_all(t->cpu[TORTURE_WORKERS], target, t->cpu, TORTURE_WORKERS);
		atomic_fetch_add(&t->drains, 1);
	} while (!atomic_load(&t->stop_drainer));
	if (t->v->thread_stop)
		t->v->thread_stop();
	return NULL;
}

/* the model's invariant over the workers, their CPUs and the drainer's */
static int torture_check(struct torture *t, char *msg, size_t len)
{
	struct pcb_quiescent q = {
		.shared = t->shared, .v = t->v, .w = t->w, .nr_workers = TORTURE_WORKERS,
		.cpus = t->cpu, .nr_cpus = TORTURE_WORKERS + 1,
	};

	return t->ops.check(&q, msg, len);
}

/* what is queued has run: polled work only while owners run, so not polled */
static void torture_wait_for_work(struct torture *t)
{
	pcb_work_wait_idle(t->cpu, TORTURE_WORKERS, (uint64_t)3e9, 0);
}

/* the model's state, CPUs and workers for t->config, then the test's touches */
static int torture_set_up(struct torture *t, const void *config)
{
	char note[256] = "", err[256] = "";
	struct pcb_model_setup ms = { .config = config, .d = t->d, .v = t->v,
				      .nr_cpus = TORTURE_WORKERS, .note = note,
				      .notelen = sizeof(note) };

	if (!t->o)
		t->o = &torture_none;
	t->ops = pcb_model_ops(t->m);
	t->config = config;
	t->shared = t->ops.setup(&ms, err, sizeof(err));
	CHECK(t->shared != NULL, "%s: setup: %s", t->name, err);
	if (!t->shared)
		return -1;
	t->target = t->ops.drain_target(t->shared);
	t->ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (t->ncpu < 1)
		t->ncpu = 1;
	t->place = t->ops.stock_place(t->shared, t->d);
	for (int i = 0; i <= TORTURE_WORKERS; i++) {
		size_t size = (pcb_cpu_area_size(t->d, t->v, t->place) + 4095) & ~(size_t)4095;

		/* a worker's CPU is the one it runs on (two to a CPU); the last worker's isolated */
		t->cpu[i] = pcb_cpu_area_init(aligned_alloc(4096, size), t->d, t->v, t->place,
					      (unsigned int)(i < TORTURE_WORKERS ? i % t->ncpu : i),
					      0, i == TORTURE_WORKERS - 1);
		t->ops.cpu_setup(t->shared, t->d, t->cpu[i]);
		if (t->o->cpu)
			t->o->cpu(t, i);
	}
	for (int i = 0; i < TORTURE_WORKERS; i++) {
		size_t size = (t->ops.worker_size + PCB_CACHE_LINE - 1) &
			      ~(size_t)(PCB_CACHE_LINE - 1);
		struct pcb_worker *w = aligned_alloc(PCB_CACHE_LINE, size);

		memset(w, 0, t->ops.worker_size);
		w->cpu = t->cpu[i];
		w->timing = PCB_TIMING_CALL;
		w->rng = 0x1234567ULL * (uint64_t)(i + 1);
		w->dbg.limit = PCB_NO_LIMIT;
		t->cpu[i]->h.dbg = &w->dbg;
		t->ops.worker_setup(t->shared, w);
		t->w[i] = w;
		if (t->o->worker)
			t->o->worker(t, i);
	}
	return 0;
}

static void torture_tear_down(struct torture *t)
{
	for (int i = 0; i < TORTURE_WORKERS; i++)
		free(t->w[i]);
	for (int i = 0; i <= TORTURE_WORKERS; i++)
		free(t->cpu[i]);
	t->ops.teardown(t->shared);
}

/* a drain from this thread, as the coordinator's, work-based ones waited for */
static void torture_drain(struct torture *t)
{
	pcb_work_set_deadline(pcb_tsc_now() + (uint64_t)3e8);
	if (t->v->thread_start)
		t->v->thread_start();
	t->v->drain_all(t->cpu[TORTURE_WORKERS], t->target, t->cpu, TORTURE_WORKERS);
	if (t->v->thread_stop)
		t->v->thread_stop();
	torture_wait_for_work(t);
}

static void torture_round(struct torture *t, int r)
{
	pthread_t drainer, beside;
	char msg[256];

	atomic_store(&t->stop_drainer, 0);
	pthread_barrier_wait(&t->bar);	/* round starts: every work queue is set up */
	pthread_create(&drainer, NULL, torture_drainer, t);
	if (t->o->beside)
		pthread_create(&beside, NULL, t->o->beside, t);
	pthread_barrier_wait(&t->bar);	/* quiescent */
	atomic_store(&t->stop_drainer, 1);
	pthread_join(drainer, NULL);
	if (t->o->beside)
		pthread_join(beside, NULL);
	torture_wait_for_work(t);
	CHECK(torture_check(t, msg, sizeof(msg)) == 0, "%s, round %d: %s", t->name, r, msg);
	if (t->o->round)
		t->o->round(t, r);

	/* a drain now empties every cache it promises to, work-based ones once the work ran */
	torture_drain(t);
	for (int i = 0; i < TORTURE_WORKERS; i++)
		if ((!t->d->drain.queues_work || t->delivery != PCB_DELIVER_POLL) &&
		    !(t->d->skips_isolated && t->cpu[i]->isolated))
			CHECK(t->ops.cache_empty(t->shared, t->v, t->cpu[i]),
			      "%s, round %d: CPU %d's cache not drained", t->name, r, i);
	CHECK(torture_check(t, msg, sizeof(msg)) == 0, "%s, after a drain: %s", t->name, msg);
	pthread_barrier_wait(&t->bar);	/* checked and drained */
}

/* the end: every owner drained its own, every cache empty, work done, drains fired */
static void torture_end(struct torture *t)
{
	uint64_t done = 0;
	char msg[256];

	CHECK(!t->failed_setup, "%s: setup", t->name);
	CHECK(torture_check(t, msg, sizeof(msg)) == 0, "%s, at the end: %s", t->name, msg);
	for (int i = 0; i < TORTURE_WORKERS; i++) {
		CHECK(t->ops.cache_empty(t->shared, t->v, t->cpu[i]),
		      "%s: CPU %d's cache not empty at the end", t->name, i);
		done += t->w[i]->ops;
	}
	CHECK(done > 0, "%s: the workers did work", t->name);
	CHECK(atomic_load(&t->drains) > 0, "%s: the drainer ran", t->name);
	printf("%s: %lu operations, %ld drains\n", t->name, (unsigned long)done,
	       atomic_load(&t->drains));
	if (t->o->end)
		t->o->end(t);
}

/* why design d cannot be tortured here with delivery, or NULL */
static const char *torture_skip(const struct pcb_design *d, enum pcb_delivery delivery)
{
	if (d->unavailable && d->unavailable())
		return d->unavailable();
	if (d->drain.queues_work && delivery == PCB_DELIVER_KWORKER && !pcb_workq_fifo_permitted())
		return "kworker delivery needs SCHED_FIFO, not permitted here (CAP_SYS_NICE)";
	return NULL;
}

/* design d of m in the variant config picks, its work delivered by delivery */
static void torture_run(const struct pcb_model *m, const struct pcb_design *d, const void *config,
			enum pcb_delivery delivery, const struct torture_ops *o)
{
	int index = pcb_model_ops(m).variant_index(config, d);
	struct torture t = { .m = m, .d = d, .v = d->variant[index], .delivery = delivery, .o = o };
	struct torture_arg args[TORTURE_WORKERS];

	snprintf(t.name, sizeof(t.name), "%s %s %s%s%s", m->name, d->name, t.v->name,
		 d->drain.queues_work ? " delivery=" : "",
		 d->drain.queues_work ? pcb_delivery_name[delivery] : "");
	if (torture_skip(d, delivery)) {
		printf("%s: skipped: %s\n", t.name, torture_skip(d, delivery));
		return;
	}
	if (torture_set_up(&t, config) < 0)
		return;
	pthread_barrier_init(&t.bar, NULL, TORTURE_WORKERS + 1);
	for (int i = 0; i < TORTURE_WORKERS; i++) {
		args[i] = (struct torture_arg){ .t = &t, .i = i };
		pthread_create(&t.tid[i], NULL, torture_worker, &args[i]);
	}
	for (int r = 0; r < torture_rounds(&t); r++)
		torture_round(&t, r);
	for (int i = 0; i < TORTURE_WORKERS; i++)
		pthread_join(t.tid[i], NULL);
	torture_end(&t);
	pthread_barrier_destroy(&t.bar);
	torture_tear_down(&t);
}

/* the deliveries a design's work is tortured with: poll alone where it queues none */
static int torture_delivers(const struct pcb_design *d, int del)
{
#if defined(__SANITIZE_THREAD__)
	if (d->drain.queues_work && del != PCB_DELIVER_POLL)
		return 0;
#endif
	return d->drain.queues_work || del == PCB_DELIVER_POLL;
}

/*
 * Every design of m in every variant: configs[] holds one configuration a
 * variant (config_size bytes each), ops each worker's operations a round.
 */
static inline void pcb_torture(const struct pcb_model *m, const void *configs, int nr_configs,
			       uint64_t ops)
{
	const struct torture_ops o = { .ops = ops };

	for (int i = 0; m->designs[i]; i++) {
		const struct pcb_design *d = m->designs[i];
		int seen = 0;

		for (int c = 0; c < nr_configs; c++) {
			const void *config = (const char *)configs + (size_t)c * m->config.size;
			int index = pcb_model_ops(m).variant_index(config, d);

			CHECK(index >= 0 && index < PCB_MAX_VARIANTS && d->variant[index] &&
			      !(seen & 1 << index), "%s %s: configuration %d picks variant %d",
			      m->name, d->name, c, index);
			if (index < 0 || index >= PCB_MAX_VARIANTS || !d->variant[index])
				continue;
			seen |= 1 << index;
			for (int del = 0; del <= PCB_DELIVER_POLL; del++)
				if (torture_delivers(d, del))
					torture_run(m, d, config, (enum pcb_delivery)del, &o);
		}
		for (int k = 0; k < PCB_MAX_VARIANTS && d->variant[k]; k++)
			CHECK(seen & 1 << k, "%s %s: variant %s never tortured", m->name, d->name,
			      d->variant[k]->name);
	}
}

#endif
