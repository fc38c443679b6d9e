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
	json_array_foreach(json_object_get(result, "designs"), i, dj)
		if (!strcmp(label, json_string_value(json_object_get(dj, "design")) ?: "")) {
			*name = json_string_value(json_object_get(dj, "design_name")) ?: label;
			*config = json_string_value(json_object_get(dj, "config")) ?: "";
		}
}

/*
 * A result's rows: every function, then each design's drain under the
 * drain function's name (drain_all_stock, drain_all_pages), when it drained.
 */
static json_t *rows(json_t *result)
{
	json_t *out = json_array(), *x;
	const char *drain = json_string_value(json_object_get(json_object_get(result, "scenario"),
							       "drain_function"));
	size_t i;

	json_array_foreach(json_object_get(result, "functions"), i, x)
		json_array_append(out, x);
	json_array_foreach(json_object_get(result, "drains"), i, x)
		if (json_integer_value(json_object_get(x, "count")) > 0)
			json_array_append_new(out, json_pack("{s:O,s:s,s:s,s:O,s:O,s:O}",
				"design", json_object_get(x, "design"),
				"function", drain ? drain : "drain",
				"timing", "call",
				"avg_cycles", json_object_get(x, "avg_cycles"),
				"stddev", json_object_get(x, "stddev"),
				"calls", json_object_get(x, "count")));
	return out;
}

void pcb_nodes_csv(FILE *out, json_t *const *results, const int *nodes, int n)
{
	fputs(PCB_NODES_HEADER "\n", out);
	for (int k = 0; k < n; k++) {
		json_t *fj, *all = rows(results[k]);
		size_t i;

		json_array_foreach(all, i, fj) {
			const char *label = json_string_value(json_object_get(fj, "design"));
			const char *name, *config;

			design_of(results[k], label, &name, &config);
			fprintf(out, "%d,%s,%s,%s,%s,%.4f,%.4f,%" JSON_INTEGER_FORMAT "\n", nodes[k],
				name, config, json_string_value(json_object_get(fj, "function")),
				json_string_value(json_object_get(fj, "timing")),
				json_number_value(json_object_get(fj, "avg_cycles")),
				json_number_value(json_object_get(fj, "stddev")),
				json_integer_value(json_object_get(fj, "calls")));
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
			json_t *l = json_object_get(fj, "design"), *f = json_object_get(fj, "function"), *x;
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
		json_string_value(json_object_get(json_array_get(all[0], 0), "timing")) ?: "?");
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
					snprintf(v, sizeof(v), "%.2f",
						 json_number_value(json_object_get(row, "avg_cycles")));
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
