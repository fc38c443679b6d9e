/* SPDX-License-Identifier: MIT */
/*
 * result.json's rows of one design: a row a timed function (with its run
 * means and histogram), a counter, a contended lock and a worker's
 * interruptions, and the noise gate a row carries.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../machine/state.h"
#include "../../measure/counters.h"
#include "../../schema/schema.h"
#include "json_rows.h"

json_t *pcb_histogram_json(const struct pcb_hist *h)
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

/*
 * Why an event did not open: a hardware event on a machine with no PMU
 * (many VMs) is said to be so, not perf_event_open()'s ENOENT
 */
static const char *counter_error(const struct pcb_event_spec *ev, int status)
{
	char pmu[32];

	if (status == -ENOENT && ev->attr.type != PERF_TYPE_SOFTWARE &&
	    !pcb_state_pmu("/", pmu, sizeof(pmu)))
		return "no PMU here: hardware events cannot be counted";
	return strerror(-status);
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
		rj_set_ctr_error(o, counter_error(ev, v->status));
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

void pcb_counters_json(json_t *counters, json_t *per_call, json_t *notes,
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
void pcb_noise_json(json_t *o, enum rj_field cv_field, enum rj_field unstable_field,
		       const double *run_mean, const struct pcb_design_result *r)
{
	double cv = 100 * pcb_cv(run_mean, r->runs);

	rj_put(o, cv_field, json_real(cv));
	rj_put(o, unstable_field, json_boolean(r->sc->max_cv > 0 && cv > r->sc->max_cv));
}

/*
 * Every contended acquisition of one design, per function and side, and
 * where the model timed them, every acquisition's hold: then the calls are
 * the acquisitions timed, else the function row's calls (the drainer's:
 * its remote drains)
 */
void pcb_contention_json(json_t *contention, const struct pcb_design_result *r)
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
void pcb_interruptions_json(json_t *interruptions, const struct pcb_design_result *r,
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
		rj_set_irq_histogram(o, pcb_histogram_json(&g->hist));
		json_array_append_new(interruptions, o);
	}
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
void pcb_functions_json(json_t *functions, const struct pcb_design_result *r)
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
		pcb_noise_json(fj, RJ_F_fn_cv_pct, RJ_F_fn_unstable, fr->run_mean, r);
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
		rj_set_fn_histogram(fj, pcb_histogram_json(h));
		json_array_append_new(functions, fj);
	}
}
