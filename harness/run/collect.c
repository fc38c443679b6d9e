/* SPDX-License-Identifier: MIT */
/*
 * A design's result (runner.h): the room its runs need, each finished
 * run's figures collected into it from the workers and the coordinator,
 * and given back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threads.h"

void pcb_merge_contention(struct pcb_design_result *res, const struct pcb_contention *cc,
			  int coordinator)
{
	for (int i = 0; i < PCB_MAX_CONTENDED_FNS && cc[i].fn; i++) {
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
		pcb_tally_merge(&row->wait, &cc[i].wait);
		pcb_tally_merge(&row->held, &cc[i].held);
	}
}

int pcb_design_result_init(struct pcb_design_result *res, const struct pcb_scenario *sc,
			   const struct pcb_design *d, const struct pcb_clock *clk)
{
	int runs = pcb_runs_room(sc), nr = hwloc_bitmap_weight(sc->workers);

	memset(res, 0, sizeof(*res));
	res->design = d;
	res->variant = d->variant[pcb_model_ops(sc->model).variant_index(sc->config, d)];
	res->sc = sc;
	res->runs = sc->runs;
	res->nr_workers = nr;
	res->workers_node = res->target_node = -1;
	res->tsc_step = clk->step;
	snprintf(res->label, sizeof(res->label), "%s%s%s", d->name, sc->label[0] ? " " : "",
		 sc->label);
	snprintf(res->check, sizeof(res->check), "ok");
	res->drain.work_elsewhere_cpu = -1;
	if (sc->backend_note[0])
		snprintf(res->run_note, sizeof(res->run_note), "%s: %s backend: %s", res->label,
			 pcb_backend_name[sc->backend], sc->backend_note);
	res->counters.nr_events = sc->counters.n;
	res->counters.per_call = sc->counters.per_call;
	res->worker = calloc((size_t)nr, sizeof(*res->worker));
	res->ovh = calloc((size_t)nr * (size_t)runs, sizeof(*res->ovh));
	res->counters.ctr = calloc((size_t)nr * PCB_MAX_EVENTS, sizeof(*res->counters.ctr));
	res->gaps = calloc((size_t)nr, sizeof(*res->gaps));
	res->drain.run_mean = calloc((size_t)runs, sizeof(double));
	res->drain.run_line = calloc((size_t)runs, sizeof(double));
	res->drain.run_wake = calloc((size_t)runs, sizeof(double));
	if (!res->worker || !res->ovh || !res->counters.ctr || !res->gaps || !res->drain.run_mean ||
	    !res->drain.run_line || !res->drain.run_wake)
		return -1;
	for (int f = 0; f < PCB_MAX_FN; f++) {
		struct pcb_fn_result *fr = &res->fn[f];

		fr->run_mean = calloc((size_t)runs, sizeof(double));
		fr->run_sub_mean = calloc((size_t)runs, sizeof(double));
		fr->run_fixed = calloc((size_t)runs, sizeof(double));
		fr->run_raw_mean = calloc((size_t)runs, sizeof(double));
		fr->run_calls = calloc((size_t)runs, sizeof(uint64_t));
		fr->run_interrupted = calloc((size_t)runs, sizeof(uint64_t));
		if (!fr->run_mean || !fr->run_sub_mean || !fr->run_fixed || !fr->run_raw_mean ||
		    !fr->run_calls || !fr->run_interrupted)
			return -1;
		fr->method = sc->timing == PCB_TIMING_BATCH ? PCB_METHOD_SUBTRACTED :
			     PCB_METHOD_CALL;
	}
	return 0;
}

int pcb_runs_room(const struct pcb_scenario *sc)
{
	return sc->runs_auto && sc->max_runs > sc->runs ? sc->max_runs : sc->runs;
}

int pcb_design_result_more(struct pcb_design_result *res)
{
	double keep;

	if (res->runs >= pcb_runs_room(res->sc))
		return -1;
	/* the figures collect_run() averages over res->runs, re-weighted for one more */
	keep = (double)res->runs / (res->runs + 1);
	res->overhead *= keep;
	res->run_seconds *= keep;
	res->runs++;
	return 0;
}

void pcb_design_result_free(struct pcb_design_result *res)
{
	for (int f = 0; f < PCB_MAX_FN; f++) {
		free(res->fn[f].run_mean);
		free(res->fn[f].run_sub_mean);
		free(res->fn[f].run_fixed);
		free(res->fn[f].run_raw_mean);
		free(res->fn[f].run_calls);
		free(res->fn[f].run_interrupted);
	}
	free(res->worker);
	free(res->ovh);
	free(res->counters.ctr);
	free(res->gaps);
	free(res->drain.run_mean);
	free(res->drain.run_line);
	free(res->drain.run_wake);
	memset(res, 0, sizeof(*res));
}

const char *pcb_fn_method_name(enum pcb_fn_method m)
{
	static const char *const name[] = { "call", "subtracted", "differenced" };

	return name[m];
}

/*
 * One row's figures of one run. Where every worker's regions of the row
 * alternated in length (pcb_batch_calls()), a call costs the slope of each
 * worker's line, weighted by its calls; else the regions' ticks less one
 * empty region each.
 */
