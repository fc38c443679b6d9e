/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "tables.h"

static int field_of(json_t *row, const char *field, double *v)
{
	json_t *x = json_object_get(row, field);

	if (!json_is_number(x))
		return -1;
	*v = json_number_value(x);
	return 0;
}

int pcb_figure_get(json_t *result, const char *sel, double *v, char *err, size_t errlen)
{
	char buf[512], *part[4] = { 0 }, *save = NULL;
	const char *table, *design, *fn = NULL, *field;
	int n = 0, rows = 0;
	json_t *row;
	size_t i;

	snprintf(buf, sizeof(buf), "%s", sel);
	for (char *p = strtok_r(buf, ":", &save); p && n < 4; p = strtok_r(NULL, ":", &save))
		part[n++] = p;
	table = part[0];
	design = part[1];
	if (!table || !design) {
		snprintf(err, errlen, "'%s': not a selector", sel);
		return -1;
	}
	if (!strcmp(table, "drains")) {
		field = part[2] ? part[2] : "avg_cycles";
	} else {
		fn = part[2];
		field = part[3] ? part[3] : !strcmp(table, "contention") ? "contended" : "avg_cycles";
	}
	*v = 0;
	json_array_foreach(json_object_get(result, table), i, row) {
		const char *d = json_string_value(json_object_get(row, "design"));
		const char *f = json_string_value(json_object_get(row, "function"));
		double x;

		if (!d || strcmp(d, design))
			continue;
		if (fn && strcmp(fn, "*") && (!f || strcmp(f, fn)))
			continue;
		if (field_of(row, field, &x) < 0) {
			snprintf(err, errlen, "'%s': the row has no number '%s'", sel, field);
			return -1;
		}
		*v += x;
		rows++;
		if (strcmp(table, "contention"))
			break;
	}
	/* no contention row is no contention, for a design the result has */
	if (!rows && !strcmp(table, "contention")) {
		json_array_foreach(json_object_get(result, "designs"), i, row)
			if (!strcmp(json_string_value(json_object_get(row, "design")) ?: "", design))
				return 0;
	}
	if (!rows) {
		snprintf(err, errlen, "'%s': no such row in the result", sel);
		return -1;
	}
	return 0;
}

int pcb_figure_runs(json_t *result, const char *sel, double *runs, int max)
{
	char buf[512], *part[4] = { 0 }, *save = NULL;
	json_t *fj;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", sel);
	for (char *p = strtok_r(buf, ":", &save); p && n < 4; p = strtok_r(NULL, ":", &save))
		part[n++] = p;
	/* the mean of each run exists for avg_cycles of a function row only */
	if (n < 3 || strcmp(part[0], "functions") || (part[3] && strcmp(part[3], "avg_cycles")))
		return 0;
	fj = find_function(json_object_get(result, "functions"), part[1], part[2]);
	return fj ? run_means(fj, "avg_cycles", runs, max) : 0;
}
