/* SPDX-License-Identifier: MIT */
/*
 * The per-node summary of run --each-node: one row per node and function,
 * one column per design (and configuration), so that a node that differs
 * shows at a glance (nodes.txt; write/csv.c writes the same as nodes.csv);
 * then whether each node's run had its memory on that node.
 */
#include <stdio.h>
#include <string.h>

#include "../../schema/schema.h"
#include "../read/query.h"
#include "layout.h"
#include "nodes.h"

void pcb_nodes_table(FILE *out, json_t *const *results, const int *nodes, int n)
{
	/* the columns and the functions, in the first result's order */
	json_t *labels = json_array(), *fns = json_array(), *all[n], *fj;
	int width = 20, raw = n > 0 && pcb_result_raw(results[0]);
	size_t i, j;

	for (int k = 0; k < n; k++)
		all[k] = pcb_function_and_drain_rows(results[k]);
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
	fprintf(out, "%s per node (%s timing; drains per call%s)\n", pcb_mean_head(raw),
		rj_fn_timing(json_array_get(all[0], 0)), raw ? ", net as drains are timed" : "");
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
				json_t *row = pcb_function_row(all[k], json_string_value(fj),
							json_string_value(f));
				char v[32] = "-";

				if (row)
					snprintf(v, sizeof(v), "%.2f", pcb_fn_mean(row, raw &&
						 rj_fn_has_raw_avg_cycles(row)));
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

/* of one node's run: its workers' caches, and its designs' drain targets, on that node */
static void node_memory(json_t *result, int node, int count[4])
{
	json_t *dj, *wj;
	size_t i, j;

	json_array_foreach(rj_top_designs(result), i, dj) {
		json_array_foreach(rj_design_workers(dj), j, wj) {
			count[0] += rj_worker_has_cache_node(wj) && rj_worker_cache_node(wj) == node;
			count[1]++;
		}
		if (rj_design_has_target_node(dj)) {
			count[2] += rj_design_target_node(dj) == node;
			count[3]++;
		}
	}
}

void pcb_nodes_memory(FILE *out, json_t *const *results, const int *nodes, int n)
{
	json_t *d0 = n ? json_array_get(rj_top_designs(results[0]), 0) : NULL;
	const char *cache = d0 && rj_design_has_cache_name(d0) ? rj_design_cache_name(d0) : "cache";
	const char *target = d0 && rj_design_has_target_name(d0) ? rj_design_target_name(d0) :
			     "drain target";

	if (!d0)
		return;
	fprintf(out, "\nOn the run's node, as move_pages(2) finds them: each worker's %s, each "
		"design's %s\n", cache, target);
	fprintf(out, "%-6s%-20s%-20s\n", "node", cache, target);
	for (int k = 0; k < n; k++) {
		int c[4] = { 0 };
		char a[32], b[32] = "-";

		node_memory(results[k], nodes[k], c);
		snprintf(a, sizeof(a), "%d of %d", c[0], c[1]);
		if (c[3])
			snprintf(b, sizeof(b), "%d of %d", c[2], c[3]);
		fprintf(out, "%-6d%-20s%-20s\n", nodes[k], a, b);
	}
}
