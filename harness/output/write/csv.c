/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "../read/diffs.h"
#include "../read/query.h"
#include "columns.h"
#include "csv.h"

/*
 * a figure of a result's CSV: 4 decimals; a label quoted only where it
 * holds a comma or a quote, or begins as a formula would (columns.c)
 */
static const struct pcb_cells result_cells = { .sep = ',', .decimals = 4,
					       .flags = PCB_CELLS_QUOTE };

static const struct pcb_column functions_cols[] = {
	{ RJ_F_fn_design }, { RJ_F_fn_function }, { RJ_F_fn_timing }, { RJ_F_fn_avg_cycles },
	{ RJ_F_fn_stddev }, { RJ_F_fn_calls }, { RJ_F_fn_p50 }, { RJ_F_fn_p99 },
	{ RJ_F_fn_p999 }, { RJ_F_fn_max },
	{ RJ_F_fn_cv_pct, .flags = PCB_COL_OPT }, { RJ_F_fn_unstable, .flags = PCB_COL_OPT },
};

static const struct pcb_column raw_functions_cols[] = {
	{ RJ_F_fn_design }, { RJ_F_fn_function }, { RJ_F_fn_timing }, { RJ_F_fn_raw_avg_cycles },
	{ RJ_F_fn_raw_stddev }, { RJ_F_fn_calls }, { RJ_F_fn_p50 }, { RJ_F_fn_p99 },
	{ RJ_F_fn_p999 }, { RJ_F_fn_max },
	{ RJ_F_fn_cv_pct, .flags = PCB_COL_OPT }, { RJ_F_fn_unstable, .flags = PCB_COL_OPT },
};

static const struct pcb_column runs_cols[] = {
	{ RJ_F_fn_design }, { RJ_F_fn_function }, { RJ_F_fn_timing },
	{ PCB_COL_INDEX, "run" }, { RJ_F_fnrun_avg_cycles }, { RJ_F_fnrun_calls },
};

static const struct pcb_column raw_runs_cols[] = {
	{ RJ_F_fn_design }, { RJ_F_fn_function }, { RJ_F_fn_timing },
	{ PCB_COL_INDEX, "run" }, { RJ_F_fnrun_raw_avg_cycles }, { RJ_F_fnrun_calls },
};

/* a difference as the tables' Diff blocks print it, and what they do not: the cycles' interval */
#define DIFF(f) { RJ_F_diff_##f, .flags = PCB_COL_OPT }
static const struct pcb_column diffs_cols[] = {
	{ RJ_F_diff_design }, { RJ_F_diff_baseline }, { RJ_F_diff_function }, { RJ_F_diff_means },
	{ RJ_F_diff_diff_cycles }, DIFF(diff_pct), DIFF(ci_level), DIFF(ci_low_cycles),
	DIFF(ci_high_cycles), DIFF(ci_low_pct), DIFF(ci_high_pct), DIFF(p_value), DIFF(p_holm),
	DIFF(significant),
};
#undef DIFF

static const struct pcb_column histogram_cols[] = {
	{ RJ_F_fn_design }, { RJ_F_fn_function }, { RJ_F_fn_timing },
	{ PCB_COL_ITEM0, "cycles_lower" }, { PCB_COL_ITEM1, "count" },
};

static const struct pcb_column counters_cols[] = {
	{ RJ_F_ctr_design }, { RJ_F_ctr_thread }, { RJ_F_ctr_event }, { RJ_F_ctr_status },
	{ RJ_F_ctr_value }, { RJ_F_ctr_enabled_ns }, { RJ_F_ctr_running_ns },
};

static const struct pcb_column drains_cols[] = {
	{ RJ_F_drain_design }, { RJ_F_drain_design_name }, { RJ_F_drain_caches },
	{ RJ_F_drain_count }, { RJ_F_drain_avg_cycles }, { RJ_F_drain_stddev },
	{ RJ_F_drain_completion_p50 }, { RJ_F_drain_completion_p99 },
	{ RJ_F_drain_cv_pct, .flags = PCB_COL_OPT }, { RJ_F_drain_unstable, .flags = PCB_COL_OPT },
};

