/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "../measure/counters.h"
#include "../run/work.h"
#include "result.h"

void pcb_utc_timestamp(char *buf, size_t len, int compact)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static json_t *cpuset_json(hwloc_const_bitmap_t set)
{
	char buf[1024];

	pcb_cpuset_format(set, buf, sizeof(buf));
	return json_string(buf);
}

/* the events pcb_info reports on; only perf_event_open() decides */
const char *const pcb_probe_events[] = {
	"cycles", "instructions", "cache-misses", "branch-misses",
	"task-clock", "context-switches", "cpu-migrations", "page-faults", NULL,
};

static json_t *perf_json(void)
{
	json_t *o = json_object(), *events = json_object();
	int hw = 0;

	for (int i = 0; pcb_probe_events[i]; i++) {
		int rc = pcb_counters_probe(pcb_probe_events[i]);

		json_object_set_new(events, pcb_probe_events[i], json_string(rc ? strerror(-rc) : "ok"));
		if (!rc && i < 4)
			hw = 1;
	}
	json_object_set_new(o, "hardware_events", json_boolean(hw));
	json_object_set_new(o, "paranoid", json_integer(pcb_perf_paranoid()));
	json_object_set_new(o, "events", events);
	return o;
}

json_t *pcb_info_json(const struct pcb_topo *topo, const struct pcb_clock *clk)
{
	json_t *o = json_object(), *nodes = json_array(), *tsc = json_object();
	json_t *ovh = json_object(), *res = json_object();
	struct utsname u;

	uname(&u);
	json_object_set_new(o, "host", json_string(u.nodename));
	json_object_set_new(o, "topology", json_string(topo->source));
	json_object_set_new(o, "cpu_model", json_string(topo->cpu_model));
	json_object_set_new(o, "cpus", json_integer(topo->nr_cpus));
	json_object_set_new(o, "cores", json_integer(topo->nr_cores));
	json_object_set_new(o, "numa_nodes", json_integer(topo->nr_nodes));
	for (int i = 0; i < topo->nr_nodes; i++) {
		json_t *n = json_object();

		json_object_set_new(n, "node", json_integer(topo->node[i].os));
		json_object_set_new(n, "cpus", cpuset_json(topo->node[i].cpus));
		json_array_append_new(nodes, n);
	}
	json_object_set_new(o, "nodes", nodes);
	{
		json_t *caches = json_array();

		for (int l = 1; l <= 3; l++) {
			json_t *c;

			if (!topo->cache[l].size)
				continue;
			c = json_object();
			json_object_set_new(c, "level", json_integer(l));
			json_object_set_new(c, "size", json_integer((json_int_t)topo->cache[l].size));
			json_object_set_new(c, "line", json_integer(topo->cache[l].line));
			json_object_set_new(c, "count", json_integer(topo->cache[l].count));
			json_object_set_new(c, "cpus_sharing", json_integer(topo->cache[l].cpus));
			json_array_append_new(caches, c);
		}
		json_object_set_new(o, "caches", caches);
	}
	json_object_set_new(o, "isolated", cpuset_json(topo->isolated));
	json_object_set_new(o, "isolated_source", json_string(topo->isolated_source));
	json_object_set_new(o, "nohz_full", cpuset_json(topo->nohz_full));
	json_object_set_new(o, "kernel", json_string(u.release));

	json_object_set_new(tsc, "hz", json_real(clk->tsc_hz));
	json_object_set_new(tsc, "kernel_hz", clk->kernel_tsc_hz > 0 ? json_real(clk->kernel_tsc_hz)
								     : json_null());
	json_object_set_new(tsc, "kernel_hz_source", json_string(clk->kernel_tsc_source));
	json_object_set_new(tsc, "step", json_integer((json_int_t)clk->step));
	json_object_set_new(tsc, "read_min", json_integer((json_int_t)clk->read_min));
	for (int m = PCB_TIMING_CALL; m <= PCB_TIMING_BATCH; m++) {
		json_t *r = json_object();

		json_object_set_new(ovh, pcb_timing_name(m), json_real(clk->overhead[m]));
		json_object_set_new(r, "mean", json_real(clk->residual[m]));
		json_object_set_new(r, "stddev", json_real(clk->residual_stddev[m]));
		json_object_set_new(res, pcb_timing_name(m), r);
	}
	json_object_set_new(tsc, "timer_overhead", ovh);
	json_object_set_new(tsc, "residual_after_subtraction", res);
	json_object_set_new(o, "tsc", tsc);
	json_object_set_new(o, "perf", perf_json());
	json_object_set_new(o, "version", json_string(PCB_VERSION));
	return o;
}

