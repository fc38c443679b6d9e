/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "../../schema/schema.h"
#include "../read/query.h"
#include "csv.h"

const char *const pcb_result_csv_file[PCB_NR_RESULT_CSV] = {
	"functions.csv", "runs.csv", "histogram.csv", "counters.csv", "drains.csv",
	"contention.csv",
};

/* a CSV header of result.json's names */
static void csv_header(FILE *f, const enum rj_field *cols, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", rj_name(cols[i]));
	fputc('\n', f);
}

/* a row's noise gate, ",cv_pct,unstable" (1 or 0), empty for a result without it */
static void noise_csv(FILE *f, json_t *cv, json_t *unstable)
{
	if (json_is_number(cv))
		fprintf(f, ",%.4f", json_number_value(cv));
	else
		fputc(',', f);
	if (json_is_boolean(unstable))
		fprintf(f, ",%d\n", json_is_true(unstable));
	else
		fputs(",\n", f);
}

/* functions.csv, runs.csv and histogram.csv: a row a function, run and bucket */
static void functions_csv(json_t *result, FILE *f, FILE *r, FILE *h)
{
	static const enum rj_field cols[] = {
		RJ_F_fn_design, RJ_F_fn_function, RJ_F_fn_timing, RJ_F_fn_avg_cycles,
		RJ_F_fn_stddev, RJ_F_fn_calls, RJ_F_fn_p50, RJ_F_fn_p99, RJ_F_fn_p999, RJ_F_fn_max,
		RJ_F_fn_cv_pct, RJ_F_fn_unstable,
	};
	json_t *fj;
	size_t i;

	csv_header(f, cols, sizeof(cols) / sizeof(cols[0]));
	fprintf(r, "design,function,timing,run,avg_cycles,calls\n");
	fprintf(h, "design,function,timing,cycles_lower,count\n");
	json_array_foreach(rj_top_functions(result), i, fj) {
		const char *d = rj_fn_design(fj), *fn = rj_fn_function(fj), *tm = rj_fn_timing(fj);
		json_t *x;
		size_t j;

		fprintf(f, "%s,%s,%s,%.4f,%.4f,%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT
			",%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT,
			d, fn, tm, rj_fn_avg_cycles(fj), rj_fn_stddev(fj), rj_fn_calls(fj),
			rj_fn_p50(fj), rj_fn_p99(fj), rj_fn_p999(fj), rj_fn_max(fj));
		noise_csv(f, rj_get(fj, RJ_F_fn_cv_pct), rj_get(fj, RJ_F_fn_unstable));
		json_array_foreach(rj_fn_runs(fj), j, x)
			fprintf(r, "%s,%s,%s,%zu,%.4f,%" JSON_INTEGER_FORMAT "\n", d, fn, tm, j + 1,
				rj_fnrun_avg_cycles(x), rj_fnrun_calls(x));
		json_array_foreach(rj_fn_histogram(fj), j, x)
			fprintf(h, "%s,%s,%s,%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT "\n",
				d, fn, tm, json_integer_value(json_array_get(x, 0)),
				json_integer_value(json_array_get(x, 1)));
	}
}

static void drains_csv(json_t *result, FILE *dr)
{
	static const enum rj_field cols[] = {
		RJ_F_drain_design, RJ_F_drain_design_name, RJ_F_drain_caches, RJ_F_drain_count,
		RJ_F_drain_avg_cycles, RJ_F_drain_stddev, RJ_F_drain_completion_p50,
		RJ_F_drain_completion_p99, RJ_F_drain_cv_pct, RJ_F_drain_unstable,
	};
	json_t *x;
	size_t i;

	csv_header(dr, cols, sizeof(cols) / sizeof(cols[0]));
	json_array_foreach(rj_top_drains(result), i, x) {
		fprintf(dr, "%s,%s,%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ",%.4f,%.4f,%"
			JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT, rj_drain_design(x),
			rj_drain_design_name(x), rj_drain_caches(x), rj_drain_count(x),
			rj_drain_avg_cycles(x), rj_drain_stddev(x), rj_drain_completion_p50(x),
			rj_drain_completion_p99(x));
		noise_csv(dr, rj_get(x, RJ_F_drain_cv_pct), rj_get(x, RJ_F_drain_unstable));
	}
}

/* a count or a figure of a row, empty where the row has none (an older result's) */
static void csv_opt(FILE *f, json_t *row, enum rj_field field, const char *end)
{
	json_t *v = rj_get(row, field);

	if (json_is_integer(v))
		fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_number(v))
		fprintf(f, "%.4f", json_number_value(v));
	fputs(end, f);
}

