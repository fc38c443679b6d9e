/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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
#include "../schema/schema.h"
#include "result.h"

void pcb_utc_timestamp(char *buf, size_t len, int compact)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* info's CPU lists (result.json's through the schema's setters) */
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

json_t *pcb_state_json(const struct pcb_state *st)
{
	json_t *a = json_array();
	char buf[1024];

	for (int i = 0; i < st->nr; i++) {
		const struct pcb_state_item *it = &st->item[i];
		json_t *o = json_object();

		rj_set_mst_setting(o, it->setting);
		if (it->cpus) {
			pcb_cpuset_format(it->cpus, buf, sizeof(buf));
			rj_set_mst_cpus(o, buf);
		}
		rj_set_mst_value(o, it->value);
		rj_set_mst_verdict(o, pcb_state_verdict_name(it->verdict));
		if (*it->note)
			rj_set_mst_note(o, it->note);
		rj_set_mst_effect(o, pcb_state_effect(it->setting));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *pcb_result_context(const struct pcb_topo *topo, const struct pcb_clock *clk,
			   const char *command, const char *started)
{
	/* the machine as info describes it, under the same names */
	static const enum rj_field from_info[] = {
		RJ_F_ctx_cpu_model, RJ_F_ctx_cpus, RJ_F_ctx_cores, RJ_F_ctx_numa_nodes,
		RJ_F_ctx_nodes, RJ_F_ctx_isolated, RJ_F_ctx_nohz_full,
	};
	json_t *info = pcb_info_json(topo, clk), *o = json_object(), *ovh = json_object();
	struct utsname u;

	uname(&u);
	rj_set_ctx_host(o, u.nodename);
	for (size_t k = 0; k < sizeof(from_info) / sizeof(from_info[0]); k++)
		rj_put(o, from_info[k], json_incref(json_object_get(info, rj_name(from_info[k]))));
	rj_set_ctx_tsc_hz(o, clk->tsc_hz);
	rj_put(o, RJ_F_ctx_kernel_tsc_hz, clk->kernel_tsc_hz > 0 ? json_real(clk->kernel_tsc_hz) :
								  json_null());
	rj_set_ctx_tsc_step(o, (json_int_t)clk->step);
	rj_set_tov_call(ovh, clk->overhead[PCB_TIMING_CALL]);
	rj_set_tov_batch(ovh, clk->overhead[PCB_TIMING_BATCH]);
	rj_set_ctx_timer_overhead(o, ovh);
	rj_set_ctx_kernel(o, u.release);
	rj_set_ctx_version(o, PCB_VERSION);
	rj_set_ctx_command(o, command);
	rj_set_ctx_started(o, started);
	rj_set_ctx_complete(o, 0);
	json_decref(info);
	return o;
}

static json_t *scenario_json(const struct pcb_scenario *sc)
{
	json_t *o = json_object(), *settings = json_object();
	char key[128], buf[1024], desc[256];

	rj_set_sc_name(o, sc->name);
	rj_set_sc_file(o, sc->file);
	rj_set_sc_text(o, sc->text ? sc->text : "");
	for (int k = 0; k < pcb_nr_keys(); k++) {
		const struct pcb_key *kd = pcb_key_get(k);

		if (k >= K_NR && !pcb_model_key(sc->model, k))
			continue;
		snprintf(key, sizeof(key), "%s.%s", kd->section, kd->name);
		json_object_set_new(settings, key, json_string(sc->value[k]));
	}
	rj_set_sc_settings(o, settings);
	rj_set_sc_model(o, sc->model->name);
	rj_set_sc_drain_function(o, sc->model->drain_name);
	sc->model->describe(sc->config, desc, sizeof(desc));
	rj_set_sc_configuration(o, desc);
	rj_set_sc_baseline(o, sc->baseline->name);
	rj_set_sc_order(o, pcb_order_name[sc->order]);
	rj_set_sc_timing(o, pcb_timing_name((enum pcb_timing)sc->timing));
	rj_set_sc_timer(o, pcb_timer_name((enum pcb_timer)sc->timer));
	rj_set_sc_timer_insns(o, pcb_timer_insns((enum pcb_timer)sc->timer));
	pcb_cpuset_format(sc->workers, buf, sizeof(buf));
	rj_set_sc_workers(o, buf);
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
	rj_set_ctr_design(o, design);
	rj_set_ctr_thread(o, thread);
	rj_set_ctr_event(o, ev->name);
	rj_set_ctr_pfm_name(o, ev->fstr);
	rj_set_ctr_status(o, st ? st : "counted");
	if (v->status)
		rj_set_ctr_error(o, strerror(-v->status));
	rj_set_ctr_value(o, (json_int_t)v->value);
	rj_set_ctr_enabled_ns(o, (json_int_t)v->enabled_ns);
	rj_set_ctr_running_ns(o, (json_int_t)v->running_ns);
	if (!st && ops)
		rj_set_ctr_per_op(o, (double)v->value / (double)ops);
	return o;
}

/* each function's events per call, where the counters were read around every call */
static void per_call_json(json_t *per_call, const struct pcb_design_result *r, int e,
			  const char *event)
{
	const struct pcb_model *m = r->sc->model;

	for (int f = 0; f < m->nr_fn; f++) {
		uint64_t calls = r->fn[f].total.calls;
		json_t *o;

		if (!calls)
			continue;
		o = json_object();
		rj_set_pcall_design(o, r->label);
		rj_set_pcall_function(o, m->fn_name[f]);
		rj_set_pcall_event(o, event);
		rj_set_pcall_per_call(o, (double)r->counters.ctr_fn[f][e] / (double)calls);
		rj_set_pcall_read(o, r->counters.rdpmc ? "rdpmc" : "read()");
		json_array_append_new(per_call, o);
	}
}

static void counters_json(json_t *counters, json_t *per_call, json_t *notes,
			  const struct pcb_scenario *sc, const struct pcb_design_result *r)
{
	const struct pcb_counters_cfg *cfg = &sc->counters;
	char note[512];

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
		if (r->counters.per_call && !all.status)
			per_call_json(per_call, r, e, cfg->ev[e].name);
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

/*
 * A row's noise gate, as the Phoronix Test Suite judges a result by the
 * spread of its runs: the coefficient of variation of its run means, in
 * percent, and whether it passes run.max_cv
 */
static void noise_json(json_t *o, enum rj_field cv_field, enum rj_field unstable_field,
		       const double *run_mean, const struct pcb_design_result *r)
{
	double cv = 100 * pcb_cv(run_mean, r->runs);

	rj_put(o, cv_field, json_real(cv));
	rj_put(o, unstable_field, json_boolean(r->sc->max_cv > 0 && cv > r->sc->max_cv));
}

/* a line's move between the drainer's CPU and a worker's: the runs' mean, where measured */
static void line_json(json_t *o, const struct pcb_drain_result *dr, int runs)
{
	double sum = 0;
	int n = 0;

	for (int r = 0; dr->run_line && r < runs; r++)
		if (dr->run_line[r] > 0) {
			sum += dr->run_line[r];
			n++;
		}
	if (n)
		rj_set_drain_line_cycles(o, sum / n);
}

/* the mean over the runs of each run's drain less its wake, as runs[] gives them */
static double without_wake(const struct pcb_drain_result *dr, int runs)
{
	double sum = 0;

	for (int r = 0; r < runs; r++)
		sum += dr->run_mean[r] - dr->run_wake[r];
	return runs ? sum / runs : 0;
}

/* each run's figures, for a claim's test over the run means */
static void drain_runs_json(json_t *o, const struct pcb_drain_result *dr, int runs)
{
	json_t *a;

	if (!dr->run_line || !dr->run_wake)
		return;
	a = json_array();
	for (int r = 0; r < runs; r++) {
		json_t *x = json_object();

		rj_set_drainrun_avg_cycles(x, dr->run_mean[r]);
		rj_set_drainrun_avg_cycles_without_wake(x, dr->run_mean[r] - dr->run_wake[r]);
		if (dr->run_line[r] > 0)
			rj_set_drainrun_line_cycles(x, dr->run_line[r]);
		json_array_append_new(a, x);
	}
	rj_put(o, RJ_F_drain_runs, a);
}

/* the coordinator's drains of one design */
static json_t *drain_row_json(const struct pcb_design_result *r)
{
	const struct pcb_drain_result *dr = &r->drain;
	json_t *o = json_object();

	rj_set_drain_design(o, r->label);
	rj_set_drain_design_name(o, r->design->name);
	rj_set_drain_caches(o, dr->nr_caches);
	rj_set_drain_virtual_cpus(o, dr->nr_virtual);
	rj_set_drain_online(o, dr->nr_online);
	/* per drain: the wake system calls inside it, and a walk over the idle CPUs' empty caches */
	rj_set_drain_wake_cycles(o, dr->count ? (double)dr->wake_sum / (double)dr->count : 0);
	if (dr->nr_virtual)
		rj_set_drain_walk_cycles_per_cpu(o, dr->count ? (double)dr->walk_sum /
						 (double)dr->count / (double)dr->nr_virtual : 0);
	line_json(o, dr, r->runs);
	rj_set_drain_coordinator_cpu(o, dr->cpu);
	/* the helpers standing in for the idle CPUs, and where those CPUs' queued work ran */
	if (dr->nr_virtual)
		rj_set_drain_helpers(o, dr->nr_helpers);
	if (dr->nr_virtual && r->design->drain.queues_work && dr->nr_caches > r->nr_workers)
		rj_set_drain_idle_work(o, !r->design->drain.flushes ? "after" :
				       dr->helpers_flush ? "helpers" : "drainer");
	rj_set_drain_count(o, (json_int_t)dr->count);
	rj_set_drain_avg_cycles(o, pcb_mean(dr->run_mean, r->runs));
	/* the drain less the system calls that woke real workers: what a claim may read apart */
	if (dr->count && dr->run_wake)
		rj_set_drain_avg_cycles_without_wake(o, without_wake(dr, r->runs));
	drain_runs_json(o, dr, r->runs);
	rj_set_drain_stddev(o, pcb_stddev(dr->run_mean, r->runs));
	noise_json(o, RJ_F_drain_cv_pct, RJ_F_drain_unstable, dr->run_mean, r);
	rj_set_drain_p99_cycles(o, (json_int_t)pcb_hist_quantile(&dr->total.hist, 0.99));
	if (r->design->drain.queues_work) {
		rj_set_drain_completed(o, (json_int_t)dr->completed);
		rj_set_drain_incomplete(o, (json_int_t)dr->incomplete);
		rj_set_drain_completion_p50(o, (json_int_t)pcb_hist_quantile(&dr->completion, 0.5));
		rj_set_drain_completion_p99(o, (json_int_t)pcb_hist_quantile(&dr->completion, 0.99));
	} else {
		rj_set_drain_waited_preempted(o, (json_int_t)dr->waited_preempted);
	}
	if (dr->stranded_n) {
		rj_set_drain_stranded_pages_avg(o, (double)dr->stranded_sum / (double)dr->stranded_n);
		rj_set_drain_stranded_pages_max(o, (json_int_t)dr->stranded_max);
	}
	return o;
}

/* the helpers' CPUs, "2-5,8" */
static void helper_cpus(const struct pcb_drain_result *dr, char *buf, size_t len)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	for (int h = 0; h < dr->nr_helpers; h++)
		hwloc_bitmap_set(set, (unsigned int)dr->helper_cpu[h]);
	pcb_cpuset_format(set, buf, len);
	hwloc_bitmap_free(set);
}

/* where the idle virtual CPUs' queued work ran: inside the timed drain or after it */
static void idle_work_note(const struct pcb_design_result *r, const char *cpus, char *note,
			   size_t len)
{
	const struct pcb_drain_result *dr = &r->drain;
	int n = snprintf(note, len, "%s: %d virtual CPUs are idle: queue_work_on() wakes them by a "
			 "store, and ", r->label, dr->nr_virtual);

	if (n < 0 || (size_t)n >= len)
		return;
	if (dr->nr_caches <= r->nr_workers)
		snprintf(note + n, len - (size_t)n, "none holds anything to drain: no work is "
			 "queued to them");
	else if (r->design->drain.flushes && dr->helpers_flush)
		snprintf(note + n, len - (size_t)n, "inside the timed drain their work ran on %d "
			 "helper thread%s (CPU %s) in parallel, each helper's CPUs one after "
			 "another, while the drainer waited as flush_work() does",
			 dr->nr_helpers, dr->nr_helpers == 1 ? "" : "s", cpus);
	else if (r->design->drain.flushes)
		snprintf(note + n, len - (size_t)n, "inside the timed drain their work ran on the "
			 "drainer, one CPU after another, where the kernel's kworkers run it in "
			 "parallel: %s", dr->nr_helpers ? "the only CPU for a helper is a worker's, "
			 "which a helper must not preempt" : "no CPU is free for a helper");
	else
		snprintf(note + n, len - (size_t)n, "their work runs after the timed call, on %s",
			 dr->nr_helpers ? "the helpers that refill them" : "the drainer");
	n = (int)strlen(note);
	snprintf(note + n, len - (size_t)n, "; completion counts the workers' CPUs only");
}

/*
 * A line between the drainer's CPU and the worker's that cost twice as much
 * in one run as in another (between runs of one placement the probe moves
 * by up to 1.9x at 70 to 140 ticks), over every design and configuration of
 * the result drained from and to the same two CPUs: their distance changed
 * between runs (a guest's host moved them), and a drain that moves lines
 * moved with it
 */
#define LINE_MOVED 2.0

static void line_moved_note(json_t *notes, const struct pcb_design_result *res, int nr)
{
	const char *lo_at = NULL, *hi_at = NULL;
	double lo = 0, hi = 0;
	char note[512];
	int pair = -1;

	for (int d = 0; d < nr; d++) {
		const struct pcb_drain_result *dr = &res[d].drain;

		if (!dr->active || !dr->run_line || !res[d].worker)
			continue;
		/* the same two CPUs only: another pair may be another distance */
		if (pair < 0)
			pair = d;
		else if (dr->cpu != res[pair].drain.cpu ||
			 res[d].worker[0].cpu != res[pair].worker[0].cpu)
			continue;
		for (int i = 0; i < res[d].runs; i++) {
			double x = dr->run_line[i];

			if (x > 0 && (lo == 0 || x < lo)) {
				lo = x;
				lo_at = res[d].label;
			}
			if (x > hi) {
				hi = x;
				hi_at = res[d].label;
			}
		}
	}
	if (lo > 0 && hi > LINE_MOVED * lo) {
		snprintf(note, sizeof(note), "a line between the drainer's CPU and the worker's "
			 "cost %.0f ticks in a run of %s and %.0f in one of %s: the two CPUs' "
			 "distance changed under the runs (on a guest, the host moved them), and "
			 "the drains' run means with it", lo, lo_at, hi, hi_at);
		json_array_append_new(notes, json_string(note));
	}
}

/* what the drains' shape means for the figures: idle virtual CPUs, refills, a shared CPU */
static void drain_notes(json_t *notes, const struct pcb_design_result *r)
{
	const struct pcb_drain_result *dr = &r->drain;
	char note[512], cpus[128];

	helper_cpus(dr, cpus, sizeof(cpus));
	if (dr->nr_virtual && r->design->drain.queues_work) {
		idle_work_note(r, cpus, note, sizeof(note));
		json_array_append_new(notes, json_string(note));
	}
	if (dr->nr_virtual) {
		if (!dr->nr_helpers)
			snprintf(note, sizeof(note), "%s: the virtual CPUs' caches were refilled "
				 "(or, holding nothing, rewritten) by the drainer itself (no other "
				 "CPU): hot in its cache", r->label);
		else
			snprintf(note, sizeof(note), "%s: the virtual CPUs' caches were refilled "
				 "(or, holding nothing, rewritten) on CPU %s before each drain%s%s",
				 r->label, cpus,
				 dr->nr_helpers > 1 ? ", each helper its share" : "",
				 dr->helpers_share ? ", a worker's: its figures carry the refills "
				 "as interruptions" : "");
		json_array_append_new(notes, json_string(note));
	}
	if (dr->shares_cpu) {
		snprintf(note, sizeof(note), "%s: the coordinator shares CPU %d with a worker",
			 r->label, dr->cpu);
		json_array_append_new(notes, json_string(note));
	}
	if (r->sc->drain_count > 0 && dr->count < (uint64_t)r->sc->drain_count * (uint64_t)r->runs_done) {
		snprintf(note, sizeof(note), "%s: drain.count = %ld a run, but %" PRIu64 " of %" PRIu64
			 " drains fired: drains ran late and the runs ended first", r->label,
			 r->sc->drain_count, dr->count,
			 (uint64_t)r->sc->drain_count * (uint64_t)r->runs_done);
		json_array_append_new(notes, json_string(note));
	}
}

/*
 * Every contended acquisition of one design, per function and side, and
 * where the model timed them, every acquisition's hold: then the calls are
 * the acquisitions timed, else the function row's calls (the drainer's:
 * its remote drains)
 */
static void contention_json(json_t *contention, const struct pcb_design_result *r)
{
	for (int i = 0; i < r->nr_cc; i++) {
		const struct pcb_contention_row *c = &r->cc[i];
		uint64_t calls = c->held.n ? c->held.n : c->coordinator ? r->drain.remote :
				 fn_calls(r, c->fn);
		json_t *o = json_object();

		rj_set_cont_design(o, r->label);
		rj_set_cont_function(o, c->fn);
		rj_set_cont_side(o, c->coordinator ? "coordinator" : "worker");
		/* a lock taken inside a function no row times (the zone lock's) has no count */
		if (calls)
			rj_set_cont_calls(o, (json_int_t)calls);
		rj_set_cont_contended(o, (json_int_t)c->wait.n);
		rj_set_cont_wait_avg_cycles(o, c->wait.n ? (double)c->wait.sum / (double)c->wait.n : 0);
		rj_set_cont_wait_max_cycles(o, (json_int_t)c->wait.max);
		if (c->held.n) {
			rj_set_cont_held(o, (json_int_t)c->held.n);
			rj_set_cont_hold_avg_cycles(o, (double)c->held.sum / (double)c->held.n);
			rj_set_cont_hold_max_cycles(o, (json_int_t)c->held.max);
		}
		json_array_append_new(contention, o);
	}
}

/* what each worker of one design lost to interruptions */
static void interruptions_json(json_t *interruptions, const struct pcb_design_result *r,
			       double tsc_hz)
{
	double ns = tsc_hz > 0 ? 1e9 / tsc_hz : 0;

	for (int i = 0; i < r->nr_workers; i++) {
		const struct pcb_gaps *g = &r->gaps[i];
		json_t *o = json_object();

		rj_set_irq_design(o, r->label);
		rj_set_irq_cpu(o, r->worker[i].cpu);
		rj_set_irq_threshold_ns(o, (double)g->threshold * ns);
		rj_set_irq_count(o, (json_int_t)g->count);
		rj_set_irq_attributed(o, (json_int_t)g->attributed);
		rj_set_irq_stolen_ns(o, (double)g->stolen * ns);
		rj_set_irq_max_ns(o, (double)g->max * ns);
		rj_set_irq_p99_ns(o, (double)pcb_hist_quantile(&g->hist, 0.99) * ns);
		rj_set_irq_p999_ns(o, (double)pcb_hist_quantile(&g->hist, 0.999) * ns);
		rj_set_irq_histogram(o, histogram_json(&g->hist));
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

			json_t *x = json_object();

			rj_set_ovh_run(x, run + 1);
			rj_set_ovh_cpu(x, (int)r->worker[i].cpu);
			rj_set_ovh_subtracted(x, o->subtracted);
			rj_set_ovh_start(x, o->start);
			rj_set_ovh_in_run(x, o->in_run);
			rj_set_ovh_in_run_regions(x, (json_int_t)o->in_run_regions);
			rj_set_ovh_end(x, o->end);
			rj_set_ovh_p5(x, o->lo);
			rj_set_ovh_p95(x, o->hi);
			json_array_append_new(a, x);
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
 * holding its cache's lock: every timed call's cost by its row's method
 * over the workers' run time.
 */
static double held_fraction(const struct pcb_design_result *r, double tsc_hz)
{
	double held = 0, span = r->run_seconds * tsc_hz * r->runs * r->nr_workers;

	for (int f = 0; f < PCB_MAX_FN; f++)
		for (int run = 0; run < r->runs; run++) {
			double net = r->fn[f].run_mean[run] * (double)r->fn[f].run_calls[run];

			held += net > 0 ? net : 0;
		}
	return span > 0 ? fmin(1.0, held / span) : 0;
}

/* the workers of a design and where their caches landed */
static json_t *workers_json(const struct pcb_design_result *r, json_t *notes)
{
	json_t *workers = json_array();
	int unplaced = 0;
	char note[512];

	for (int i = 0; i < r->nr_workers; i++) {
		const struct pcb_worker_info *wi = &r->worker[i];
		json_t *o = json_object();

		unplaced += wi->cache_node < 0;
		rj_set_worker_cpu(o, (int)wi->cpu);
		rj_set_worker_node(o, wi->node);
		rj_set_worker_cache_node(o, wi->cache_node);
		rj_set_worker_isolated(o, wi->isolated);
		json_array_append_new(workers, o);
		if (wi->node >= 0 && wi->cache_node >= 0 && wi->node != wi->cache_node) {
			snprintf(note, sizeof(note), "%s: the %s of CPU %u is on node %d, not its "
				 "own node %d", r->label, r->sc->model->cache_name, wi->cpu,
				 wi->cache_node, wi->node);
			json_array_append_new(notes, json_string(note));
		}
	}
	if (unplaced) {
		snprintf(note, sizeof(note), "%s: the kernel did not say which node %d worker(s)' "
			 "per-CPU data landed on (move_pages() refused or unavailable): their "
			 "placement is not checked", r->label, unplaced);
		json_array_append_new(notes, json_string(note));
	}
	return workers;
}

/* what a design is: its names, what it follows, what the model adds */
static void design_head_json(json_t *dj, const struct pcb_design_result *r, json_t *context)
{
	const struct pcb_model *m = r->sc->model;
	struct pcb_model_figures fig = {
		.config = r->sc->config, .variant = r->variant, .ev = r->ev,
		.overhead = r->overhead, .note = r->model_note, .tsc_hz = rj_ctx_tsc_hz(context),
	};
	struct pcb_stat totals[PCB_MAX_FN];
	char buf[1024];

	for (int f = 0; f < PCB_MAX_FN; f++)
		totals[f] = r->fn[f].total;
	fig.fn_total = totals;
	rj_set_design_design(dj, r->label);
	rj_set_design_design_name(dj, r->design->name);
	rj_set_design_config(dj, r->sc->label);
	pcb_cpuset_format(r->sc->isolated, buf, sizeof(buf));
	rj_set_design_isolated(dj, buf);
	rj_set_design_follows(dj, r->design->follows);
	rj_set_design_drain_promise(dj, r->design->promise);
	if (r->model_note[0] && m->note_key)
		json_object_set_new(dj, m->note_key, json_string(r->model_note));
	m->result_json(dj, &fig);
	rj_set_design_cache_name(dj, m->cache_name);
	rj_set_design_invariant_name(dj, m->invariant_name);
	rj_set_design_drain(dj, r->design->drain.name);
	if (r->delivery >= 0)
		rj_set_design_work_delivery(dj, pcb_delivery_name[r->delivery]);
}

/* a broken invariant, in capitals, as the model names it */
static void invariant_note(json_t *notes, const struct pcb_design_result *r)
{
	char name[128], note[512];
	size_t i;

	snprintf(name, sizeof(name), "%s", r->sc->model->invariant_name);
	for (i = 0; name[i]; i++)
		name[i] = (char)toupper((unsigned char)name[i]);
	snprintf(note, sizeof(note), "%s: %s BROKEN %s", r->label, name, r->check);
	json_array_append_new(notes, json_string(note));
}

/* one design's entry: what it is, what the model adds, and its notes */
static json_t *design_json(const struct pcb_design_result *r, json_t *context, json_t *notes)
{
	json_t *dj = json_object(), *work = json_object();
	char note[512];

	design_head_json(dj, r, context);
	if (r->run_note[0])
		json_array_append_new(notes, json_string(r->run_note));
	rj_set_work_queued(work, (json_int_t)r->drain.work_queued);
	rj_set_work_ran(work, (json_int_t)r->drain.work_ran);
	rj_set_work_deferred(work, (json_int_t)r->drain.work_deferred);
	rj_set_design_work(dj, work);
	rj_set_design_workers(dj, workers_json(r, notes));
	rj_set_design_runs(dj, r->runs);
	if (r->sc->runs_auto)
		rj_set_design_runs_target_met(dj, r->runs_met);
	rj_set_design_timer_overhead(dj, r->overhead);
	rj_set_design_overhead_ticks(dj, overhead_json(r, notes));
	rj_set_design_ops(dj, (json_int_t)r->ops);
	rj_set_design_failed(dj, (json_int_t)r->failed);
	rj_set_design_batch_misses(dj, (json_int_t)r->misses);
	rj_set_design_run_seconds(dj, r->run_seconds);
	rj_set_design_held_fraction(dj, held_fraction(r, rj_ctx_tsc_hz(context)));
	rj_set_design_nonoverlapping_runs(dj, r->nonoverlap);
	rj_set_design_invariant(dj, r->check);
	if (r->drain.count)
		rj_set_design_drains(dj, (json_int_t)r->drain.count);
	if (r->nonoverlap) {
		snprintf(note, sizeof(note), "%s: in %d of %d runs the workers did not all "
			 "run at the same time", r->label, r->nonoverlap, r->runs);
		json_array_append_new(notes, json_string(note));
	}
	if (r->check_failed)
		invariant_note(notes, r);
	return dj;
}

/* a function's figures in each run */
static json_t *fn_runs_json(const struct pcb_fn_result *fr, int runs)
{
	json_t *a = json_array();

	for (int i = 0; i < runs; i++) {
		json_t *o = json_object();

		rj_set_fnrun_avg_cycles(o, fr->run_mean[i]);
		rj_set_fnrun_raw_avg_cycles(o, fr->run_raw_mean[i]);
		if (fr->method == PCB_METHOD_DIFFERENCED) {
			rj_set_fnrun_subtracted_avg_cycles(o, fr->run_sub_mean[i]);
			rj_set_fnrun_fixed_ticks(o, fr->run_fixed[i]);
		}
		rj_set_fnrun_calls(o, (json_int_t)fr->run_calls[i]);
		rj_set_fnrun_interrupted(o, (json_int_t)fr->run_interrupted[i]);
		json_array_append_new(a, o);
	}
	return a;
}

/* one row a timed function, with its run means and histogram */
static void functions_json(json_t *functions, const struct pcb_design_result *r)
{
	const struct pcb_model *m = r->sc->model;

	for (int f = 0; f < m->nr_fn; f++) {
		const struct pcb_fn_result *fr = &r->fn[f];
		const struct pcb_hist *h = &fr->total.hist;
		double half, mean;
		json_t *fj;

		if (!fr->total.calls)
			continue;
		fj = json_object();
		rj_set_fn_design(fj, r->label);
		rj_set_fn_function(fj, m->fn_name[f]);
		rj_set_fn_timing(fj, pcb_timing_name((enum pcb_timing)r->sc->timing));
		rj_set_fn_avg_cycles(fj, pcb_mean(fr->run_mean, r->runs));
		rj_set_fn_stddev(fj, pcb_stddev(fr->run_mean, r->runs));
		rj_set_fn_raw_avg_cycles(fj, pcb_mean(fr->run_raw_mean, r->runs));
		rj_set_fn_raw_stddev(fj, pcb_stddev(fr->run_raw_mean, r->runs));
		rj_set_fn_method(fj, pcb_fn_method_name(fr->method));
		if (fr->method == PCB_METHOD_DIFFERENCED) {
			rj_set_fn_subtracted_avg_cycles(fj, pcb_mean(fr->run_sub_mean, r->runs));
			rj_set_fn_fixed_ticks(fj, pcb_mean(fr->run_fixed, r->runs));
		}
		noise_json(fj, RJ_F_fn_cv_pct, RJ_F_fn_unstable, fr->run_mean, r);
		half = pcb_ci95_half(fr->run_mean, r->runs);
		mean = fabs(pcb_mean(fr->run_mean, r->runs));
		rj_put(fj, RJ_F_fn_ci95_pct, isfinite(half) && mean > 0 ?
		       json_real(100 * half / mean) : json_null());
		rj_set_fn_interrupted(fj, (json_int_t)fr->total.interrupted);
		rj_set_fn_interrupted_calls(fj, (json_int_t)fr->total.interrupted_calls);
		rj_set_fn_calls(fj, (json_int_t)fr->total.calls);
		rj_set_fn_regions(fj, (json_int_t)fr->total.samples);
		rj_set_fn_p50(fj, (json_int_t)pcb_hist_quantile(h, 0.50));
		rj_set_fn_p99(fj, (json_int_t)pcb_hist_quantile(h, 0.99));
		rj_set_fn_p999(fj, (json_int_t)pcb_hist_quantile(h, 0.999));
		rj_set_fn_max(fj, (json_int_t)fr->total.max);
		rj_set_fn_runs(fj, fn_runs_json(fr, r->runs));
		rj_set_fn_histogram(fj, histogram_json(h));
		json_array_append_new(functions, fj);
	}
}

json_t *pcb_result_build(json_t *context, const struct pcb_scenario *sc,
			 const struct pcb_design_result *res, int nr_designs)
{
	json_t *o = json_object(), *designs = json_array(), *functions = json_array();
	json_t *notes = json_array(), *counters = json_array(), *per_call = json_array();
	json_t *drains = json_array(), *contention = json_array(), *interruptions = json_array();
	double tsc_hz = rj_ctx_tsc_hz(context);
	char buf[1024];

	rj_set_top_format(o, PCB_RESULT_FORMAT);
	/* cpu_is_isolated() of the first configuration; a sweep's designs say theirs */
	pcb_cpuset_format(sc->isolated, buf, sizeof(buf));
	rj_set_ctx_isolated(context, buf);
	rj_set_top_context(o, json_incref(context));
	rj_set_top_scenario(o, scenario_json(sc));

	for (int d = 0; d < nr_designs; d++) {
		const struct pcb_design_result *r = &res[d];

		json_array_append_new(designs, design_json(r, context, notes));
		counters_json(counters, per_call, notes, r->sc, r);
		if (r->drain.active) {
			json_array_append_new(drains, drain_row_json(r));
			drain_notes(notes, r);
		}
		contention_json(contention, r);
		interruptions_json(interruptions, r, tsc_hz);
		functions_json(functions, r);
	}
	line_moved_note(notes, res, nr_designs);
	rj_set_top_designs(o, designs);
	rj_set_top_functions(o, functions);
	rj_set_top_counters(o, counters);
	rj_set_top_drains(o, drains);
	rj_set_top_contention(o, contention);
	rj_set_top_interruptions(o, interruptions);
	rj_set_top_counters_per_call(o, per_call);
	rj_set_top_notes(o, notes);
	return o;
}
