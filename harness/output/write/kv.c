/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "../../schema/schema.h"
#include "../read/diffs.h"
#include "../read/query.h"
#include "columns.h"
#include "kv.h"

/* the stats of a row: "<design>.<part>.<column>", part a word then fields' values */
struct kv_table {
	enum rj_field rows;		/* the result's array */
	enum rj_field design;		/* its rows' design */
	const char *part;
	enum rj_field part_field[2];	/* after part, each with a space before */
	int nr_part_fields;
	struct pcb_columns cols;
	struct pcb_columns raw_cols;	/* a raw result's, where they differ */
};

/* a stat is written where the row has its figure; a raw result's means under raw_ names */
static const struct pcb_column fn_cols[] = {
	{ RJ_F_fn_avg_cycles }, { RJ_F_fn_stddev }, { RJ_F_fn_p99 }, { RJ_F_fn_interrupted },
};
static const struct pcb_column raw_fn_cols[] = {
	{ RJ_F_fn_raw_avg_cycles }, { RJ_F_fn_raw_stddev }, { RJ_F_fn_p99 },
	{ RJ_F_fn_interrupted },
};
/* a design's difference from its baseline in a function, as the Diff blocks print it */
static const struct pcb_column diff_cols[] = {
	{ RJ_F_diff_diff_cycles }, { RJ_F_diff_diff_pct }, { RJ_F_diff_ci_low_pct },
	{ RJ_F_diff_ci_high_pct }, { RJ_F_diff_significant },
};
static const struct pcb_column drain_cols[] = {
	{ RJ_F_drain_avg_cycles }, { RJ_F_drain_completion_p99 }, { RJ_F_drain_wake_cycles },
};
static const struct pcb_column cont_cols[] = {
	{ RJ_F_cont_contended }, { RJ_F_cont_hold_avg_cycles },
};
/* a design's interruptions over its workers: their count and the longest */
static const struct pcb_column irq_cols[] = {
	{ RJ_F_irq_count }, { RJ_F_irq_max_ns, .flags = PCB_COL_WHOLE },
};

static const struct kv_table kv_tables[] = {
	{ RJ_F_top_functions, RJ_F_fn_design, "", { RJ_F_fn_function }, 1,
	  PCB_COLUMNS(fn_cols), PCB_COLUMNS(raw_fn_cols) },
	{ RJ_F_top_drains, RJ_F_drain_design, "drain", { 0 }, 0, PCB_COLUMNS(drain_cols) },
	{ RJ_F_top_contention, RJ_F_cont_design, "contention",
	  { RJ_F_cont_function, RJ_F_cont_side }, 2, PCB_COLUMNS(cont_cols) },
};

/* "<design>.<part>" sanitized */
static void stat_prefix(const char *design, const char *part, char *buf, size_t len)
{
	char d[256], p[256];

	pcb_kv_name(design, d, sizeof(d));
	pcb_kv_name(part, p, sizeof(p));
	snprintf(buf, len, "%s%s%s", d, *p ? "." : "", p);
}

/* a stat a column of row x of t, of a result read raw or not */
static void kv_row(FILE *out, const struct kv_table *t, json_t *x, int raw)
{
	struct pcb_row r = { 0 };
	char part[300], n[600];
	size_t at = (size_t)snprintf(part, sizeof(part), "%s", t->part);

	for (int k = 0; k < t->nr_part_fields && at < sizeof(part); k++) {
		json_t *v = rj_get(x, t->part_field[k]);

		at += (size_t)snprintf(part + at, sizeof(part) - at, " %s",
				       json_is_string(v) ? json_string_value(v) : "");
	}
	stat_prefix(rj_get_str(x, t->design), part, n, sizeof(n));
	r.obj[rj_fields[t->rows].rows] = x;
	pcb_columns_stats(out, n, raw && t->raw_cols.n ? &t->raw_cols : &t->cols, &r, 3);
}