json_t *pcb_result_context(const struct pcb_topo *topo, const struct pcb_clock *clk,
			   const char *command, const char *started)
{
	static const char *const from_info[] = { "cpu_model", "cpus", "cores", "numa_nodes",
						 "nodes", "isolated", "nohz_full" };
	json_t *info = pcb_info_json(topo, clk), *o = json_object(), *ovh = json_object();
	struct utsname u;

	uname(&u);
	json_object_set_new(o, "host", json_string(u.nodename));
	for (size_t k = 0; k < sizeof(from_info) / sizeof(from_info[0]); k++)
		json_object_set(o, from_info[k], json_object_get(info, from_info[k]));
	json_object_set_new(o, "tsc_hz", json_real(clk->tsc_hz));
	json_object_set_new(o, "kernel_tsc_hz", clk->kernel_tsc_hz > 0 ?
				json_real(clk->kernel_tsc_hz) : json_null());
	json_object_set_new(o, "tsc_step", json_integer((json_int_t)clk->step));
	for (int m = PCB_TIMING_CALL; m <= PCB_TIMING_BATCH; m++)
		json_object_set_new(ovh, pcb_timing_name(m), json_real(clk->overhead[m]));
	json_object_set_new(o, "timer_overhead", ovh);
	json_object_set_new(o, "kernel", json_string(u.release));
	json_object_set_new(o, "version", json_string(PCB_VERSION));
	json_object_set_new(o, "command", json_string(command));
	json_object_set_new(o, "started", json_string(started));
	json_object_set_new(o, "complete", json_false());
	json_decref(info);
	return o;
}

static json_t *scenario_json(const struct pcb_scenario *sc)
{
	json_t *o = json_object(), *settings = json_object();
	char key[128], buf[1024];

	json_object_set_new(o, "name", json_string(sc->name));
	json_object_set_new(o, "file", json_string(sc->file));
	json_object_set_new(o, "text", json_string(sc->text ? sc->text : ""));
	for (int k = 0; k < pcb_nr_keys(); k++) {
		const struct pcb_key *kd = pcb_key_get(k);

		if (k >= K_NR && !pcb_model_key(sc->model, k))
			continue;
		snprintf(key, sizeof(key), "%s.%s", kd->section, kd->name);
		json_object_set_new(settings, key, json_string(sc->value[k]));
	}
	json_object_set_new(o, "settings", settings);
	json_object_set_new(o, "model", json_string(sc->model->name));
	json_object_set_new(o, "drain_function", json_string(sc->model->drain_name));
	{
		char desc[256];

		sc->model->describe(sc->config, desc, sizeof(desc));
		json_object_set_new(o, "configuration", json_string(desc));
	}
	json_object_set_new(o, "baseline", json_string(sc->baseline->name));
	json_object_set_new(o, "order", json_string(pcb_order_name[sc->order]));
	json_object_set_new(o, "timing", json_string(pcb_timing_name((enum pcb_timing)sc->timing)));
	pcb_cpuset_format(sc->workers, buf, sizeof(buf));
	json_object_set_new(o, "workers", json_string(buf));
	return o;
}

static json_t *histogram_json(const struct pcb_hist *h)
{
	json_t *a = json_array();

	for (unsigned int i = 0; i < PCB_HIST_BUCKETS; i++)
		if (h->count[i]) {
			json_t *pair = json_array();

			json_array_append_new(pair, json_integer((json_int_t)pcb_hist_lower(i)));
			json_array_append_new(pair, json_integer((json_int_t)h->count[i]));
			json_array_append_new(a, pair);
		}
	return a;
}

