/* SPDX-License-Identifier: MIT */
/*
 * The cover-letter tables of seed 000, printed from a result's JSON so that
 * `pcpbench run` and `pcpbench report` cannot disagree: the header, then
 * each block (tables_*.c), then a line a design and the notes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../scenario/scenario.h"
#include "../../schema/schema.h"
#include "../read/query.h"
#include "../write/textout.h"
#include "layout.h"
#include "tables.h"
#include "tables_counters.h"
#include "tables_drain.h"
#include "tables_fn.h"
#include "tables_model.h"
#include "tables_scaling.h"

static const char *setting_value(const struct pcb_template_part *p, void *result, char *buf,
				 size_t len)
{
	return pcb_setting_named(result, p->path);
}

/* the workers line of a result from before the model described its configuration */
static void print_old_workers(FILE *out, json_t *result, const char *ms)
{
	const struct pcb_model_output mo = pcb_model_output(pcb_result_model(result));
	char runs[160];

	fprintf(out, "workers: CPU %s; ", rj_sc_workers(rj_top_scenario(result)));
	if (mo.old_header[0]) {
		pcb_template_print(out, mo.old_header[0], setting_value, result);
		fprintf(out, "; ");
	}
	fprintf(out, "%s runs of %s ms", pcb_runs_setting(result, runs, sizeof(runs)), ms);
	if (mo.old_header[1]) {
		fprintf(out, "; ");
		pcb_template_print(out, mo.old_header[1], setting_value, result);
	}
	fprintf(out, "\n");
}

/*
 * How batch rows were computed: differenced (functions[].method), or, in
 * results from before it and for rows whose regions are of one length,
 * the empty region subtracted.
 */
static void print_batch_method(FILE *out, json_t *result, const char *sub, int raw)
{
	char rows[256] = "";
	int differenced = 0, subtracted = 0;
	size_t i, len = 0;
	json_t *fj;

	json_array_foreach(rj_top_functions(result), i, fj) {
		const char *fn = rj_fn_function(fj);

		/* a swept run.timing's call rows are the call line's */
		if (rj_fn_has_timing(fj) && strcmp(rj_fn_timing(fj), "batch"))
			continue;
		if (rj_fn_has_method(fj) && !strcmp(rj_fn_method(fj), "differenced")) {
			differenced = 1;
			continue;
		}
		subtracted = 1;
		if (!strstr(rows, fn) && len + strlen(fn) + 3 < sizeof(rows))
			len += (size_t)snprintf(rows + len, sizeof(rows) - len, "%s%s",
						len ? ", " : "", fn);
	}
	if (raw) {
		fprintf(out, "timing: batch, a batch of calls between two TSC reads "
			"(%s cycles of empty region included, not subtracted)\n", sub);
		return;
	}
	if (!differenced) {
		fprintf(out, "timing: batch, a batch of calls between two TSC reads "
			"(%s cycles of empty region subtracted per batch)\n", sub);
		return;
	}
	fprintf(out, "timing: batch, regions of N and N/2 calls in turn between two TSC "
		"reads; a call costs their difference over N/2 (no empty region subtracted: "
		"%s cycles)\n", sub);
	if (subtracted)
		fprintf(out, "        regions of one length, the empty region subtracted: %s\n",
			rows);
}

/* the settings of the machine that make these figures untrustworthy, on one line */
static void print_untrustworthy(FILE *out, json_t *ctx)
{
	json_t *it;
	size_t i;
	int n = 0;

	json_array_foreach(rj_ctx_machine_state(ctx), i, it) {
		if (strcmp(rj_mst_verdict(it), "bad"))
			continue;
		fprintf(out, "%s%s %s", n++ ? ", " : "untrustworthy: ", rj_mst_setting(it),
			rj_mst_value(it));
		if (rj_mst_has_cpus(it))
			fprintf(out, " (CPU %s)", rj_mst_cpus(it));
	}
	if (n)
		fprintf(out, " (pcpbench check says why)\n");
}

/* how timing's rows were timed */
static void print_timing(FILE *out, json_t *result, const char *timing)
{
	int raw = pcb_result_raw(result);
	char sub[96];

	pcb_subtracted_text(result, pcb_timer_overhead(rj_top_context(result), timing), sub,
			    sizeof(sub));
	if (!strcmp(timing, "batch"))
		print_batch_method(out, result, sub, raw);
	else
		fprintf(out, "timing: call, each call between two TSC reads (%s cycles of empty "
			"region per call %s)\n", sub,
			raw ? "included, not subtracted" : "subtracted");
}