/* a row a contended or timed lock, per design, function and side */
static void contention_csv(json_t *result, FILE *f)
{
	static const enum rj_field cols[] = {
		RJ_F_cont_design, RJ_F_cont_function, RJ_F_cont_side, RJ_F_cont_calls,
		RJ_F_cont_contended, RJ_F_cont_wait_avg_cycles, RJ_F_cont_wait_max_cycles,
		RJ_F_cont_held, RJ_F_cont_hold_avg_cycles, RJ_F_cont_hold_max_cycles,
	};
	const size_t n = sizeof(cols) / sizeof(cols[0]);
	json_t *x;
	size_t i;

	csv_header(f, cols, n);
	json_array_foreach(rj_top_contention(result), i, x) {
		fprintf(f, "%s,", rj_cont_design(x));
		for (size_t c = 1; c < n; c++) {
			json_t *v = rj_get(x, cols[c]);

			if (json_is_string(v))
				fprintf(f, "%s%s", json_string_value(v), c + 1 < n ? "," : "\n");
			else
				csv_opt(f, x, cols[c], c + 1 < n ? "," : "\n");
		}
	}
}

static void counters_csv(json_t *result, FILE *c)
{
	static const enum rj_field cols[] = {
		RJ_F_ctr_design, RJ_F_ctr_thread, RJ_F_ctr_event, RJ_F_ctr_status,
		RJ_F_ctr_value, RJ_F_ctr_enabled_ns, RJ_F_ctr_running_ns,
	};
	json_t *x;
	size_t i;

	csv_header(c, cols, sizeof(cols) / sizeof(cols[0]));
	json_array_foreach(rj_top_counters(result), i, x)
		fprintf(c, "%s,%s,%s,%s,%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ",%"
			JSON_INTEGER_FORMAT "\n", rj_ctr_design(x), rj_ctr_thread(x),
			rj_ctr_event(x), rj_ctr_status(x), rj_ctr_value(x), rj_ctr_enabled_ns(x),
			rj_ctr_running_ns(x));
}

void pcb_result_csv(json_t *result, FILE *const *f)
{
	functions_csv(result, f[0], f[1], f[2]);
	counters_csv(result, f[3]);
	drains_csv(result, f[4]);
	contention_csv(result, f[5]);
}

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

void pcb_nodes_csv(FILE *out, json_t *const *results, const int *nodes, int n)
{
	fputs(PCB_NODES_HEADER "\n", out);
	for (int k = 0; k < n; k++) {
		json_t *fj, *all = pcb_function_and_drain_rows(results[k]);
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

/*
 * a CSV field, quoted where it holds a comma or a quote; a line break
 * becomes a blank, so that a row is one line (plot --compare reads lines)
 */
static void csv_field(FILE *out, const char *s)
{
	int quote = strpbrk(s, ",\"") != NULL;

	if (quote)
		fputc('"', out);
	for (; *s; s++)
		if (*s == '"')
			fputs("\"\"", out);
		else
			fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
	if (quote)
		fputc('"', out);
}

void pcb_compare_csv(FILE *out, json_t *cmp)
{
	json_t *row;
	size_t i;

	fputs(PCB_COMPARE_HEADER "\n", out);
	json_array_foreach(rj_cmp_rows(cmp), i, row) {
		json_t *dc = rj_get(row, RJ_F_cmprow_diff_cycles);
		json_t *dp = rj_get(row, RJ_F_cmprow_diff_pct);
		json_t *sig = rj_get(row, RJ_F_cmprow_significant);

		csv_field(out, rj_cmprow_design(row));
		fputc(',', out);
		csv_field(out, rj_cmprow_config(row));
		fputc(',', out);
		csv_field(out, rj_cmprow_function(row));
		fprintf(out, ",%" JSON_INTEGER_FORMAT ",",
			rj_cmprow_result(row));
		csv_field(out, rj_cmprow_label(row));
		fprintf(out, ",%.4f,%.4f,%" JSON_INTEGER_FORMAT ",",
			rj_cmprow_avg_cycles(row),
			rj_cmprow_stddev(row),
			rj_cmprow_runs(row));
		if (json_is_number(dc))
			fprintf(out, "%.4f", json_number_value(dc));
		fputc(',', out);
		if (json_is_number(dp))
			fprintf(out, "%.4f", json_number_value(dp));
		fputc(',', out);
		if (json_is_boolean(sig))
			fprintf(out, "%d", json_is_true(sig));
		fprintf(out, ",%s\n", json_is_string(rj_get(row, RJ_F_cmprow_test)) ?
			rj_cmprow_test(row) : "");
	}
}