static json_t *counter_json(const char *design, int cpu, const struct pcb_event_spec *ev,
			   const struct pcb_counter_value *v, uint64_t ops)
{
	json_t *o = json_object();
	const char *st = pcb_counter_status_text(v);
	char thread[32];

	if (cpu >= 0)
		snprintf(thread, sizeof(thread), "cpu %d", cpu);
	else if (cpu == -2)
		snprintf(thread, sizeof(thread), "coordinator");
	else
		snprintf(thread, sizeof(thread), "all");
	json_object_set_new(o, "design", json_string(design));
	json_object_set_new(o, "thread", json_string(thread));
	json_object_set_new(o, "event", json_string(ev->name));
	json_object_set_new(o, "pfm_name", json_string(ev->fstr));
	json_object_set_new(o, "status", json_string(st ? st : "counted"));
	if (v->status)
		json_object_set_new(o, "error", json_string(strerror(-v->status)));
	json_object_set_new(o, "value", json_integer((json_int_t)v->value));
	json_object_set_new(o, "enabled_ns", json_integer((json_int_t)v->enabled_ns));
	json_object_set_new(o, "running_ns", json_integer((json_int_t)v->running_ns));
	if (!st && ops)
		json_object_set_new(o, "per_op", json_real((double)v->value / (double)ops));
	return o;
}

static void counters_json(json_t *counters, json_t *per_call, json_t *notes,
			  const struct pcb_scenario *sc, const struct pcb_design_result *r)
{
	const struct pcb_counters_cfg *cfg = &sc->counters;
	char note[512];

	const struct pcb_model *m = sc->model;

	for (int e = 0; e < r->counters.nr_events; e++) {
		struct pcb_counter_value all = { 0 };

		for (int i = 0; i < r->nr_workers; i++) {
			const struct pcb_counter_value *v = &r->counters.ctr[i * PCB_MAX_EVENTS + e];

			pcb_counter_add(&all, v);
			json_array_append_new(counters, counter_json(r->label, (int)r->worker[i].cpu,
								     &cfg->ev[e], v, 0));
		}
		json_array_append_new(counters, counter_json(r->label, -1, &cfg->ev[e], &all,
							     r->ops));
		if (r->drain.active)
			json_array_append_new(counters, counter_json(r->label, -2, &cfg->ev[e],
								     &r->counters.coord[e], 0));
		if (all.status == -EACCES || all.status == -EPERM) {
			snprintf(note, sizeof(note), "%s: %s: %s (perf_event_paranoid is %d)",
				 r->label, cfg->ev[e].name, strerror(-all.status),
				 pcb_perf_paranoid());
			json_array_append_new(notes, json_string(note));
		}
		if (!r->counters.per_call)
			continue;
		for (int f = 0; f < m->nr_fn; f++) {
			uint64_t calls = r->fn[f].total.calls;
			json_t *o;

			if (!calls || all.status)
				continue;
			o = json_object();
			json_object_set_new(o, "design", json_string(r->label));
			json_object_set_new(o, "function", json_string(m->fn_name[f]));
			json_object_set_new(o, "event", json_string(cfg->ev[e].name));
			json_object_set_new(o, "per_call", json_real((double)r->counters.ctr_fn[f][e] / (double)calls));
			json_object_set_new(o, "read", json_string(r->counters.rdpmc ? "rdpmc" : "read()"));
			json_array_append_new(per_call, o);
		}
	}
	if (r->counters.kernel_dropped) {
		snprintf(note, sizeof(note), "%s: kernel-mode counting is not permitted here "
			 "(perf_event_paranoid is %d): events count user mode only, and a software "
			 "event (context-switches, page-faults) misses what the kernel did",
			 r->label, pcb_perf_paranoid());
		json_array_append_new(notes, json_string(note));
	}
}

static uint64_t fn_calls(const struct pcb_design_result *r, const char *fn)
{
	const struct pcb_model *m = r->sc->model;
	uint64_t calls = 0;

	for (int f = 0; f < m->nr_fn; f++)
		if (!strcmp(m->fn_name[f], fn))
			calls += r->fn[f].total.calls;
	return calls;
}