/* a swept run.timing: each timing of the sweep's as its rows were timed */
static void print_timings(FILE *out, json_t *result)
{
	const char *swept = pcb_swept(result, K_RUN_TIMING);

	if (!swept) {
		print_timing(out, result, rj_sc_timing(rj_top_scenario(result)));
		return;
	}
	for (const char *p = swept; *p; p += strcspn(p, ","), p += *p == ',') {
		char t[16];

		p += strspn(p, " \t");
		snprintf(t, sizeof(t), "%.*s", (int)strcspn(p, ", \t"), p);
		print_timing(out, result, t);
	}
}

/* the keys of a sweep: the model's words and the settings above are the first configuration's */
static void print_sweep(FILE *out, json_t *result)
{
	json_t *sweep = rj_sc_sweep(rj_top_scenario(result)), *v;
	const char *key;
	int n = 0;

	json_object_foreach(sweep, key, v)
		fprintf(out, "%s%s = %s", n++ ? "; " : "swept: ", key,
			json_is_string(v) ? json_string_value(v) : "?");
	if (n)
		fprintf(out, " (a configuration a combination, named by its values; the model's "
			"words above are the first's)\n");
}

/* the instrument's primitives: cycles each, from the median of 127 regions */
static void print_primitives(FILE *out, json_t *prims)
{
	const char *name;
	json_t *v;
	int first = 1;

	fprintf(out, "primitives: cycles each (median region less the empty one, over its "
		"repeats):");
	json_object_foreach(prims, name, v) {
		fprintf(out, "%s %s %.1f", first ? "" : ",", name,
			json_is_number(v) ? json_number_value(v) : NAN);
		first = 0;
	}
	fprintf(out, "\n");
}

static void print_header(FILE *out, json_t *result)
{
	json_t *ctx = rj_top_context(result);
	json_t *sc = rj_top_scenario(result);
	const char *desc = pcb_setting(result, K_SCENARIO_DESCRIPTION);
	char runs[160], cycles[256], workers[160], dur[160];
	const char *ms = pcb_setting(result, K_RUN_OPS)[0] != '0' ? "?" :
			 pcb_swept_text(result, K_RUN_DURATION_MS,
					pcb_setting(result, K_RUN_DURATION_MS), dur, sizeof(dur));

	fprintf(out, "pcpbench %s: %s\n", rj_sc_name(sc), *desc && strcmp(desc, "?") ? desc : "");
	fprintf(out, "machine: %s, %" JSON_INTEGER_FORMAT " CPUs, %" JSON_INTEGER_FORMAT
		" NUMA node(s), kernel %s\n", rj_ctx_cpu_model(ctx), rj_ctx_cpus(ctx),
		rj_ctx_numa_nodes(ctx), rj_ctx_kernel(ctx));
	fprintf(out, "%s\n", pcb_cycles_text(result, cycles, sizeof(cycles)));
	print_untrustworthy(out, ctx);
	print_timings(out, result);
	if (rj_sc_has_timer(sc) && strcmp(rj_sc_timer(sc), "harness"))
		fprintf(out, "timer: %s, %s, seed 000's instrument\n", rj_sc_timer(sc),
			rj_sc_has_timer_insns(sc) ? rj_sc_timer_insns(sc) : "?");
	if (rj_ctx_has_complete(ctx) && !rj_ctx_complete(ctx))
		fprintf(out, "interrupted: the result has only the runs that finished "
			"(complete: false)\n");
	if (rj_ctx_has_instrumented(ctx)) {	/* the kernel's own code, not a model's */
		json_t *ib = rj_ctx_instrumented(ctx);

		fprintf(out, "kernel: %s (%s), booted on %s; its %s instrument, seed 000's "
			"(scripts/kernel.sh)\n", rj_ibe_variant(ib), rj_ibe_release(ib),
			rj_ibe_booted(ib), rj_ibe_instrument(ib));
		if (rj_ibe_has_primitives(ib))
			print_primitives(out, rj_ibe_primitives(ib));
		fprintf(out, "workers: CPU %s; %s; %s runs\n",
			pcb_swept_text(result, K_CPUS_WORKERS, rj_sc_workers(sc), workers,
				       sizeof(workers)),
			rj_ibe_workload(ib), pcb_runs_setting(result, runs, sizeof(runs)));
	} else if (rj_sc_has_configuration(sc))	/* the model's own words */
		fprintf(out, "workers: CPU %s; %s %s; %s runs of %s ms\n",
			pcb_swept_text(result, K_CPUS_WORKERS, rj_sc_workers(sc), workers,
				       sizeof(workers)),
			rj_sc_model(sc), rj_sc_configuration(sc),
			pcb_runs_setting(result, runs, sizeof(runs)), ms);
	else
		print_old_workers(out, result, ms);
	print_sweep(out, result);
	fprintf(out, "\n");
}

