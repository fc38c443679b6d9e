/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "counters.h"
#include "work.h"
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
	json_t *info = pcb_info_json(topo, clk), *o = json_object(), *ovh = json_object();
	struct utsname u;

	uname(&u);
	json_object_set_new(o, "host", json_string(u.nodename));
	json_object_set(o, "cpu_model", json_object_get(info, "cpu_model"));
	json_object_set(o, "cpus", json_object_get(info, "cpus"));
	json_object_set(o, "cores", json_object_get(info, "cores"));
	json_object_set(o, "numa_nodes", json_object_get(info, "numa_nodes"));
	json_object_set(o, "nodes", json_object_get(info, "nodes"));
	json_object_set(o, "isolated", json_object_get(info, "isolated"));
	json_object_set(o, "nohz_full", json_object_get(info, "nohz_full"));
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
	for (int k = 0; k < K_NR; k++) {
		snprintf(key, sizeof(key), "%s.%s", pcb_keys[k].section, pcb_keys[k].name);
		json_object_set_new(settings, key, json_string(sc->value[k]));
	}
	json_object_set_new(o, "settings", settings);
	json_object_set_new(o, "timing", json_string(pcb_timing_name(sc->timing)));
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

	for (int e = 0; e < r->nr_events; e++) {
		struct pcb_counter_value all = { 0 };

		for (int i = 0; i < r->nr_workers; i++) {
			const struct pcb_counter_value *v = &r->ctr[i * PCB_MAX_EVENTS + e];

			pcb_counter_add(&all, v);
			json_array_append_new(counters, counter_json(r->label, (int)r->worker[i].cpu,
								     &cfg->ev[e], v, 0));
		}
		json_array_append_new(counters, counter_json(r->label, -1, &cfg->ev[e], &all,
							     r->ops));
		if (r->coordinator)
			json_array_append_new(counters, counter_json(r->label, -2, &cfg->ev[e],
								     &r->coord_ctr[e], 0));
		if (all.status == -EACCES || all.status == -EPERM) {
			snprintf(note, sizeof(note), "%s: %s: %s (perf_event_paranoid is %d)",
				 r->label, cfg->ev[e].name, strerror(-all.status),
				 pcb_perf_paranoid());
			json_array_append_new(notes, json_string(note));
		}
		if (!r->per_call)
			continue;
		for (int f = 0; f < PCB_FN_NR; f++) {
			uint64_t calls = 0;
			json_t *o;

			for (int i = 0; i < r->runs; i++)
				calls += r->fn[f].run_calls[i];
			if (!calls || all.status)
				continue;
			o = json_object();
			json_object_set_new(o, "design", json_string(r->label));
			json_object_set_new(o, "function", json_string(pcb_fn_name[f]));
			json_object_set_new(o, "event", json_string(cfg->ev[e].name));
			json_object_set_new(o, "per_call", json_real((double)r->ctr_fn[f][e] / (double)calls));
			json_object_set_new(o, "read", json_string(r->rdpmc ? "rdpmc" : "read()"));
			json_array_append_new(per_call, o);
		}
	}
	if (r->kernel_dropped) {
		snprintf(note, sizeof(note), "%s: kernel-mode counting is not permitted here "
			 "(perf_event_paranoid is %d): hardware events count user mode only",
			 r->label, pcb_perf_paranoid());
		json_array_append_new(notes, json_string(note));
	}
}

static uint64_t fn_calls(const struct pcb_design_result *r, const char *fn)
{
	uint64_t calls = 0;

	for (int f = 0; f < PCB_FN_NR; f++)
		if (!strcmp(pcb_fn_name[f], fn))
			for (int i = 0; i < r->runs; i++)
				calls += r->fn[f].run_calls[i];
	return calls;
}