/* drains, contention and interruptions of one design */
static void drain_json(json_t *drains, json_t *contention, json_t *interruptions, json_t *notes,
		       const struct pcb_design_result *r, double tsc_hz)
{
	char note[512];

	const struct pcb_drain_result *dr = &r->drain;

	if (dr->active) {
		json_t *o = json_object();

		json_object_set_new(o, "design", json_string(r->label));
		json_object_set_new(o, "design_name", json_string(r->design->name));
		json_object_set_new(o, "stocks", json_integer(dr->nr_stocks));
		json_object_set_new(o, "virtual_cpus", json_integer(dr->nr_virtual));
		json_object_set_new(o, "online", json_integer(dr->nr_online));
		/* per drain: the wake system calls inside it, and a walk over the idle CPUs' empty caches */
		json_object_set_new(o, "wake_cycles", json_real(dr->count ? (double)dr->wake_sum / (double)dr->count : 0));
		if (dr->nr_virtual)
			json_object_set_new(o, "walk_cycles_per_cpu",
					    json_real(dr->count ? (double)dr->walk_sum / (double)dr->count /
						      (double)dr->nr_virtual : 0));
		json_object_set_new(o, "coordinator_cpu", json_integer(dr->cpu));
		json_object_set_new(o, "count", json_integer((json_int_t)dr->count));
		json_object_set_new(o, "avg_cycles", json_real(pcb_mean(dr->run_mean, r->runs)));
		json_object_set_new(o, "stddev", json_real(pcb_stddev(dr->run_mean, r->runs)));
		json_object_set_new(o, "p99_cycles", json_integer((json_int_t)pcb_hist_quantile(&dr->total.hist, 0.99)));
		if (r->design->drain.queues_work) {
			json_object_set_new(o, "completed", json_integer((json_int_t)dr->completed));
			json_object_set_new(o, "incomplete", json_integer((json_int_t)dr->incomplete));
			json_object_set_new(o, "completion_p50", json_integer((json_int_t)pcb_hist_quantile(&dr->completion, 0.5)));
			json_object_set_new(o, "completion_p99", json_integer((json_int_t)pcb_hist_quantile(&dr->completion, 0.99)));
		}
		if (dr->stranded_n) {
			json_object_set_new(o, "stranded_pages_avg",
					    json_real((double)dr->stranded_sum / (double)dr->stranded_n));
			json_object_set_new(o, "stranded_pages_max", json_integer((json_int_t)dr->stranded_max));
		}
		json_array_append_new(drains, o);
		if (dr->nr_virtual && r->design->drain.queues_work) {
			snprintf(note, sizeof(note), "%s: %d virtual CPUs are idle: queue_work_on() wakes "
				 "them by a store, and their work runs on another CPU after the timed call "
				 "(or on the drainer inside it, where the drain flushes it); completion "
				 "counts the workers' CPUs only", r->label, dr->nr_virtual);
			json_array_append_new(notes, json_string(note));
		}
		if (dr->nr_stocks > r->nr_workers) {
			if (dr->dirtier_cpu < 0)
				snprintf(note, sizeof(note), "%s: the virtual CPUs' caches were refilled "
					 "by the drainer itself (no other CPU): hot in its cache", r->label);
			else
				snprintf(note, sizeof(note), "%s: the virtual CPUs' caches were refilled on "
					 "CPU %d before each drain%s", r->label, dr->dirtier_cpu,
					 dr->dirtier_shares ? ", a worker's: its figures carry the refills "
					 "as interruptions" : "");
			json_array_append_new(notes, json_string(note));
		}
		if (dr->shares_cpu) {
			snprintf(note, sizeof(note), "%s: the coordinator shares CPU %d with a worker",
				 r->label, dr->cpu);
			json_array_append_new(notes, json_string(note));
		}
	}
	for (int i = 0; i < r->nr_cc; i++) {
		const struct pcb_contention_row *c = &r->cc[i];
		json_t *o = json_object();

		json_object_set_new(o, "design", json_string(r->label));
		json_object_set_new(o, "function", json_string(c->fn));
		json_object_set_new(o, "side", json_string(c->coordinator ? "coordinator" : "worker"));
		json_object_set_new(o, "calls", json_integer((json_int_t)(c->coordinator ? dr->remote
										    : fn_calls(r, c->fn))));
		json_object_set_new(o, "contended", json_integer((json_int_t)c->contended));
		json_object_set_new(o, "wait_avg_cycles", json_real(c->contended ? (double)c->wait_sum / (double)c->contended : 0));
		json_object_set_new(o, "wait_max_cycles", json_integer((json_int_t)c->wait_max));
		json_array_append_new(contention, o);
	}
	for (int i = 0; i < r->nr_workers; i++) {
		const struct pcb_gaps *g = &r->gaps[i];
		json_t *o = json_object();
		double ns = tsc_hz > 0 ? 1e9 / tsc_hz : 0;

		json_object_set_new(o, "design", json_string(r->label));
		json_object_set_new(o, "cpu", json_integer(r->worker[i].cpu));
		json_object_set_new(o, "threshold_ns", json_real((double)g->threshold * ns));
		json_object_set_new(o, "count", json_integer((json_int_t)g->count));
		json_object_set_new(o, "attributed", json_integer((json_int_t)g->attributed));
		json_object_set_new(o, "stolen_ns", json_real((double)g->stolen * ns));
		json_object_set_new(o, "max_ns", json_real((double)g->max * ns));
		json_object_set_new(o, "p99_ns", json_real((double)pcb_hist_quantile(&g->hist, 0.99) * ns));
		json_object_set_new(o, "p999_ns", json_real((double)pcb_hist_quantile(&g->hist, 0.999) * ns));
		json_object_set_new(o, "histogram", histogram_json(&g->hist));
		json_array_append_new(interruptions, o);
	}
}

