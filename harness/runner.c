/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <sched.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/memcontrol.h"
#include "check.h"
#include "runner.h"
#include "coordinator.h"
#include "static_key.h"
#include "work.h"
#include "worker.h"

static size_t round64(size_t n)
{
	return (n + 63) & ~(size_t)63;
}

size_t pcb_cpu_area_size(const struct pcb_variant *v)
{
	return round64(sizeof(struct pcb_cpu)) + (1 + v->spare_stock) * round64(v->stock_size);
}

struct pcb_cpu *pcb_cpu_area_init(void *area, const struct pcb_variant *v, unsigned int os,
				  int node)
{
	struct pcb_cpu *cpu = area;

	memset(area, 0, pcb_cpu_area_size(v));
	pcb_cpu_init(cpu);
	cpu->cpu = os;
	cpu->node = node;
	cpu->nr_slots = (unsigned char)v->slots;
	cpu->stock = (char *)area + round64(sizeof(struct pcb_cpu));
	v->stock_init(cpu->stock);
	if (v->spare_stock) {
		cpu->stock_spare = (char *)cpu->stock + round64(v->stock_size);
		v->stock_init(cpu->stock_spare);
	}
	return cpu;
}

struct thread_ctx {
	pthread_t tid;
	unsigned int cpu;
	int node;
	struct run_shared *shared;
	struct pcb_worker *w;		/* node-local, allocated by the thread */
	void *area;			/* pcb_cpu + stock, node-local */
	size_t area_size;
	double overhead;		/* this run's empty region, ticks */
	int error;			/* -errno of pinning or allocation */
	char errmsg[256];
	struct pcb_counters pmc;	/* this thread's perf events */
	struct pcb_workq wq;		/* schedule_work_on() to this CPU */
	int wq_started;
	struct pcb_counter_value ctr[PCB_MAX_EVENTS];	/* this run's counts */
};

struct run_shared {
	const struct pcb_scenario *sc;
	const struct pcb_design *d;
	const struct pcb_variant *v;
	const struct pcb_topo *topo;
	struct memcg_tree *tree;
	int key_patched;
	uint64_t duration_ticks, warmup_ticks;
	int stop;			/* set by the main thread before the last barrier */
	pthread_barrier_t bar;
	/* the coordinator */
	int coord_cpu;			/* -1: none */
	struct pcb_coord coord;
	struct pcb_cpu **cpus;		/* the workers' CPUs, filled after set up */
	int nr;
	uint64_t fired;			/* drains in the last run */
	struct pcb_counters coord_pmc;	/* the coordinator's perf events */
	struct pcb_counter_value coord_ctr[PCB_MAX_EVENTS];	/* its last run's counts */
	char coord_err[256];
	int coord_failed;
	double tsc_hz;
};

static void *coord_main(void *arg)
{
	struct run_shared *s = arg;
	const struct pcb_scenario *sc = s->sc;
	struct pcb_coord_plan plan = {
		.rate_hz = sc->drain_rate_hz, .poisson = sc->drain_poisson,
		.burst = sc->drain_burst, .count = sc->drain_count,
	};
	int set_up = 0, run = 0;

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
			struct mem_cgroup *target = sc->drain_target_leaf ? s->tree->leaf[0]
									  : s->tree->memcg[0];

			if (pcb_coord_setup(&s->coord, s->d, s->v, s->topo, s->tree, target, s->cpus,
					    s->nr, sc->drain_stocks, s->coord_err,
					    sizeof(s->coord_err)) < 0)
				s->coord_failed = 1;
			set_up = 1;
		}
		pcb_coord_reset(&s->coord);
		pthread_barrier_wait(&s->bar);	/* every worker starts together */
		if (!s->coord_failed) {
			uint64_t start;

			pcb_counters_start(&s->coord_pmc);
			start = pcb_tsc_now();
			s->fired = pcb_coord_run(&s->coord, &plan, s->tsc_hz, start,
						 start + s->duration_ticks,
						 (sc->seed + 1) * 0x9E3779B97F4A7C15ULL + (uint64_t)run);
			pcb_counters_stop(&s->coord_pmc, s->coord_ctr);
		}
		run++;
		pthread_barrier_wait(&s->bar);	/* run over */
	}
	pcb_counters_close(&s->coord_pmc);
	return NULL;
}