/* "<design>.<function>.diff_pct: 535.560" ...: each difference from the design's baseline */
static void kv_diffs(FILE *out, json_t *result)
{
	static const struct pcb_columns cols = PCB_COLUMNS(diff_cols);
	json_t *diffs = pcb_result_diffs_json(result), *x;
	size_t i;

	json_array_foreach(diffs, i, x) {
		struct pcb_row r = { 0 };
		char n[600];

		r.obj[RJ_K_diff] = x;
		stat_prefix(rj_diff_design(x), rj_diff_function(x), n, sizeof(n));
		pcb_columns_stats(out, n, &cols, &r, 3);
	}
	json_decref(diffs);
}

static void kv_interruptions(FILE *out, json_t *result)
{
	static const struct pcb_columns cols = PCB_COLUMNS(irq_cols);
	size_t i;
	json_t *dj;

	json_array_foreach(rj_top_designs(result), i, dj) {
		struct pcb_row r = { 0 };
		json_int_t count;
		double max;
		char n[600];

		if (!pcb_design_interruptions(result, rj_design_design(dj), &count, &max))
			continue;
		r.obj[RJ_K_irq] = json_object();
		rj_set_irq_count(r.obj[RJ_K_irq], count);
		rj_set_irq_max_ns(r.obj[RJ_K_irq], max);
		stat_prefix(rj_design_design(dj), "interruptions", n, sizeof(n));
		pcb_columns_stats(out, n, &cols, &r, 3);
		json_decref(r.obj[RJ_K_irq]);
	}
}

/* LKP counts a stat ending in .fail as a failure */
static void kv_invariants(FILE *out, json_t *result)
{
	size_t i;
	json_t *dj;

	json_array_foreach(rj_top_designs(result), i, dj) {
		char n[600];

		if (!rj_design_has_invariant(dj) || !strcmp(rj_design_invariant(dj), "ok"))
			continue;
		stat_prefix(rj_design_design(dj), "invariant", n, sizeof(n));
		fprintf(out, "%s.fail: 1\n", n);
	}
}

void pcb_kv_print(FILE *out, json_t *result)
{
	int raw = pcb_result_raw(result);

	for (size_t t = 0; t < sizeof(kv_tables) / sizeof(kv_tables[0]); t++) {
		json_t *x;
		size_t i;

		json_array_foreach(rj_get(result, kv_tables[t].rows), i, x)
			kv_row(out, &kv_tables[t], x, raw);
	}
	kv_diffs(out, result);
	kv_interruptions(out, result);
	kv_invariants(out, result);
}

/*
 * a run mean: names as stats have them, the design's name and configuration
 * from its entry; raw where the result is read raw
 */
#define MMTESTS_COLS(mean)									\
	{ RJ_F_fn_function }, { RJ_F_design_design_name, NULL, PCB_COL_ALT, RJ_F_fn_design },	\
	{ RJ_F_design_config, .flags = PCB_COL_OPT }, { PCB_COL_INDEX, "run" }, { mean }
static const struct pcb_column mmtests_cols[] = { MMTESTS_COLS(RJ_F_fnrun_avg_cycles) };
static const struct pcb_column raw_mmtests_cols[] = { MMTESTS_COLS(RJ_F_fnrun_raw_avg_cycles) };
#undef MMTESTS_COLS

void pcb_mmtests_print(FILE *out, json_t *result)
{
	static const struct pcb_columns both[2] = {
		PCB_COLUMNS(mmtests_cols), PCB_COLUMNS(raw_mmtests_cols),
	};
	const struct pcb_columns cols = both[pcb_result_raw(result)];
	static const struct pcb_cells cells = { '\t', 3, PCB_CELLS_NAMES };
	size_t i, j;
	json_t *fj, *run;

	json_array_foreach(rj_top_functions(result), i, fj) {
		struct pcb_row r = { 0 };

		r.obj[RJ_K_fn] = fj;
		r.obj[RJ_K_design] = pcb_design_row(result, rj_fn_design(fj));
		json_array_foreach(rj_fn_runs(fj), j, run) {
			r.obj[RJ_K_fnrun] = run;
			r.index = j + 1;
			pcb_columns_row(out, &cols, &r, &cells);
		}
	}
}