/*
 * What each worker subtracted in each run (the empty region timed during the
 * run, else the one before it), the same before, during and after, and the
 * spread; a note for every run whose empty region moved by more than a TSC
 * step from its start to its end.
 */
static json_t *overhead_json(const struct pcb_design_result *r, json_t *notes)
{
	json_t *a = json_array();
	double step = r->tsc_step ? (double)r->tsc_step : 1;
	int moved = 0;
	char note[512];

	for (int run = 0; run < r->runs; run++)
		for (int i = 0; i < r->nr_workers; i++) {
			const struct pcb_run_overhead *o = &r->ovh[run * r->nr_workers + i];

			json_array_append_new(a, json_pack("{s:i,s:i,s:f,s:f,s:f,s:I,s:f,s:f,s:f}",
				"run", run + 1, "cpu", (int)r->worker[i].cpu, "subtracted",
				o->subtracted, "start", o->start, "in_run", o->in_run,
				"in_run_regions", (json_int_t)o->in_run_regions, "end", o->end,
				"p5", o->lo, "p95", o->hi));
			moved += fabs(o->end - o->start) > step;
		}
	if (moved) {
		snprintf(note, sizeof(note), "%s: in %d run(s) of a worker the empty timed region "
			 "moved by more than a TSC step (%.0f ticks) between the start and the end "
			 "of the run: the machine changed under the measurement", r->label, moved,
			 step);
		json_array_append_new(notes, json_string(note));
	}
	return a;
}

/*
 * The share of its run a worker spent inside the timed functions, that is
 * holding its cache's lock: the net ticks of every timed region over the
 * workers' run time.
 */
static double held_fraction(const struct pcb_design_result *r, double tsc_hz)
{
	double held = 0, span = r->run_seconds * tsc_hz * r->runs * r->nr_workers;

	for (int f = 0; f < PCB_MAX_FN; f++) {
		const struct pcb_stat *s = &r->fn[f].total;
		double net = (double)s->sum_raw - r->overhead * (double)s->samples;

		held += net > 0 ? net : 0;
	}
	return span > 0 ? fmin(1.0, held / span) : 0;
}