static void *worker_main(void *arg)
{
	struct thread_ctx *t = arg;
	struct run_shared *s = t->shared;
	const struct pcb_design *d = s->d;
	const struct pcb_variant *v = s->v;
	const struct pcb_scenario *sc = s->sc;
	struct pcb_cpu *cpu;
	struct pcb_worker *w;
	int rc;

	rc = pcb_topo_pin(s->topo, t->cpu);
	if (rc < 0)
		t->error = rc;
	/* allocated after pinning and touched first here: node-local pages */
	t->area_size = pcb_cpu_area_size(v);
	t->area = pcb_alloc_on_node(t->area_size, t->node);
	w = pcb_alloc_on_node(sizeof(*w), t->node);
	t->w = w;
	pcb_counters_open(&t->pmc, &sc->counters);
	if (!t->area || !w) {
		t->error = -ENOMEM;
		pthread_barrier_wait(&s->bar);	/* set up */
		pthread_barrier_wait(&s->bar);	/* the main thread stops */
		pcb_counters_close(&t->pmc);
		return NULL;
	}
	memset(w, 0, sizeof(*w));
	cpu = pcb_cpu_area_init(t->area, v, t->cpu, t->node);
	cpu->isolated = hwloc_bitmap_isset(s->topo->isolated, t->cpu);
	cpu->nocache = d->nocache && (!sc->nocache_isolated_only || cpu->isolated);
	cpu->nr_slots = (unsigned char)sc->slots;
	cpu->evict_round_robin = sc->eviction_round_robin;
	cpu->dbg = &w->dbg;
	if (sc->counters.per_call)
		w->dbg.pmc = &t->pmc;
	if (d->drain == PCB_DRAIN_WORK) {
		if (pcb_workq_start(&t->wq, cpu, (enum pcb_delivery)sc->delivery, v->drain_local,
				    v->work_data(cpu->stock), (int)t->cpu, t->errmsg,
				    sizeof(t->errmsg)) < 0)
			t->error = -EINVAL;
		else
			t->wq_started = 1;
	}
	if (v->thread_start)
		v->thread_start();

	w->cpu = cpu;
	if (sc->workload == PCB_WL_MULTI_MEMCG) {
		w->nr_memcgs = sc->memcgs;
		for (int m = 0; m < sc->memcgs; m++)
			w->memcg[m] = s->tree->leaf[m];
	} else {
		w->nr_memcgs = 1;
		w->memcg[0] = s->tree->leaf[0];
	}
	w->pgdat = &s->tree->pgdat[0];
	w->timing = sc->timing;
	w->workload = sc->workload;
	w->nr_pages = sc->nr_pages;
	w->hold = sc->hold;
	w->uncharge_refill = sc->uncharge_refill;
	w->obj_share = sc->obj_share;
	w->obj_size = sc->object_size + (unsigned int)sizeof(void *);	/* obj_full_size() */
	w->burst = (uint64_t)sc->burst;
	w->accounting = sc->accounting;
	w->key_patched = s->key_patched;
	if (sc->accounting != PCB_ACCT_MEMCG)
		w->memcg[0] = s->tree->memcg[0];	/* only the root memcg exists */
	w->rng = (sc->seed + 1) * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)t->cpu + 1) * 0xBF58476D1CE4E5B9ULL;
	if (!w->rng)
		w->rng = 1;
	pthread_barrier_wait(&s->bar);		/* set up */

	for (;;) {
		pthread_barrier_wait(&s->bar);	/* the main thread released a run, or stop */
		if (s->stop)
			break;
		t->overhead = pcb_clock_overhead(w->timing);
		w->dbg.overhead = (uint64_t)(t->overhead + 0.5);

		w->ops_limit = 0;
		w->gaps.checks = 0;
		w->gaps.threshold = UINT64_MAX;
		w->deadline = pcb_tsc_now() + s->warmup_ticks;
		if (s->warmup_ticks)
			v->run(w);
		memset(w->dbg.stat, 0, sizeof(w->dbg.stat));
		memset(w->dbg.ctr, 0, sizeof(w->dbg.ctr));
		memset(cpu->ev, 0, sizeof(cpu->ev));
		memset(cpu->cc, 0, sizeof(cpu->cc));
		{
			uint64_t period = s->warmup_ticks && w->gaps.checks ?
					  s->warmup_ticks / w->gaps.checks : 0;
			uint64_t floor = (uint64_t)(s->tsc_hz * 2e-6);

			memset(&w->gaps, 0, sizeof(w->gaps));
			w->gaps.period = period;
			w->gaps.threshold = sc->gap_threshold_ns ?
				(uint64_t)(s->tsc_hz * (double)sc->gap_threshold_ns / 1e9) :
				pcb_max(floor, 20 * period);
		}
		w->charged = w->uncharged = w->failed = w->misses = w->ops = 0;
		w->ops_limit = (uint64_t)s->sc->ops;

		pthread_barrier_wait(&s->bar);	/* every worker starts together */
		pcb_counters_start(&t->pmc);
		w->tsc_start = pcb_tsc_now();
		w->deadline = w->tsc_start + s->duration_ticks;
		v->run(w);
		w->tsc_end = pcb_tsc_now();
		pcb_counters_stop(&t->pmc, t->ctr);
		pthread_barrier_wait(&s->bar);	/* run over: the main thread reads */
	}
	/* give back what it holds, and empty the stock as drain_local_stock() */
	if (t->wq_started)
		pcb_workq_stop(&t->wq);
	v->release(w);
	v->drain_local(cpu);
	if (v->thread_stop)
		v->thread_stop();
	pcb_counters_close(&t->pmc);
	return NULL;
}