/* a contended or timed lock: what the row has, as it was written */
#define CONT(f) { RJ_F_cont_##f, .flags = PCB_COL_OPT | PCB_COL_ASIS }
static const struct pcb_column contention_cols[] = {
	{ RJ_F_cont_design }, CONT(function), CONT(side), CONT(calls), CONT(contended),
	CONT(wait_avg_cycles), CONT(wait_max_cycles), CONT(held), CONT(hold_avg_cycles),
	CONT(hold_max_cycles),
};
#undef CONT

const struct pcb_csv_table pcb_result_csv[] = {
	{ "functions.csv", RJ_F_top_functions, -1, PCB_COLUMNS(functions_cols),
	  PCB_COLUMNS(raw_functions_cols) },
	{ "runs.csv", RJ_F_top_functions, RJ_F_fn_runs, PCB_COLUMNS(runs_cols),
	  PCB_COLUMNS(raw_runs_cols) },
	{ "histogram.csv", RJ_F_top_functions, RJ_F_fn_histogram, PCB_COLUMNS(histogram_cols) },
	{ "counters.csv", RJ_F_top_counters, -1, PCB_COLUMNS(counters_cols) },
	{ "drains.csv", RJ_F_top_drains, -1, PCB_COLUMNS(drains_cols) },
	{ "contention.csv", RJ_F_top_contention, -1, PCB_COLUMNS(contention_cols) },
	{ "diffs.csv", RJ_F_NR, -1, PCB_COLUMNS(diffs_cols), .made = pcb_result_diffs_json },
};

const int pcb_nr_result_csv = sizeof(pcb_result_csv) / sizeof(pcb_result_csv[0]);

/* row x's own rows (sub), each a row of the table */
static void sub_rows(FILE *f, struct pcb_row *r, json_t *x, enum rj_field sub,
		     const struct pcb_columns *cols)
{
	enum rj_kind kind = rj_fields[sub].rows;
	json_t *y;
	size_t j;

	json_array_foreach(rj_get(x, sub), j, y) {
		r->index = j + 1;
		if (rj_fields[sub].type == RJ_ROWS)
			r->obj[kind] = y;
		else
			r->item = y;
		pcb_columns_row(f, cols, r, &result_cells);
	}
}

void pcb_csv_write(FILE *f, json_t *result, const struct pcb_csv_table *t)
{
	const struct pcb_columns *cols = t->raw_cols.n && pcb_result_raw(result) ? &t->raw_cols :
					 &t->cols;
	json_t *rows = t->made ? t->made(result) : json_incref(rj_get(result, t->rows)), *x;
	/* a made row's kind: its first column's */
	enum rj_kind kind = t->made ? rj_fields[cols->col[0].field].kind :
			    rj_fields[t->rows].rows;
	size_t i;

	pcb_columns_header(f, cols, ',');
	json_array_foreach(rows, i, x) {
		struct pcb_row r = { .index = i + 1 };

		r.obj[kind] = x;
		if (t->sub < 0)
			pcb_columns_row(f, cols, &r, &result_cells);
		else
			sub_rows(f, &r, x, (enum rj_field)t->sub, cols);
	}
	json_decref(rows);
}

/* a row a node and function: the design's name and configuration from its entry */
static const struct pcb_column nodes_cols[] = {
	{ PCB_COL_NODE, "node" },
	{ RJ_F_design_design_name, "design", PCB_COL_ALT, RJ_F_fn_design },
	{ RJ_F_design_config, .flags = PCB_COL_OPT }, { RJ_F_fn_function }, { RJ_F_fn_timing },
	{ RJ_F_fn_avg_cycles }, { RJ_F_fn_stddev }, { RJ_F_fn_calls },
};

