/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "../../scenario/scenario.h"
#include "../../schema/schema.h"
#include "query.h"
#include "rows.h"

const struct pcb_model *pcb_result_model(json_t *result)
{
	json_t *sc = rj_top_scenario(result);

	if (rj_sc_has_model(sc))
		return pcb_model_find(rj_sc_model(sc));
	for (int i = 0; pcb_models[i]; i++)
		if (pcb_model_output(pcb_models[i]).default_for_old_results)
			return pcb_models[i];
	return NULL;
}

const char *pcb_result_model_name(json_t *result)
{
	json_t *sc = rj_top_scenario(result);
	const struct pcb_model *m;

	if (rj_sc_has_model(sc))
		return rj_sc_model(sc);
	m = pcb_result_model(result);
	return m ? m->name : "?";
}

const char *pcb_result_drain_name(json_t *result)
{
	json_t *sc = rj_top_scenario(result);
	const struct pcb_model *m = pcb_result_model(result);

	if (rj_sc_has_drain_function(sc))
		return rj_sc_drain_function(sc);
	return m ? m->drain_name : "?";
}

const char *pcb_setting(json_t *result, int key)
{
	const struct pcb_key *k = pcb_key_get(key);
	char name[128];

	snprintf(name, sizeof(name), "%s.%s", k->section, k->name);
	return pcb_setting_named(result, name);
}

const char *pcb_setting_named(json_t *result, const char *name)
{
	/* scenario keys are declared in scenario/keys.c, each model's in its folder */
	json_t *settings = rj_sc_settings(rj_top_scenario(result));
	const char *s = json_string_value(json_object_get(settings, name));

	return s ? s : "?";
}

const char *pcb_swept(json_t *result, int key)
{
	const struct pcb_key *k = pcb_key_get(key);
	json_t *sweep = rj_sc_sweep(rj_top_scenario(result));
	char name[128];

	snprintf(name, sizeof(name), "%s.%s", k->section, k->name);
	return json_string_value(json_object_get(sweep, name));
}

double pcb_timer_overhead(json_t *ctx, const char *timing)
{
	int f = rj_find(RJ_K_tov, timing);

	return f < 0 ? 0 : rj_get_num(rj_ctx_timer_overhead(ctx), (enum rj_field)f);
}

void pcb_result_subtracted(json_t *result, double base, double *lo, double *hi)
{
	json_t *dj, *o;
	size_t i, j;
	int first = 1;

	*lo = *hi = base;
	json_array_foreach(rj_top_designs(result), i, dj)
		json_array_foreach(rj_design_overhead_ticks(dj), j, o) {
			double v = rj_ovh_has_subtracted(o) ? rj_ovh_subtracted(o) : rj_ovh_start(o);

			if (first || v < *lo)
				*lo = v;
			if (first || v > *hi)
				*hi = v;
			first = 0;
		}
}

int pcb_result_raw(json_t *result)
{
	json_t *sc = rj_top_scenario(result);

	if (rj_sc_has_means(sc))
		return !strcmp(rj_sc_means(sc), "raw");
	return rj_sc_has_timer(sc) && !strcmp(rj_sc_timer(sc), "kernel");
}

void pcb_result_set_raw(json_t *result)
{
	rj_set_sc_means(rj_top_scenario(result), "raw");
}

const char *pcb_means_word(int raw)
{
	return raw ? "raw" : "net";
}

json_t *pcb_design_row(json_t *result, const char *label)
{
	return pcb_row_where(rj_top_designs(result), RJ_F_design_design, label);
}

json_t *pcb_function_row(json_t *functions, const char *design, const char *fn)
{
	return pcb_row_where2(functions, RJ_F_fn_design, design, RJ_F_fn_function, fn);
}

size_t pcb_design_function_rows(json_t *functions, const char *design, json_t **out,
				size_t max)
{
	size_t i, n = 0;
	json_t *fj;

	json_array_foreach(pcb_rows_where(functions, RJ_F_fn_design, design), i, fj)
		if (n < max)
			out[n++] = fj;
	return n;
}

json_t *pcb_counter_row(json_t *result, const char *design, const char *event)
{
	size_t i;
	json_t *c;

	json_array_foreach(pcb_rows_where2(rj_top_counters(result), RJ_F_ctr_design, design,
					   RJ_F_ctr_event, event), i, c)
		if (!strcmp(rj_ctr_thread(c), "all"))
			return c;
	return NULL;
}

int pcb_design_interruptions(json_t *result, const char *design, json_int_t *count,
			     double *max_ns)
{
	size_t i;
	json_t *x;
	int any = 0;

	*count = 0;
	*max_ns = 0;
	json_array_foreach(pcb_rows_where(rj_top_interruptions(result), RJ_F_irq_design, design),
			   i, x) {
		any = 1;
		*count += rj_irq_has_count(x) ? rj_irq_count(x) : 0;
		if (rj_irq_has_max_ns(x) && rj_irq_max_ns(x) > *max_ns)
			*max_ns = rj_irq_max_ns(x);
	}
	return any;
}

int pcb_run_means(json_t *fj, int raw, double *v, int max)
{
	json_t *r;
	size_t i;
	int n = 0;

	json_array_foreach(rj_fn_runs(fj), i, r)
		if (n < max)
			v[n++] = raw ? rj_fnrun_raw_avg_cycles(r) : rj_fnrun_avg_cycles(r);
	return n;
}

double pcb_fn_mean(json_t *fj, int raw)
{
	return raw ? rj_fn_raw_avg_cycles(fj) : rj_fn_avg_cycles(fj);
}

double pcb_fn_stddev(json_t *fj, int raw)
{
	return raw ? rj_fn_raw_stddev(fj) : rj_fn_stddev(fj);
}

double pcb_fn_resolution(json_t *fj, double step)
{
	double calls = (double)rj_fn_calls(fj), regions = (double)rj_fn_regions(fj);

	return calls > 0 && regions > 0 ? step * regions / calls : 0;
}

/* a design's drains as a function row, under the drain function's kernel name */
static json_t *drain_as_function(json_t *x, const char *drain)
{
	json_t *o;

	if (!rj_drain_has_avg_cycles(x) || !rj_drain_has_stddev(x))
		return NULL;
	o = json_object();
	json_object_set(o, rj_name(RJ_F_fn_design), rj_get(x, RJ_F_drain_design));
	rj_set_fn_function(o, drain);
	rj_set_fn_timing(o, "call");
	json_object_set(o, rj_name(RJ_F_fn_avg_cycles), rj_get(x, RJ_F_drain_avg_cycles));
	json_object_set(o, rj_name(RJ_F_fn_stddev), rj_get(x, RJ_F_drain_stddev));
	json_object_set(o, rj_name(RJ_F_fn_calls), rj_get(x, RJ_F_drain_count));
	return o;
}

json_t *pcb_function_and_drain_rows(json_t *result)
{
	json_t *out = json_array(), *x, *sc = rj_top_scenario(result);
	const char *drain = rj_sc_has_drain_function(sc) ? rj_sc_drain_function(sc) : "drain";
	size_t i;

	json_array_foreach(rj_top_functions(result), i, x)
		json_array_append(out, x);
	json_array_foreach(rj_top_drains(result), i, x)
		if (rj_drain_count(x) > 0)
			json_array_append_new(out, drain_as_function(x, drain));
	return out;
}
