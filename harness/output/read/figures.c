/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "../../schema/schema.h"
#include "figures.h"
#include "query.h"
#include "rows.h"

/* a selector's table (functions, drains, contention): its field in the result, its rows' kind */
static int table_of(const char *table, enum rj_field *f, enum rj_kind *kind)
{
	int t = rj_find(RJ_K_top, table);

	if (t < 0 || rj_fields[t].type != RJ_ROWS)
		return -1;
	*f = (enum rj_field)t;
	*kind = rj_fields[t].rows;
	return 0;
}

/* a row's string field called name; NULL where the row's kind has none */
static const char *row_str(json_t *row, enum rj_kind kind, const char *name)
{
	int f = rj_find(kind, name);

	return f < 0 ? NULL : json_string_value(rj_get(row, (enum rj_field)f));
}

static int field_of(json_t *row, enum rj_kind kind, const char *field, double *v)
{
	int f = rj_find(kind, field);
	json_t *x = f < 0 ? NULL : rj_get(row, (enum rj_field)f);

	if (!json_is_number(x))
		return -1;
	*v = json_number_value(x);
	return 0;
}

int pcb_figure_get(json_t *result, const char *sel, double *v, char *err, size_t errlen)
{
	char buf[512], *part[4] = { 0 }, *save = NULL;
	const char *table, *design, *fn = NULL, *field;
	int n = 0, rows = 0, contention;
	enum rj_field tf;
	enum rj_kind kind;
	json_t *row;
	size_t i;

	snprintf(buf, sizeof(buf), "%s", sel);
	for (char *p = strtok_r(buf, ":", &save); p && n < 4; p = strtok_r(NULL, ":", &save))
		part[n++] = p;
	table = part[0];
	design = part[1];
	if (!table || !design || table_of(table, &tf, &kind) < 0) {
		snprintf(err, errlen, "'%s': not a selector", sel);
		return -1;
	}
	contention = tf == RJ_F_top_contention;
	if (tf == RJ_F_top_drains) {
		field = part[2] ? part[2] : rj_name(RJ_F_drain_avg_cycles);
	} else {
		fn = part[2];
		field = part[3] ? part[3] : contention ? rj_name(RJ_F_cont_contended) :
			rj_name(RJ_F_fn_avg_cycles);
	}
	*v = 0;
	json_array_foreach(rj_get(result, tf), i, row) {
		const char *d = row_str(row, kind, "design"), *f = row_str(row, kind, "function");
		double x;

		if (!d || strcmp(d, design))
			continue;
		if (fn && strcmp(fn, "*") && (!f || strcmp(f, fn)))
			continue;
		if (field_of(row, kind, field, &x) < 0) {
			snprintf(err, errlen, "'%s': the row has no number '%s'", sel, field);
			return -1;
		}
		*v += x;
		rows++;
		if (!contention)
			break;
	}
	/* no contention row is no contention, for a design the result has */
	if (!rows && contention) {
		json_array_foreach(rj_top_designs(result), i, row)
			if (!strcmp(rj_design_design(row), design))
				return 0;
	}
	if (!rows) {
		snprintf(err, errlen, "'%s': no such row in the result", sel);
		return -1;
	}
	return 0;
}

/* drain row design's runs' field (avg_cycles where NULL); 0 where it has none */
static int drain_runs(json_t *result, const char *design, const char *field, double *runs,
		      int max)
{
	json_t *row = pcb_row_where(rj_top_drains(result), RJ_F_drain_design, design), *r;
	int f = rj_find(RJ_K_drainrun, field ? field : rj_name(RJ_F_drainrun_avg_cycles));
	size_t i;
	int n = 0;

	if (!row || f < 0 || !rj_drain_has_runs(row))
		return 0;
	json_array_foreach(rj_drain_runs(row), i, r) {
		json_t *x = rj_get(r, (enum rj_field)f);

		if (!json_is_number(x))
			return 0;
		if (n < max)
			runs[n++] = json_number_value(x);
	}
	return n;
}

int pcb_figure_runs(json_t *result, const char *sel, double *runs, int max)
{
	char buf[512], *part[4] = { 0 }, *save = NULL;
	json_t *fj;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", sel);
	for (char *p = strtok_r(buf, ":", &save); p && n < 4; p = strtok_r(NULL, ":", &save))
		part[n++] = p;
	/* a drain row's runs have avg_cycles and avg_cycles_without_wake */
	if (n >= 2 && !strcmp(part[0], rj_name(RJ_F_top_drains)))
		return drain_runs(result, part[1], part[2], runs, max);
	/* the mean of each run exists for avg_cycles and raw_avg_cycles of a function row */
	if (n < 3 || strcmp(part[0], rj_name(RJ_F_top_functions)) ||
	    (part[3] && rj_find(RJ_K_fn, part[3]) != RJ_F_fn_avg_cycles &&
	     rj_find(RJ_K_fn, part[3]) != RJ_F_fn_raw_avg_cycles))
		return 0;
	fj = pcb_function_row(rj_top_functions(result), part[1], part[2]);
	if (!fj)
		return 0;
	return pcb_run_means(fj, part[3] && rj_find(RJ_K_fn, part[3]) == RJ_F_fn_raw_avg_cycles,
			     runs, max);
}