/* one design's entry: what it is, what the model adds, and its notes */
static json_t *design_json(const struct pcb_design_result *r, json_t *context, json_t *notes)
{
	const struct pcb_model *m = r->sc->model;
	json_t *dj = json_object(), *workers = json_array();
	struct pcb_model_figures fig = {
		.config = r->sc->config, .variant = r->variant, .ev = r->ev,
		.overhead = r->overhead, .note = r->model_note,
		.tsc_hz = json_number_value(json_object_get(context, "tsc_hz")),
	};
	struct pcb_stat totals[PCB_MAX_FN];
	char note[512];

	for (int f = 0; f < PCB_MAX_FN; f++)
		totals[f] = r->fn[f].total;
	fig.fn_total = totals;
	json_object_set_new(dj, "design", json_string(r->label));
	json_object_set_new(dj, "design_name", json_string(r->design->name));
	json_object_set_new(dj, "config", json_string(r->sc->label));
	json_object_set_new(dj, "isolated", cpuset_json(r->sc->isolated));
	json_object_set_new(dj, "follows", json_string(r->design->follows));
	json_object_set_new(dj, "drain_promise", json_string(r->design->promise));
	if (r->model_note[0] && m->note_key)
		json_object_set_new(dj, m->note_key, json_string(r->model_note));
	m->result_json(dj, &fig);
	json_object_set_new(dj, "cache_name", json_string(m->cache_name));
	json_object_set_new(dj, "invariant_name", json_string(m->invariant_name));
	json_object_set_new(dj, "drain", json_string(r->design->drain.name));
	if (r->delivery >= 0)
		json_object_set_new(dj, "work_delivery", json_string(pcb_delivery_name[r->delivery]));
	if (r->run_note[0])
		json_array_append_new(notes, json_string(r->run_note));
	json_object_set_new(dj, "work", json_pack("{s:I,s:I,s:I}",
		"queued", (json_int_t)r->drain.work_queued, "ran", (json_int_t)r->drain.work_ran,
		"deferred", (json_int_t)r->drain.work_deferred));
	int unplaced = 0;

	for (int i = 0; i < r->nr_workers; i++) {
		const struct pcb_worker_info *wi = &r->worker[i];

		unplaced += wi->stock_node < 0;
		json_array_append_new(workers, json_pack("{s:i,s:i,s:i,s:b}", "cpu", (int)wi->cpu,
							 "node", wi->node, "stock_node", wi->stock_node,
							 "isolated", wi->isolated));
		if (wi->node >= 0 && wi->stock_node >= 0 && wi->node != wi->stock_node) {
			snprintf(note, sizeof(note), "%s: the stock of CPU %u is on node %d, "
				 "not its own node %d", r->label, wi->cpu, wi->stock_node, wi->node);
			json_array_append_new(notes, json_string(note));
		}
	}
	if (unplaced) {
		snprintf(note, sizeof(note), "%s: the kernel did not say which node %d worker(s)' "
			 "per-CPU data landed on (move_pages() refused or unavailable): their "
			 "placement is not checked", r->label, unplaced);
		json_array_append_new(notes, json_string(note));
	}
	json_object_set_new(dj, "workers", workers);
	json_object_set_new(dj, "runs", json_integer(r->runs));
	json_object_set_new(dj, "timer_overhead", json_real(r->overhead));
	json_object_set_new(dj, "overhead_ticks", overhead_json(r, notes));
	json_object_set_new(dj, "ops", json_integer((json_int_t)r->ops));
	json_object_set_new(dj, "failed_charges", json_integer((json_int_t)r->failed));
	json_object_set_new(dj, "batch_misses", json_integer((json_int_t)r->misses));
	json_object_set_new(dj, "run_seconds", json_real(r->run_seconds));
	json_object_set_new(dj, "held_fraction", json_real(held_fraction(r, fig.tsc_hz)));
	json_object_set_new(dj, "nonoverlapping_runs", json_integer(r->nonoverlap));
	json_object_set_new(dj, "charge_invariant", json_string(r->check));
	if (r->drain.count)
		json_object_set_new(dj, "drains", json_integer((json_int_t)r->drain.count));
	if (r->nonoverlap) {
		snprintf(note, sizeof(note), "%s: in %d of %d runs the workers did not all "
			 "run at the same time", r->label, r->nonoverlap, r->runs);
		json_array_append_new(notes, json_string(note));
	}
	if (r->check_failed) {
		snprintf(note, sizeof(note), "%s: CHARGE INVARIANT BROKEN %s", r->label, r->check);
		json_array_append_new(notes, json_string(note));
	}
	return dj;
}

