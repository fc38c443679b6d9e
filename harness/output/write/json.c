/* SPDX-License-Identifier: MIT */
/*
 * result.json from a run: the context, the scenario, one entry a design
 * (what it is, what the model adds, its workers and the empty regions they
 * subtracted) and every design's rows (json_rows.c, json_drain.c), with
 * the notes that say what moved the figures.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../run/work.h"
#include "../../schema/schema.h"
#include "../read/load.h"
#include "json.h"
#include "json_context.h"
#include "json_drain.h"
#include "json_rows.h"

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
			 "moved by more than a TSC step (%.0f cycles) between the start and the end "
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
	if (r->workers_node >= 0 && r->target_node >= 0 && r->target_node != r->workers_node) {
		snprintf(note, sizeof(note), "%s: the %s is on node %d, not on node %d, the "
			 "workers'", r->label,
			 r->sc->model->target_name ? r->sc->model->target_name : "drain target",
			 r->target_node,
			 r->workers_node);
		json_array_append_new(notes, json_string(note));
	}
	return workers;
}

/* what a design is: its names, what it follows, what the model adds */
static void design_head_json(json_t *dj, const struct pcb_design_result *r, json_t *context)
{
	const struct pcb_model *m = r->sc->model;
	const struct pcb_model_output out = pcb_model_output(m);
	struct pcb_model_figures fig = {
		.model = m, .config = r->sc->config, .design = r->design, .variant = r->variant,
		.ev = r->ev,
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
	rj_set_design_drain_promise(dj, r->design->promise);
	if (r->sc->backend == PCB_BACKEND_INSTRUMENTED) {
		/* not the model's design: the booted kernel's own code, as its instrument says */
		snprintf(buf, sizeof(buf), "the booted kernel's own mm/memcontrol.c: %s (%s), "
			 "%s a %s", r->sc->instr.variant, r->sc->instr.release,
			 pcb_instr_lock_field(&r->sc->instr), r->sc->instr.stock_lock);
		rj_set_design_follows(dj, buf);
		/* both stocks where they are apart, as the model's 7.3 design counts them */
		rj_set_design_cache_bytes(dj, r->sc->instr.stock_size +
					  (r->sc->instr.obj_stock_size > 0 ? r->sc->instr.obj_stock_size : 0));
	} else {
		rj_set_design_follows(dj, r->design->follows);
		if (r->model_note[0] && out.note_key)
			json_object_set_new(dj, out.note_key, json_string(r->model_note));
		out.result_json(dj, &fig);
	}
	rj_set_design_cache_name(dj, m->cache_name);
	rj_set_design_invariant_name(dj, m->invariant_name);
	if (m->target_name)
		rj_set_design_target_name(dj, m->target_name);
	rj_set_design_target_node(dj, r->target_node);
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
	if (r->delivery == PCB_DELIVER_WORKQUEUE) {
		rj_set_work_ran_on_cpu(work, (json_int_t)r->drain.work_ran_here);
		rj_set_work_ran_elsewhere(work, (json_int_t)r->drain.work_ran_elsewhere);
		rj_set_work_elsewhere_cpu(work, r->drain.work_elsewhere_cpu);
	}
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
	rj_set_top_scenario(o, pcb_scenario_json(sc));

	for (int d = 0; d < nr_designs; d++) {
		const struct pcb_design_result *r = &res[d];

		json_array_append_new(designs, design_json(r, context, notes));
		pcb_counters_json(counters, per_call, notes, r->sc, r);
		if (r->drain.active) {
			json_array_append_new(drains, pcb_drain_json(r));
			pcb_drain_notes(notes, r);
		}
		pcb_contention_json(contention, r);
		/* the instrumented backend's loops are processes: no worker's gaps are timed */
		if (r->sc->backend != PCB_BACKEND_INSTRUMENTED)
			pcb_interruptions_json(interruptions, r, tsc_hz);
		pcb_functions_json(functions, r);
	}
	pcb_line_moved_note(notes, res, nr_designs);
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