void pcb_merge_contention(struct pcb_design_result *res, const struct pcb_contention *cc,
			  int coordinator)
{
	for (int i = 0; i < 8 && cc[i].fn; i++) {
		struct pcb_contention_row *row = NULL;

		for (int r = 0; r < res->nr_cc; r++)
			if (res->cc[r].coordinator == coordinator && !strcmp(res->cc[r].fn, cc[i].fn))
				row = &res->cc[r];
		if (!row && res->nr_cc < PCB_MAX_CC_ROWS) {
			row = &res->cc[res->nr_cc++];
			snprintf(row->fn, sizeof(row->fn), "%s", cc[i].fn);
			row->coordinator = coordinator;
		}
		if (!row)
			continue;
		row->contended += cc[i].contended;
		row->wait_sum += cc[i].wait_sum;
		if (cc[i].wait_max > row->wait_max)
			row->wait_max = cc[i].wait_max;
	}
}

static int alloc_result(struct pcb_design_result *res, int runs, int nr)
{
	memset(res, 0, sizeof(*res));
	res->runs = runs;
	res->nr_workers = nr;
	res->worker = calloc((size_t)nr, sizeof(*res->worker));
	res->ctr = calloc((size_t)nr * PCB_MAX_EVENTS, sizeof(*res->ctr));
	res->gaps = calloc((size_t)nr, sizeof(*res->gaps));
	res->drain_run_mean = calloc((size_t)runs, sizeof(double));
	if (!res->worker || !res->ctr || !res->gaps || !res->drain_run_mean)
		return -1;
	for (int f = 0; f < PCB_FN_NR; f++) {
		res->fn[f].run_mean = calloc((size_t)runs, sizeof(double));
		res->fn[f].run_calls = calloc((size_t)runs, sizeof(uint64_t));
		if (!res->fn[f].run_mean || !res->fn[f].run_calls)
			return -1;
	}
	return 0;
}

void pcb_design_result_free(struct pcb_design_result *res)
{
	for (int f = 0; f < PCB_FN_NR; f++) {
		free(res->fn[f].run_mean);
		free(res->fn[f].run_calls);
	}
	free(res->worker);
	free(res->ctr);
	free(res->gaps);
	free(res->drain_run_mean);
	memset(res, 0, sizeof(*res));
}