static void collect_fn(struct pcb_fn_result *fr, int f, const struct thread_ctx *t, int nr,
		       int run)
{
	double sum = 0, raw = 0, line = 0, fixed = 0;
	uint64_t calls = 0, interrupted = 0;
	int lines = 0, timed = 0;

	for (int i = 0; i < nr; i++) {
		const struct pcb_dbg *dbg = &t[i].w->dbg;
		const struct pcb_stat *s = &dbg->stat[f];
		double slope, a;

		raw += (double)s->sum_raw;
		sum += (double)s->sum_raw - t[i].overhead * (double)s->samples;
		calls += s->calls;
		interrupted += s->interrupted;
		pcb_stat_merge(&fr->total, s);
		if (!s->calls)
			continue;
		timed++;
		if (dbg->differenced & 1u << f && pcb_stat_line(s, &slope, &a)) {
			line += slope * (double)s->calls;
			fixed += a;
			lines++;
		}
	}
	fr->run_sub_mean[run] = calls ? sum / (double)calls : 0;
	fr->run_raw_mean[run] = calls ? raw / (double)calls : 0;
	fr->run_calls[run] = calls;
	fr->run_interrupted[run] = interrupted;
	if (timed && lines == timed) {
		fr->method = PCB_METHOD_DIFFERENCED;
		fr->run_mean[run] = line / (double)calls;
		fr->run_fixed[run] = fixed / lines;
	} else {
		fr->run_mean[run] = fr->run_sub_mean[run];
	}
}

/* the main thread's look at one finished run */
void pcb_collect_run(struct pcb_design_result *res, struct thread_ctx *t, int nr, int run,
		     const struct pcb_clock *clk)
{
	uint64_t max_start = 0, min_end = UINT64_MAX, span = 0;
	struct pcb_counter_result *cr = &res->counters;

	/* what each worker subtracts: its empty regions timed during the run */
	for (int i = 0; i < nr; i++) {
		const struct pcb_dbg *dbg = &t[i].w->dbg;
		struct pcb_run_overhead *o = &res->ovh[run * nr + i];
		struct pcb_overhead in_run;

		pcb_overhead_from_counts(&in_run, dbg->empty, PCB_EMPTY_MAX_TICKS, dbg->empty_n,
					 dbg->empty_over);
		o->start = t[i].ovh_start.trimmed;
		o->end = t[i].ovh_end.trimmed;
		o->in_run = in_run.trimmed;
		o->in_run_regions = dbg->empty_n;
		if (dbg->empty_n >= PCB_EMPTY_MIN_REGIONS) {
			t[i].overhead = in_run.trimmed;
			o->lo = in_run.lo;
			o->hi = in_run.hi;
		} else {
			o->lo = t[i].ovh_start.lo;
			o->hi = t[i].ovh_start.hi;
		}
		o->subtracted = t[i].overhead;
	}

	for (int f = 0; f < PCB_MAX_FN; f++)
		collect_fn(&res->fn[f], f, t, nr, run);
	for (int i = 0; i < nr; i++) {
		struct pcb_worker *w = t[i].w;

		for (int e = 0; e < cr->nr_events; e++) {
			pcb_counter_add(&cr->ctr[i * PCB_MAX_EVENTS + e], &t[i].ctr[e]);
			for (int f = 0; f < PCB_MAX_FN; f++)
				cr->ctr_fn[f][e] += w->dbg.ctr[f][e];
		}
		cr->kernel_dropped |= t[i].pmc.kernel_dropped;
		cr->rdpmc = t[i].pmc.rdpmc;
		pcb_merge_contention(res, w->cpu->h.cc, 0);
		pcb_gaps_merge(&res->gaps[i], &w->gaps);
		for (int e = 0; e < PCB_MAX_EV; e++)
			res->ev[e] += w->cpu->ev[e];
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

/* the coordinator's figures of one run */
void pcb_collect_coord(struct pcb_design_result *res, struct run_shared *s, int run)
{
	struct pcb_coord *c = &s->coord;
	struct pcb_drain_result *dr = &res->drain;

	dr->run_mean[run] = pcb_stat_mean(&c->drain, c->overhead);
	/* a run whose drains sampled none of its wakes has no wake figure */
	dr->run_wake[run] = c->wake_n ? (double)c->wake_sum / (double)c->wake_n :
			    res->design->drain.queues_work ? NAN : 0;
	dr->count += s->fired;
	pcb_stat_merge(&dr->total, &c->drain);
	pcb_hist_merge(&dr->completion, &c->completion);
	dr->completed += c->completed;
	dr->incomplete += c->incomplete;
	dr->waited_preempted += c->waited_preempted;
	dr->stranded_sum += c->stranded_sum;
	dr->stranded_n += c->stranded_n;
	if (c->stranded_max > dr->stranded_max)
		dr->stranded_max = c->stranded_max;
	dr->nr_virtual = c->nr_virtual;
	dr->nr_caches = c->nr_workers + c->nr_charged + c->self_charged;
	dr->nr_online = c->nr_online;
	dr->walk_sum += c->walk_sum;
	dr->wake_sum += c->wake_sum;
	dr->wake_n += c->wake_n;
	dr->helpers_flush = c->helpers_serve;
	dr->helper_ran += atomic_load(&c->helper_ran);
	pcb_merge_contention(res, c->self->h.cc, 1);
	dr->remote += c->self->h.remote_drains;
	for (int e = 0; e < res->counters.nr_events; e++)
		pcb_counter_add(&res->counters.coord[e], &s->coord_ctr[e]);
}
