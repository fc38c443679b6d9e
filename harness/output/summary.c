/* SPDX-License-Identifier: MIT */
/*
 * The per-node summary of run --each-node: one row per node and function,
 * one column per design (and configuration), so that a node that differs
 * shows at a glance (nodes.txt), and the same figures as nodes.csv.
 */
#include <stdio.h>
#include <string.h>

#include "summary.h"
#include "tables.h"

/* a design label's name and configuration, from result.json's designs */
static void design_of(json_t *result, const char *label, const char **name, const char **config)
{
	json_t *dj;
	size_t i;

	*name = label;
	*config = "";
	json_array_foreach(rj_top_designs(result), i, dj)
		if (rj_design_has_design(dj) && !strcmp(label, rj_design_design(dj))) {
			*name = rj_design_has_design_name(dj) ? rj_design_design_name(dj) : label;
			*config = rj_design_has_config(dj) ? rj_design_config(dj) : "";
		}
}

/* a design's drains as a function row, under the drain function's kernel name */
static json_t *drain_row(json_t *x, const char *drain)
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

/* a result's rows: every function, then each design's drain, when it drained */
static json_t *rows(json_t *result)
{
	json_t *out = json_array(), *x, *sc = rj_top_scenario(result);
	const char *drain = rj_sc_has_drain_function(sc) ? rj_sc_drain_function(sc) : "drain";
	size_t i;

	json_array_foreach(rj_top_functions(result), i, x)
		json_array_append(out, x);
	json_array_foreach(rj_top_drains(result), i, x)
		if (rj_drain_count(x) > 0)
			json_array_append_new(out, drain_row(x, drain));
	return out;
}

void pcb_nodes_csv(FILE *out, json_t *const *results, const int *nodes, int n)
{
	fputs(PCB_NODES_HEADER "\n", out);
	for (int k = 0; k < n; k++) {
		json_t *fj, *all = rows(results[k]);
		size_t i;

		json_array_foreach(all, i, fj) {
			const char *name, *config;

			design_of(results[k], rj_fn_design(fj), &name, &config);
			fprintf(out, "%d,%s,%s,%s,%s,%.4f,%.4f,%" JSON_INTEGER_FORMAT "\n", nodes[k],
				name, config, rj_fn_function(fj), rj_fn_timing(fj), rj_fn_avg_cycles(fj),
				rj_fn_stddev(fj), rj_fn_calls(fj));
		}
		json_decref(all);
	}
}

void pcb_nodes_table(FILE *out, json_t *const *results, const int *nodes, int n)
{
	/* the columns and the functions, in the first result's order */
	json_t *labels = json_array(), *fns = json_array(), *all[n], *fj;
	size_t i, j;
	int width = 20;

	for (int k = 0; k < n; k++)
		all[k] = rows(results[k]);
	for (int k = 0; k < n; k++)
		json_array_foreach(all[k], i, fj) {
			json_t *l = rj_get(fj, RJ_F_fn_design), *f = rj_get(fj, RJ_F_fn_function), *x;
			int seen_l = 0, seen_f = 0;

			json_array_foreach(labels, j, x)
				seen_l |= json_equal(x, l);
			json_array_foreach(fns, j, x)
				seen_f |= json_equal(x, f);
			if (!seen_l)
				json_array_append(labels, l);
			if (!seen_f)
				json_array_append(fns, f);
		}
	json_array_foreach(labels, i, fj)
		if ((int)strlen(json_string_value(fj)) + 2 > width)
			width = (int)strlen(json_string_value(fj)) + 2;
	fprintf(out, "Average clk per node (%s timing; drains per call)\n",
		rj_fn_timing(json_array_get(all[0], 0)));
	fprintf(out, "%-6s%-20s", "node", "function");
	json_array_foreach(labels, i, fj)
		fprintf(out, "%-*s", width, json_string_value(fj));
	fprintf(out, "\n");
	for (int k = 0; k < n; k++) {
		json_t *f;

		json_array_foreach(fns, j, f) {
			char fn[32];

			snprintf(fn, sizeof(fn), "%s:", json_string_value(f));
			fprintf(out, "%-6d%-20s", nodes[k], fn);
			json_array_foreach(labels, i, fj) {
				json_t *row = find_function(all[k], json_string_value(fj), json_string_value(f));
				char v[32] = "-";

				if (row)
					snprintf(v, sizeof(v), "%.2f", rj_fn_avg_cycles(row));
				fprintf(out, "%-*s", width, v);
			}
			fprintf(out, "\n");
		}
	}
	for (int k = 0; k < n; k++)
		json_decref(all[k]);
	json_decref(labels);
	json_decref(fns);
}