/* the main thread's look at one finished run */
static void collect_run(struct pcb_design_result *res, struct thread_ctx *t, int nr, int run,
			const struct pcb_clock *clk)
{
	uint64_t max_start = 0, min_end = UINT64_MAX, span = 0;

	for (int f = 0; f < PCB_FN_NR; f++) {
		double sum = 0;
		uint64_t calls = 0;

		for (int i = 0; i < nr; i++) {
			const struct pcb_stat *s = &t[i].w->dbg.stat[f];

			sum += (double)s->sum_raw - t[i].overhead * (double)s->samples;
			calls += s->calls;
			pcb_stat_merge(&res->fn[f].total, s);
		}
		res->fn[f].run_mean[run] = calls ? sum / (double)calls : 0;
		res->fn[f].run_calls[run] = calls;
	}
	for (int i = 0; i < nr; i++) {
		struct pcb_worker *w = t[i].w;

		for (int e = 0; e < res->nr_events; e++) {
			pcb_counter_add(&res->ctr[i * PCB_MAX_EVENTS + e], &t[i].ctr[e]);
			for (int f = 0; f < PCB_FN_NR; f++)
				res->ctr_fn[f][e] += w->dbg.ctr[f][e];
		}
		res->kernel_dropped |= t[i].pmc.kernel_dropped;
		pcb_merge_contention(res, w->cpu->cc, 0);
		pcb_gaps_merge(&res->gaps[i], &w->gaps);
		for (int e = 0; e < PCB_NR_EV; e++)
			res->ev[e] += w->cpu->ev[e];
		res->rdpmc = t[i].pmc.rdpmc;
		res->overhead += t[i].overhead / (nr * res->runs);
		res->ops += w->ops;
		res->failed += w->failed;
		res->misses += w->misses;
		if (w->tsc_start > max_start)
			max_start = w->tsc_start;
		if (w->tsc_end < min_end)
			min_end = w->tsc_end;
		if (w->tsc_end - w->tsc_start > span)
			span = w->tsc_end - w->tsc_start;
	}
	if (max_start >= min_end)
		res->nonoverlap++;
	res->run_seconds += pcb_clock_ns(clk, (double)span) / 1e9 / res->runs;
}

/* a housekeeping CPU without a worker, else a housekeeping one, else the first */
static int pick_coord_cpu(const struct pcb_topo *topo, const struct pcb_scenario *sc,
			  struct pcb_design_result *res)
{
	hwloc_bitmap_t hk = hwloc_bitmap_alloc(), free_hk = hwloc_bitmap_alloc();
	int cpu;

	hwloc_bitmap_andnot(hk, topo->all, topo->isolated);
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
		res->coord_shares_cpu = 1;
	hwloc_bitmap_free(hk);
	hwloc_bitmap_free(free_hk);
	return cpu;
}

/* the coordinator's figures of one run */
static void collect_coord(struct pcb_design_result *res, struct pcb_coord *c, int run,
			  uint64_t fired)
{
	res->drain_run_mean[run] = c->drain.calls ?
		((double)c->drain.sum_raw - c->overhead * (double)c->drain.samples) /
		(double)c->drain.calls : 0;
	res->drains += fired;
	pcb_stat_merge(&res->drain_total, &c->drain);
	pcb_hist_merge(&res->completion, &c->completion);
	res->completed += c->completed;
	res->incomplete += c->incomplete;
	res->stranded_sum += c->stranded_sum;
	res->stranded_n += c->stranded_n;
	if (c->stranded_max > res->stranded_max)
		res->stranded_max = c->stranded_max;
	res->nr_virtual = c->nr_virtual;
	res->nr_stocks = c->nr_cpus;
	pcb_merge_contention(res, c->self->cc, 1);
	res->remote_drains += c->self->ev[PCB_EV_REMOTE_DRAIN];
}

/* the invariant over workers, the coordinator and virtual CPUs */
static int check_all(const struct pcb_variant *v, const struct memcg_tree *tree,
		     struct pcb_worker *const *ws, int nr, struct run_shared *s,
		     char *msg, size_t len)
{
	int n = nr + (s->coord.self ? 1 + s->coord.nr_virtual : 0), k = 0, rc;
	struct pcb_cpu **all = calloc((size_t)n, sizeof(*all));

	for (int i = 0; i < nr; i++)
		all[k++] = s->cpus[i];
	if (s->coord.self) {
		pcb_work_wait_idle(s->coord.cpus + nr, s->coord.nr_virtual, (uint64_t)2e9, 0);
		all[k++] = s->coord.self;
		for (int i = 0; i < s->coord.nr_virtual; i++)
			all[k++] = s->coord.cpus[nr + i];
	}
	rc = pcb_check_charges(v, tree, ws, nr, all, k, msg, len);
	free(all);
	return rc;
}