/* drains, contention and interruptions of one design (issue: the coordinator) */
static void drain_json(json_t *drains, json_t *contention, json_t *interruptions, json_t *notes,
		       const struct pcb_design_result *r, double tsc_hz)
{
	char note[512];

	if (r->coordinator) {
		json_t *o = json_object();
		double cyc = (double)tsc_hz;

		(void)cyc;
		json_object_set_new(o, "design", json_string(r->label));
		json_object_set_new(o, "design_name", json_string(r->design->name));
		json_object_set_new(o, "stocks", json_integer(r->nr_stocks));
		json_object_set_new(o, "virtual_cpus", json_integer(r->nr_virtual));
		json_object_set_new(o, "coordinator_cpu", json_integer(r->coord_cpu));
		json_object_set_new(o, "count", json_integer((json_int_t)r->drains));
		json_object_set_new(o, "avg_cycles", json_real(pcb_mean(r->drain_run_mean, r->runs)));
		json_object_set_new(o, "stddev", json_real(pcb_stddev(r->drain_run_mean, r->runs)));
		json_object_set_new(o, "p99_cycles", json_integer((json_int_t)pcb_hist_quantile(&r->drain_total.hist, 0.99)));
		if (r->design->drain == PCB_DRAIN_WORK) {
			json_object_set_new(o, "completed", json_integer((json_int_t)r->completed));
			json_object_set_new(o, "incomplete", json_integer((json_int_t)r->incomplete));
			json_object_set_new(o, "completion_p50", json_integer((json_int_t)pcb_hist_quantile(&r->completion, 0.5)));
			json_object_set_new(o, "completion_p99", json_integer((json_int_t)pcb_hist_quantile(&r->completion, 0.99)));
		}
		if (r->stranded_n) {
			json_object_set_new(o, "stranded_pages_avg",
					    json_real((double)r->stranded_sum / (double)r->stranded_n));
			json_object_set_new(o, "stranded_pages_max", json_integer((json_int_t)r->stranded_max));
		}
		json_array_append_new(drains, o);
		if (r->nr_virtual && r->design->drain == PCB_DRAIN_WORK) {
			snprintf(note, sizeof(note), "%s: the drain work of %d virtual CPUs ran on helper "
				 "threads, not on CPUs of their own: its completion is not the kernel's",
				 r->label, r->nr_virtual);
			json_array_append_new(notes, json_string(note));
		}
		if (r->coord_shares_cpu) {
			snprintf(note, sizeof(note), "%s: the coordinator shares CPU %d with a worker",
				 r->label, r->coord_cpu);
			json_array_append_new(notes, json_string(note));
		}
	}
	for (int i = 0; i < r->nr_cc; i++) {
		const struct pcb_contention_row *c = &r->cc[i];
		json_t *o = json_object();

		json_object_set_new(o, "design", json_string(r->label));
		json_object_set_new(o, "function", json_string(c->fn));
		json_object_set_new(o, "side", json_string(c->coordinator ? "coordinator" : "worker"));
		json_object_set_new(o, "calls", json_integer((json_int_t)(c->coordinator ? r->remote_drains
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

json_t *pcb_result_build(json_t *context, const struct pcb_scenario *sc,
			 const struct pcb_design_result *res, int nr_designs)
{
	json_t *o = json_object(), *designs = json_array(), *functions = json_array();
	json_t *notes = json_array(), *counters = json_array(), *per_call = json_array();
	json_t *drains = json_array(), *contention = json_array(), *interruptions = json_array();
	char note[512];

	json_object_set_new(o, "format", json_string(PCB_RESULT_FORMAT));
	json_object_set(o, "context", context);
	json_object_set_new(o, "scenario", scenario_json(sc));

	for (int d = 0; d < nr_designs; d++) {
		const struct pcb_design_result *r = &res[d];
		json_t *dj = json_object(), *workers = json_array();

		json_object_set_new(dj, "design", json_string(r->label));
		json_object_set_new(dj, "design_name", json_string(r->design->name));
		json_object_set_new(dj, "config", json_string(r->sc->label));
		json_object_set_new(dj, "follows", json_string(r->design->follows));
		json_object_set_new(dj, "drain_promise", json_string(r->design->promise));
		json_object_set_new(dj, "stock_bytes", json_integer((json_int_t)r->variant->stock_size));
		json_object_set_new(dj, "stock_hot_bytes",
				    json_integer((json_int_t)r->variant->stock_hot_bytes));
		json_object_set_new(dj, "slots", json_integer(r->sc->slots));
		json_object_set_new(dj, "irq_model", json_string(r->sc->irq_model ? "pushf_popf" : "none"));
		if (r->accounting_impl[0])
			json_object_set_new(dj, "accounting", json_string(r->accounting_impl));
		if (r->fn[PCB_FN_KMALLOC].total.samples) {
			const struct pcb_stat *k = &r->fn[PCB_FN_KMALLOC].total;
			double min = (double)k->min_raw - r->overhead;
			double hz = json_number_value(json_object_get(context, "tsc_hz"));

			json_object_set_new(dj, "kmalloc_burst", json_pack("{s:I,s:I,s:f,s:f}",
				"bursts", (json_int_t)k->samples, "objects", (json_int_t)r->sc->burst,
				"min_us", hz > 0 ? min / hz * 1e6 : 0.0,
				"min_cycles_per_op", min / (double)r->sc->burst));
		}
		json_object_set_new(dj, "drain", json_string(r->design->drain == PCB_DRAIN_WORK ? "work" :
							     r->design->drain == PCB_DRAIN_REMOTE ? "remote" : "qsbr"));
		if (r->design->drain == PCB_DRAIN_WORK)
			json_object_set_new(dj, "work_delivery", json_string(pcb_delivery_name[r->sc->delivery]));
		{
			json_t *ev = json_object();
			uint64_t hit = r->ev[PCB_EV_STOCK_HIT], miss = r->ev[PCB_EV_STOCK_MISS];

			json_object_set_new(ev, "stock_hits", json_integer((json_int_t)hit));
			json_object_set_new(ev, "stock_misses", json_integer((json_int_t)miss));
			json_object_set_new(ev, "page_counter_charges",
					    json_integer((json_int_t)r->ev[PCB_EV_PC_CHARGE]));
			json_object_set_new(ev, "page_counter_uncharges",
					    json_integer((json_int_t)r->ev[PCB_EV_PC_UNCHARGE]));
			if (hit + miss) {
				json_object_set_new(ev, "hit_rate", json_real((double)hit / (double)(hit + miss)));
				/* each page_counter call is one atomic per level up to the root */
				json_object_set_new(ev, "atomics_per_charge",
						    json_real((double)(r->ev[PCB_EV_PC_CHARGE] + r->ev[PCB_EV_PC_UNCHARGE]) *
							      r->sc->memcg_depth / (double)(hit + miss)));
			}
			json_object_set_new(dj, "events", ev);
		}
		json_object_set_new(dj, "work", json_pack("{s:I,s:I,s:I}", "queued", (json_int_t)r->work_queued,
							  "ran", (json_int_t)r->work_ran,
							  "deferred", (json_int_t)r->work_deferred));
		for (int i = 0; i < r->nr_workers; i++) {
			json_t *w = json_object();

			json_object_set_new(w, "cpu", json_integer(r->worker[i].cpu));
			json_object_set_new(w, "node", json_integer(r->worker[i].node));
			json_object_set_new(w, "stock_node", json_integer(r->worker[i].stock_node));
			json_array_append_new(workers, w);
			if (r->worker[i].node >= 0 && r->worker[i].stock_node >= 0 &&
			    r->worker[i].node != r->worker[i].stock_node) {
				snprintf(note, sizeof(note), "%s: the stock of CPU %u is on node %d, "
					 "not its own node %d", r->label, r->worker[i].cpu,
					 r->worker[i].stock_node, r->worker[i].node);
				json_array_append_new(notes, json_string(note));
			}
		}
		json_object_set_new(dj, "workers", workers);
		json_object_set_new(dj, "runs", json_integer(r->runs));
		json_object_set_new(dj, "timer_overhead", json_real(r->overhead));
		json_object_set_new(dj, "ops", json_integer((json_int_t)r->ops));
		json_object_set_new(dj, "failed_charges", json_integer((json_int_t)r->failed));
		json_object_set_new(dj, "batch_misses", json_integer((json_int_t)r->misses));
		json_object_set_new(dj, "run_seconds", json_real(r->run_seconds));
		json_object_set_new(dj, "nonoverlapping_runs", json_integer(r->nonoverlap));
		json_object_set_new(dj, "charge_invariant", json_string(r->check));
		json_array_append_new(designs, dj);
		counters_json(counters, per_call, notes, r->sc, r);
		drain_json(drains, contention, interruptions, notes, r,
			   json_number_value(json_object_get(context, "tsc_hz")));
		if (r->drains)
			json_object_set_new(dj, "drains", json_integer((json_int_t)r->drains));

		if (r->nonoverlap) {
			snprintf(note, sizeof(note), "%s: in %d of %d runs the workers did not all "
				 "run at the same time", r->label, r->nonoverlap, r->runs);
			json_array_append_new(notes, json_string(note));
		}
		if (r->check_failed) {
			snprintf(note, sizeof(note), "%s: CHARGE INVARIANT BROKEN %s",
				 r->label, r->check);
			json_array_append_new(notes, json_string(note));
		}

		for (int f = 0; f < PCB_FN_NR; f++) {
			const struct pcb_fn_result *fr = &r->fn[f];
			json_t *fj = json_object(), *runs = json_array();
			uint64_t calls = 0;

			for (int i = 0; i < r->runs; i++) {
				json_t *rj = json_object();

				json_object_set_new(rj, "avg_cycles", json_real(fr->run_mean[i]));
				json_object_set_new(rj, "calls", json_integer((json_int_t)fr->run_calls[i]));
				json_array_append_new(runs, rj);
				calls += fr->run_calls[i];
			}
			if (!calls) {
				json_decref(runs);
				json_decref(fj);
				continue;
			}
			json_object_set_new(fj, "design", json_string(r->label));
			json_object_set_new(fj, "function", json_string(pcb_fn_name[f]));
			json_object_set_new(fj, "timing", json_string(pcb_timing_name(r->sc->timing)));
			json_object_set_new(fj, "avg_cycles", json_real(pcb_mean(fr->run_mean, r->runs)));
			json_object_set_new(fj, "stddev", json_real(pcb_stddev(fr->run_mean, r->runs)));
			json_object_set_new(fj, "calls", json_integer((json_int_t)calls));
			json_object_set_new(fj, "p50", json_integer((json_int_t)pcb_hist_quantile(&fr->total.hist, 0.50)));
			json_object_set_new(fj, "p99", json_integer((json_int_t)pcb_hist_quantile(&fr->total.hist, 0.99)));
			json_object_set_new(fj, "p999", json_integer((json_int_t)pcb_hist_quantile(&fr->total.hist, 0.999)));
			json_object_set_new(fj, "max", json_integer((json_int_t)fr->total.max));
			json_object_set_new(fj, "runs", runs);
			json_object_set_new(fj, "histogram", histogram_json(&fr->total.hist));
			json_array_append_new(functions, fj);
		}
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

/* ---- writing ---- */

static int write_text(const char *dir, const char *name, const char *text, char *err,
		      size_t errlen)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* a growing string for CSV and tables */
struct sbuf {
	char *p;
	size_t len;
};

static FILE *sbuf_open(struct sbuf *b)
{
	b->p = NULL;
	b->len = 0;
	return open_memstream(&b->p, &b->len);
}

static int write_csvs(json_t *result, const char *dir, char *err, size_t errlen)
{
	json_t *functions = json_object_get(result, "functions"), *fj;
	struct sbuf fb, rb, hb, cb, db;
	FILE *f = sbuf_open(&fb), *r = sbuf_open(&rb), *h = sbuf_open(&hb), *c = sbuf_open(&cb);
	FILE *dr = sbuf_open(&db);
	size_t i;
	int rc;

	fprintf(f, "design,function,timing,avg_cycles,stddev,calls,p50,p99,p999,max\n");
	fprintf(r, "design,function,timing,run,avg_cycles,calls\n");
	fprintf(h, "design,function,timing,cycles_lower,count\n");
	json_array_foreach(functions, i, fj) {
		const char *d = json_string_value(json_object_get(fj, "design"));
		const char *fn = json_string_value(json_object_get(fj, "function"));
		const char *tm = json_string_value(json_object_get(fj, "timing"));
		json_t *runs = json_object_get(fj, "runs"), *x;
		size_t j;

		fprintf(f, "%s,%s,%s,%.4f,%.4f,%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT
			",%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT "\n",
			d, fn, tm, json_number_value(json_object_get(fj, "avg_cycles")),
			json_number_value(json_object_get(fj, "stddev")),
			json_integer_value(json_object_get(fj, "calls")),
			json_integer_value(json_object_get(fj, "p50")),
			json_integer_value(json_object_get(fj, "p99")),
			json_integer_value(json_object_get(fj, "p999")),
			json_integer_value(json_object_get(fj, "max")));
		json_array_foreach(runs, j, x)
			fprintf(r, "%s,%s,%s,%zu,%.4f,%" JSON_INTEGER_FORMAT "\n", d, fn, tm, j + 1,
				json_number_value(json_object_get(x, "avg_cycles")),
				json_integer_value(json_object_get(x, "calls")));
		json_array_foreach(json_object_get(fj, "histogram"), j, x)
			fprintf(h, "%s,%s,%s,%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT "\n",
				d, fn, tm, json_integer_value(json_array_get(x, 0)),
				json_integer_value(json_array_get(x, 1)));
	}
	fprintf(dr, "design,design_name,stocks,count,avg_cycles,stddev,completion_p50,completion_p99\n");
	json_array_foreach(json_object_get(result, "drains"), i, fj) {
		const char *label = json_string_value(json_object_get(fj, "design"));
		const char *name = json_string_value(json_object_get(fj, "design_name"));

		fprintf(dr, "%s,%s,%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ",%.4f,%.4f,%"
			JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT "\n", label, name,
			json_integer_value(json_object_get(fj, "stocks")),
			json_integer_value(json_object_get(fj, "count")),
			json_number_value(json_object_get(fj, "avg_cycles")),
			json_number_value(json_object_get(fj, "stddev")),
			json_integer_value(json_object_get(fj, "completion_p50")),
			json_integer_value(json_object_get(fj, "completion_p99")));
	}
	fprintf(c, "design,thread,event,status,value,enabled_ns,running_ns\n");
	json_array_foreach(json_object_get(result, "counters"), i, fj)
		fprintf(c, "%s,%s,%s,%s,%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ",%"
			JSON_INTEGER_FORMAT "\n",
			json_string_value(json_object_get(fj, "design")),
			json_string_value(json_object_get(fj, "thread")),
			json_string_value(json_object_get(fj, "event")),
			json_string_value(json_object_get(fj, "status")),
			json_integer_value(json_object_get(fj, "value")),
			json_integer_value(json_object_get(fj, "enabled_ns")),
			json_integer_value(json_object_get(fj, "running_ns")));
	fclose(f);
	fclose(r);
	fclose(h);
	fclose(c);
	fclose(dr);
	rc = write_text(dir, "functions.csv", fb.p, err, errlen);
	if (!rc)
		rc = write_text(dir, "runs.csv", rb.p, err, errlen);
	if (!rc)
		rc = write_text(dir, "histogram.csv", hb.p, err, errlen);
	if (!rc)
		rc = write_text(dir, "counters.csv", cb.p, err, errlen);
	if (!rc)
		rc = write_text(dir, "drains.csv", db.p, err, errlen);
	free(cb.p);
	free(db.p);
	free(fb.p);
	free(rb.p);
	free(hb.p);
	return rc;
}

static void remove_tree(const char *dir)
{
	static const char *const files[] = {
		"result.json", "functions.csv", "runs.csv", "histogram.csv", "counters.csv",
		"drains.csv", "tables.txt",
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

int pcb_result_write(json_t *result, const char *dir, char *path, size_t pathlen,
		     char *err, size_t errlen)
{
	const char *name = json_string_value(json_object_get(json_object_get(result, "scenario"), "name"));
	char tmp[PATH_MAX], ts[32], jpath[PATH_MAX];
	struct sbuf tb;
	FILE *t;
	int rc;

	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	pcb_utc_timestamp(ts, sizeof(ts), 1);
	snprintf(tmp, sizeof(tmp), "%s/.%s-%s.tmp.%d", dir, name, ts, (int)getpid());
	if (mkdir(tmp, 0777) < 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	snprintf(jpath, sizeof(jpath), "%s/result.json", tmp);
	if (json_dump_file(result, jpath, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) < 0) {
		snprintf(err, errlen, "%s: cannot write", jpath);
		goto fail;
	}
	if (write_csvs(result, tmp, err, errlen) < 0)
		goto fail;
	t = sbuf_open(&tb);
	rc = pcb_tables_print(t, result, err, errlen);
	fclose(t);
	if (rc == 0)
		rc = write_text(tmp, "tables.txt", tb.p, err, errlen);
	free(tb.p);
	if (rc < 0)
		goto fail;

	for (int n = 1; n < 100; n++) {
		if (n == 1)
			snprintf(path, pathlen, "%s/%s-%s", dir, name, ts);
		else
			snprintf(path, pathlen, "%s/%s-%s-%d", dir, name, ts, n);
		/* rename() would replace an empty directory: refuse to */
		if (access(path, F_OK) == 0)
			continue;
		if (rename(tmp, path) == 0)
			return 0;
		if (errno != EEXIST && errno != ENOTEMPTY) {
			snprintf(err, errlen, "rename %s -> %s: %s", tmp, path, strerror(errno));
			goto fail;
		}
	}
	snprintf(err, errlen, "%s: no free result name", dir);
fail:
	remove_tree(tmp);
	return -1;
}