/* a raw result's: a drain's row has its net figure, as drains are timed */
static const struct pcb_column raw_nodes_cols[] = {
	{ PCB_COL_NODE, "node" },
	{ RJ_F_design_design_name, "design", PCB_COL_ALT, RJ_F_fn_design },
	{ RJ_F_design_config, .flags = PCB_COL_OPT }, { RJ_F_fn_function }, { RJ_F_fn_timing },
	{ RJ_F_fn_raw_avg_cycles, NULL, PCB_COL_ALT, RJ_F_fn_avg_cycles },
	{ RJ_F_fn_raw_stddev, NULL, PCB_COL_ALT, RJ_F_fn_stddev }, { RJ_F_fn_calls },
};

static const struct pcb_columns nodes_columns[2] = {
	PCB_COLUMNS(nodes_cols), PCB_COLUMNS(raw_nodes_cols),
};

const char *pcb_nodes_csv_header(void)
{
	static char buf[256];

	return buf[0] ? buf : pcb_columns_header_text(&nodes_columns[0], buf, sizeof(buf));
}

void pcb_nodes_csv(FILE *out, json_t *const *results, const int *nodes, int n)
{
	const struct pcb_columns *cols = &nodes_columns[n > 0 && pcb_result_raw(results[0])];

	pcb_columns_header(out, cols, ',');
	for (int k = 0; k < n; k++) {
		json_t *fj, *all = pcb_function_and_drain_rows(results[k]);
		size_t i;

		json_array_foreach(all, i, fj) {
			struct pcb_row r = { .node = nodes[k] };

			r.obj[RJ_K_fn] = fj;
			r.obj[RJ_K_design] = pcb_design_row(results[k], rj_fn_design(fj));
			pcb_columns_row(out, cols, &r, &result_cells);
		}
		json_decref(all);
	}
}

/*
 * compare's rows: quoted where a label needs it, empty where result 0 has
 * no difference; the Diff %'s interval (and its level) the tables print,
 * empty where it is unbounded or untested
 */
#define OPT(f) { RJ_F_cmprow_##f, .flags = PCB_COL_OPT }
#define COMPARE_COLS(avg, sd)									\
	{ RJ_F_cmprow_design }, { RJ_F_cmprow_config }, { RJ_F_cmprow_function },		\
	{ RJ_F_cmprow_result }, { RJ_F_cmprow_label }, { RJ_F_cmprow_##avg },			\
	{ RJ_F_cmprow_##sd }, { RJ_F_cmprow_runs }, OPT(diff_cycles), OPT(diff_pct),		\
	OPT(significant), OPT(test), OPT(ci_level), OPT(ci_low_pct), OPT(ci_high_pct)
static const struct pcb_column compare_cols[] = { COMPARE_COLS(avg_cycles, stddev) };
static const struct pcb_column raw_compare_cols[] = { COMPARE_COLS(raw_avg_cycles, raw_stddev) };
#undef COMPARE_COLS
#undef OPT

static const struct pcb_columns compare_columns[2] = {
	PCB_COLUMNS(compare_cols), PCB_COLUMNS(raw_compare_cols),
};

const char *pcb_compare_csv_header(void)
{
	static char buf[256];

	return buf[0] ? buf : pcb_columns_header_text(&compare_columns[0], buf, sizeof(buf));
}

void pcb_compare_csv(FILE *out, json_t *cmp)
{
	static const struct pcb_cells cells = { ',', 4, PCB_CELLS_QUOTE };
	int raw = rj_cmp_has_means(cmp) && !strcmp(rj_cmp_means(cmp), "raw");
	json_t *row;
	size_t i;

	pcb_columns_header(out, &compare_columns[raw], ',');
	json_array_foreach(rj_cmp_rows(cmp), i, row) {
		struct pcb_row r = { .index = i + 1 };

		r.obj[RJ_K_cmprow] = row;
		pcb_columns_row(out, &compare_columns[raw], &r, &cells);
	}
}