int pcb_run_design(const struct pcb_topo *topo, const struct pcb_scenario *sc,
		   const struct pcb_design *d, const struct pcb_clock *clk,
		   struct pcb_design_result *res, pcb_progress_fn progress, void *ctx,
		   char *err, size_t errlen)
{
	const struct pcb_variant *v = d->variant[sc->slots > 1][sc->irq_model];
	struct run_shared s = { .sc = sc, .d = d, .v = v, .topo = topo };
	int nr = hwloc_bitmap_weight(sc->workers), i = 0, rc = -1;
	struct thread_ctx *t = calloc((size_t)nr, sizeof(*t));
	struct pcb_worker **ws = calloc((size_t)nr, sizeof(*ws));
	struct pcb_cpu **cpus = calloc((size_t)nr, sizeof(*cpus));
	struct memcg_tree tree;
	pthread_t coord_tid;
	unsigned int cpu;
	char msg[256];

	if (!t || !ws || !cpus || alloc_result(res, sc->runs, nr) < 0 ||
	    memcg_tree_create(&tree, sc->memcg_depth,
			      sc->workload == PCB_WL_MULTI_MEMCG ? sc->memcgs : 1) < 0) {
		snprintf(err, errlen, "out of memory");
		free(t);
		free(ws);
		free(cpus);
		return -1;
	}
	pcb_nr_online_cpus = nr;
	res->design = d;
	res->variant = v;
	res->sc = sc;
	snprintf(res->label, sizeof(res->label), "%s%s%s", d->name, sc->label[0] ? " " : "", sc->label);
	if (sc->accounting >= PCB_ACCT_STATIC_KEY) {
		char why[200];

		s.key_patched = pcb_static_key_patchable(why, sizeof(why)) == 0;
		if (s.key_patched) {
			snprintf(res->accounting_impl, sizeof(res->accounting_impl),
				 "jump label: %d sites rewritten to %s", pcb_static_key_sites(&memcg_in_use_key),
				 sc->accounting == PCB_ACCT_STATIC_KEY_ON ? "jmp" : "a 5-byte nop");
			pcb_static_key_set(&memcg_in_use_key, sc->accounting == PCB_ACCT_STATIC_KEY_ON);
		} else {
			snprintf(res->accounting_impl, sizeof(res->accounting_impl),
				 "NOT a jump label: a test of the key (%s)", why);
			memcg_in_use_key.enabled = sc->accounting == PCB_ACCT_STATIC_KEY_ON;
		}
	}
	res->nr_events = sc->counters.n;
	res->per_call = sc->counters.per_call;
	snprintf(res->check, sizeof(res->check), "ok");
	s.tree = &tree;
	s.duration_ticks = (uint64_t)(clk->tsc_hz * (double)sc->duration_ms / 1e3);
	s.warmup_ticks = (uint64_t)(clk->tsc_hz * (double)sc->warmup_ms / 1e3);
	s.tsc_hz = clk->tsc_hz;
	s.nr = nr;
	s.cpus = cpus;
	s.coord_cpu = -1;
	if (sc->drain_rate_hz > 0 || sc->drain_count > 0) {
		s.coord_cpu = pick_coord_cpu(topo, sc, res);
		res->coordinator = 1;
		res->coord_cpu = s.coord_cpu;
	}
	pthread_barrier_init(&s.bar, NULL, (unsigned int)nr + 1 + (s.coord_cpu >= 0));

	hwloc_bitmap_foreach_begin(cpu, sc->workers) {
		const struct pcb_topo_cpu *tc = pcb_topo_cpu(topo, cpu);

		t[i].cpu = cpu;
		t[i].node = tc ? tc->node : -1;
		t[i].shared = &s;
		res->worker[i].cpu = cpu;
		res->worker[i].node = t[i].node;
		i++;
	} hwloc_bitmap_foreach_end();

	if (s.coord_cpu >= 0) {
		int e = pthread_create(&coord_tid, NULL, coord_main, &s);

		if (e) {
			fprintf(stderr, "pcpbench: cannot start the coordinator: %s\n", strerror(e));
			exit(1);
		}
	}
	for (i = 0; i < nr; i++) {
		int e = pthread_create(&t[i].tid, NULL, worker_main, &t[i]);

		if (e) {
			/* the started workers wait on a barrier sized for all: no way back */
			fprintf(stderr, "pcpbench: cannot start a worker thread: %s\n", strerror(e));
			exit(1);
		}
	}
	pthread_barrier_wait(&s.bar);		/* set up */
	for (i = 0; i < nr; i++) {
		if (t[i].error) {
			if (t[i].errmsg[0])
				snprintf(err, errlen, "worker on CPU %u: %s", t[i].cpu, t[i].errmsg);
			else
				snprintf(err, errlen, "worker on CPU %u: %s: %s", t[i].cpu,
					 t[i].error == -ENOMEM ? "allocation" : "pinning",
					 strerror(-t[i].error));
			goto out_join;
		}
		ws[i] = t[i].w;
		cpus[i] = t[i].w->cpu;
		res->worker[i].stock_node = pcb_node_of_addr(t[i].w->cpu->stock);
	}

	for (int run = 0; run < sc->runs; run++) {
		if (progress)
			progress(ctx, d, run, sc->runs);
		pthread_barrier_wait(&s.bar);	/* release the run */
		pthread_barrier_wait(&s.bar);	/* start together */
		pthread_barrier_wait(&s.bar);	/* run over */
		if (s.coord_failed) {
			snprintf(err, errlen, "coordinator: %s", s.coord_err);
			goto out_join;
		}
		collect_run(res, t, nr, run, clk);
		if (s.coord_cpu >= 0) {
			collect_coord(res, &s.coord, run, s.fired);
			for (int e = 0; e < res->nr_events; e++)
				pcb_counter_add(&res->coord_ctr[e], &s.coord_ctr[e]);
		}
		/* nothing runs on any CPU before the check reads it */
		pcb_work_wait_idle(cpus, nr, (uint64_t)2e9, 0);
		/* quiescent: every worker waits at the next barrier */
		if (!res->check_failed &&
		    check_all(v, &tree, ws, nr, &s, msg, sizeof(msg)) < 0) {
			res->check_failed = 1;
			snprintf(res->check, sizeof(res->check), "after run %d: %s", run + 1, msg);
		}
	}
	s.stop = 1;
	pthread_barrier_wait(&s.bar);
	for (i = 0; i < nr; i++)
		pthread_join(t[i].tid, NULL);
	if (s.coord_cpu >= 0) {
		pthread_join(coord_tid, NULL);
		s.coord_cpu = -1;
	}
	/* after every owner drained its stock, nothing is charged or referenced */
	if (!res->check_failed &&
	    check_all(v, &tree, ws, nr, &s, msg, sizeof(msg)) < 0) {
		res->check_failed = 1;
		snprintf(res->check, sizeof(res->check), "after the final drain: %s", msg);
	}
	for (i = 0; i < nr; i++) {
		res->work_queued += (uint64_t)atomic_load(&t[i].wq.queued);
		res->work_ran += (uint64_t)atomic_load(&t[i].wq.ran);
		res->work_deferred += (uint64_t)atomic_load(&t[i].wq.deferred);
	}
	/* and every stock is empty: what is left is in the objcgs' shared remainders */
	for (i = 0; i < nr && !res->check_failed; i++)
		if (!pcb_stock_empty(v, cpus[i]->stock, &tree)) {
			res->check_failed = 1;
			snprintf(res->check, sizeof(res->check), "after the final drain: "
				 "the stock of CPU %u is not empty", cpus[i]->cpu);
		}
	rc = 0;
	goto out;

out_join:
	s.stop = 1;
	pthread_barrier_wait(&s.bar);
	for (i = 0; i < nr; i++)
		pthread_join(t[i].tid, NULL);
	if (s.coord_cpu >= 0)
		pthread_join(coord_tid, NULL);
out:
	pcb_coord_teardown(&s.coord);
	for (i = 0; i < nr; i++) {
		pcb_free_on_node(t[i].area, t[i].area_size);
		pcb_free_on_node(t[i].w, sizeof(*t[i].w));
	}
	pthread_barrier_destroy(&s.bar);
	if (s.key_patched)
		pcb_static_key_set(&memcg_in_use_key, false);
	memcg_in_use_key.enabled = 0;
	memcg_tree_destroy(&tree);
	free(cpus);
	free(ws);
	free(t);
	return rc;
}