/* a design's invariant, cache, operations and drain work, in the model's words */
static void print_design_line(FILE *out, const struct pcb_model *m, json_t *dj)
{
	json_t *work = rj_design_work(dj);
	const char *inv = m ? m->invariant_name : "?", *cache = m ? m->cache_name : "?";
	const char *note_key = pcb_model_output(m).note_key;
	json_t *note = note_key ? json_object_get(dj, note_key) : NULL;

	fprintf(out, "%s: %s %s; %s %" JSON_INTEGER_FORMAT " bytes; %" JSON_INTEGER_FORMAT
		" operations", rj_design_design(dj),
		rj_design_has_invariant_name(dj) ? rj_design_invariant_name(dj) : inv,
		rj_design_invariant(dj),
		rj_design_has_cache_name(dj) ? rj_design_cache_name(dj) : cache,
		rj_design_cache_bytes(dj), rj_design_ops(dj));
	if (rj_work_queued(work))
		fprintf(out, "; drain work (%s) queued %" JSON_INTEGER_FORMAT ", ran %"
			JSON_INTEGER_FORMAT ", deferred %" JSON_INTEGER_FORMAT,
			rj_design_work_delivery(dj), rj_work_queued(work), rj_work_ran(work),
			rj_work_deferred(work));
	if (rj_work_queued(work) && rj_work_has_ran_on_cpu(work))
		fprintf(out, ", on its stock's CPU %" JSON_INTEGER_FORMAT ", on another %"
			JSON_INTEGER_FORMAT, rj_work_ran_on_cpu(work), rj_work_ran_elsewhere(work));
	/* what the model's setup() said of its implementation, under its note_key */
	if (note)
		fprintf(out, "; %s hooks: %s", note_key,
			json_is_string(note) ? json_string_value(note) : "?");
	if (rj_design_drains(dj))
		fprintf(out, "; drained: %s", rj_design_drain_promise(dj));
	if (rj_design_has_runs_target_met(dj))
		fprintf(out, "; %" JSON_INTEGER_FORMAT " runs (auto), %s", rj_design_runs(dj),
			rj_design_runs_target_met(dj) ? "every row within run.ci_target" :
			"run.max_runs reached before every row was within run.ci_target");
	fprintf(out, "\n");
}

int pcb_tables_print(FILE *out, json_t *result, char *err, size_t errlen)
{
	struct pcb_table_opts opts = { 0 };

	return pcb_tables_print_opts(out, result, &opts, err, errlen);
}

static int tables_print(FILE *out, json_t *result, const struct pcb_table_opts *opts,
			char *err, size_t errlen)
{
	json_t *designs = rj_top_designs(result);
	json_t *notes = rj_top_notes(result);
	json_t *dj;
	size_t i;

	/* a result just built has not been read back: it goes through the same check */
	if (rj_check(result, RJ_K_top, err, errlen) < 0)
		return -1;
	print_header(out, result);

	pcb_tables_functions(out, result, opts);

	pcb_tables_model(out, result);

	pcb_tables_drains(out, result);
	pcb_tables_contention(out, result);
	pcb_tables_interruptions(out, result);
	pcb_tables_scaling(out, result);

	json_array_foreach(designs, i, dj)
		pcb_tables_counters(out, result, dj);

	json_array_foreach(designs, i, dj)
		print_design_line(out, pcb_result_model(result), dj);
	json_array_foreach(notes, i, dj)
		fprintf(out, "note: %s\n", json_is_string(dj) ? json_string_value(dj) : "?");
	return 0;
}

int pcb_tables_print_opts(FILE *out, json_t *result, const struct pcb_table_opts *opts,
			  char *err, size_t errlen)
{
	FILE *t = pcb_text_stream(out);
	int rc = tables_print(t, result, opts, err, errlen);

	if (t != out)
		fclose(t);
	return rc;
}