/* one row a timed function, with its run means and histogram */
static void functions_json(json_t *functions, const struct pcb_design_result *r)
{
	const struct pcb_model *m = r->sc->model;

	for (int f = 0; f < m->nr_fn; f++) {
		const struct pcb_fn_result *fr = &r->fn[f];
		const struct pcb_hist *h = &fr->total.hist;
		json_t *fj, *runs;
		uint64_t calls = fr->total.calls;

		if (!calls)
			continue;
		fj = json_object();
		runs = json_array();
		for (int i = 0; i < r->runs; i++)
			json_array_append_new(runs, json_pack("{s:f,s:f,s:I,s:I}", "avg_cycles",
				fr->run_mean[i], "raw_avg_cycles", fr->run_raw_mean[i],
				"calls", (json_int_t)fr->run_calls[i],
				"interrupted", (json_int_t)fr->run_interrupted[i]));
		json_object_set_new(fj, "design", json_string(r->label));
		json_object_set_new(fj, "function", json_string(m->fn_name[f]));
		json_object_set_new(fj, "timing",
				    json_string(pcb_timing_name((enum pcb_timing)r->sc->timing)));
		json_object_set_new(fj, "avg_cycles", json_real(pcb_mean(fr->run_mean, r->runs)));
		json_object_set_new(fj, "stddev", json_real(pcb_stddev(fr->run_mean, r->runs)));
		json_object_set_new(fj, "raw_avg_cycles",
				    json_real(pcb_mean(fr->run_raw_mean, r->runs)));
		json_object_set_new(fj, "raw_stddev", json_real(pcb_stddev(fr->run_raw_mean, r->runs)));
		json_object_set_new(fj, "interrupted", json_integer((json_int_t)fr->total.interrupted));
		json_object_set_new(fj, "interrupted_calls",
				    json_integer((json_int_t)fr->total.interrupted_calls));
		json_object_set_new(fj, "calls", json_integer((json_int_t)calls));
		json_object_set_new(fj, "regions", json_integer((json_int_t)fr->total.samples));
		json_object_set_new(fj, "p50", json_integer((json_int_t)pcb_hist_quantile(h, 0.50)));
		json_object_set_new(fj, "p99", json_integer((json_int_t)pcb_hist_quantile(h, 0.99)));
		json_object_set_new(fj, "p999", json_integer((json_int_t)pcb_hist_quantile(h, 0.999)));
		json_object_set_new(fj, "max", json_integer((json_int_t)fr->total.max));
		json_object_set_new(fj, "runs", runs);
		json_object_set_new(fj, "histogram", histogram_json(h));
		json_array_append_new(functions, fj);
	}
}

json_t *pcb_result_build(json_t *context, const struct pcb_scenario *sc,
			 const struct pcb_design_result *res, int nr_designs)
{
	json_t *o = json_object(), *designs = json_array(), *functions = json_array();
	json_t *notes = json_array(), *counters = json_array(), *per_call = json_array();
	json_t *drains = json_array(), *contention = json_array(), *interruptions = json_array();
	double tsc_hz = json_number_value(json_object_get(context, "tsc_hz"));

	json_object_set_new(o, "format", json_string(PCB_RESULT_FORMAT));
	/* cpu_is_isolated() of the first configuration; a sweep's designs say theirs */
	json_object_set_new(context, "isolated", cpuset_json(sc->isolated));
	json_object_set(o, "context", context);
	json_object_set_new(o, "scenario", scenario_json(sc));

	for (int d = 0; d < nr_designs; d++) {
		const struct pcb_design_result *r = &res[d];

		json_array_append_new(designs, design_json(r, context, notes));
		counters_json(counters, per_call, notes, r->sc, r);
		drain_json(drains, contention, interruptions, notes, r, tsc_hz);
		functions_json(functions, r);
	}
	json_object_set_new(o, "designs", designs);
	json_object_set_new(o, "functions", functions);
	json_object_set_new(o, "counters", counters);
	json_object_set_new(o, "drains", drains);
	json_object_set_new(o, "contention", contention);
	json_object_set_new(o, "interruptions", interruptions);
	json_object_set_new(o, "counters_per_call", per_call);
	json_object_set_new(o, "notes", notes);
	return o;
}
