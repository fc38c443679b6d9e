/* SPDX-License-Identifier: MIT */
/*
 * result.json read back is untrusted input: a file edited by hand, cut
 * short or from another tool. Before any table is printed from it, every
 * number must be finite and of a size a measurement can have, and the
 * members the tables walk must have the types they expect.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "result.h"

/* larger than any count or cycle figure a run can produce */
#define PCB_RESULT_MAX_NUMBER 1e18
#define PCB_RESULT_MAX_DEPTH 16

static int check_numbers(json_t *v, char *path, size_t len, int depth, char *err, size_t errlen)
{
	size_t at = strlen(path), i;
	const char *key;
	json_t *x;

	if (depth > PCB_RESULT_MAX_DEPTH) {
		snprintf(err, errlen, "%s: nested deeper than a result is", path);
		return -1;
	}
	if (json_is_real(v) || json_is_integer(v)) {
		double d = json_number_value(v);

		if (!isfinite(d) || fabs(d) > PCB_RESULT_MAX_NUMBER) {
			snprintf(err, errlen, "%s: %g is not a figure a run can produce", path, d);
			return -1;
		}
		return 0;
	}
	if (json_is_object(v)) {
		json_object_foreach(v, key, x) {
			snprintf(path + at, len - at, ".%s", key);
			if (check_numbers(x, path, len, depth + 1, err, errlen) < 0)
				return -1;
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x) {
			snprintf(path + at, len - at, "[%zu]", i);
			if (check_numbers(x, path, len, depth + 1, err, errlen) < 0)
				return -1;
		}
	}
	path[at] = 0;
	return 0;
}

/* every element of result.name an object with the named string members */
static int check_rows(json_t *result, const char *name, const char *const *strings,
		      char *err, size_t errlen)
{
	json_t *a = json_object_get(result, name), *x;
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a)) {
		snprintf(err, errlen, "%s: not an array", name);
		return -1;
	}
	json_array_foreach(a, i, x) {
		if (!json_is_object(x)) {
			snprintf(err, errlen, "%s[%zu]: not an object", name, i);
			return -1;
		}
		for (int k = 0; strings[k]; k++)
			if (!json_is_string(json_object_get(x, strings[k]))) {
				snprintf(err, errlen, "%s[%zu].%s: missing or not a string", name, i,
					 strings[k]);
				return -1;
			}
	}
	return 0;
}

/* the figures every functions[] row is printed from: numbers, and its run means */
static int check_function_figures(json_t *result, char *err, size_t errlen)
{
	static const char *const numbers[] = { "avg_cycles", "stddev", "calls", NULL };
	json_t *row, *runs, *r;
	size_t i, j;

	json_array_foreach(json_object_get(result, "functions"), i, row) {
		for (int k = 0; numbers[k]; k++)
			if (!json_is_number(json_object_get(row, numbers[k]))) {
				snprintf(err, errlen, "functions[%zu].%s: missing or not a number", i,
					 numbers[k]);
				return -1;
			}
		runs = json_object_get(row, "runs");
		if (!json_is_array(runs)) {
			snprintf(err, errlen, "functions[%zu].runs: missing or not an array", i);
			return -1;
		}
		json_array_foreach(runs, j, r)
			if (!json_is_number(json_object_get(r, "avg_cycles"))) {
				snprintf(err, errlen, "functions[%zu].runs[%zu].avg_cycles: missing or "
					 "not a number", i, j);
				return -1;
			}
	}
	return 0;
}

int pcb_result_check(json_t *result, char *err, size_t errlen)
{
	static const char *const designs[] = { "design", "design_name", NULL };
	static const char *const functions[] = { "design", "function", NULL };
	static const char *const labelled[] = { "design", NULL };
	char path[1024] = "result";

	if (!json_is_object(result) || !json_is_array(json_object_get(result, "designs")) ||
	    !json_is_array(json_object_get(result, "functions")) ||
	    !json_is_object(json_object_get(result, "context")) ||
	    !json_is_object(json_object_get(result, "scenario"))) {
		snprintf(err, errlen, "not a pcpbench result (designs, functions, context, "
			 "scenario missing)");
		return -1;
	}
	if (check_rows(result, "designs", designs, err, errlen) < 0 ||
	    check_rows(result, "functions", functions, err, errlen) < 0 ||
	    check_rows(result, "drains", labelled, err, errlen) < 0 ||
	    check_rows(result, "contention", labelled, err, errlen) < 0 ||
	    check_rows(result, "interruptions", labelled, err, errlen) < 0 ||
	    check_rows(result, "counters", labelled, err, errlen) < 0 ||
	    check_function_figures(result, err, errlen) < 0)
		return -1;
	return check_numbers(result, path, sizeof(path), 0, err, errlen);
}

int pcb_result_load(const char *arg, json_t **out, char *path, size_t pathlen, char *err,
		    size_t errlen)
{
	json_error_t jerr;
	struct stat st;
	const char *format;
	char why[512];
	json_t *result;

	*out = NULL;
	snprintf(path, pathlen, "%s", arg);
	if (stat(arg, &st) < 0) {
		snprintf(err, errlen, "%s: no such file or directory", arg);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		size_t n = strlen(arg);

		/* "dir/" names the same directory as "dir" */
		while (n > 1 && arg[n - 1] == '/')
			n--;
		snprintf(path, pathlen, "%.*s/result.json", (int)n, arg);
		if (stat(path, &st) < 0) {
			snprintf(err, errlen, "%s: no result.json in this directory", arg);
			return -1;
		}
	}
	result = json_load_file(path, 0, &jerr);
	if (!result) {
		if (jerr.line > 0)
			snprintf(err, errlen, "%s:%d: %s", path, jerr.line, jerr.text);
		else
			snprintf(err, errlen, "%s: %s", path, jerr.text);
		return -1;
	}
	format = json_string_value(json_object_get(result, "format"));
	if (!format || strcmp(format, PCB_RESULT_FORMAT)) {
		if (format)
			snprintf(err, errlen, "%s: format \"%.64s\", not %s, which this pcpbench "
				 "reads", path, format, PCB_RESULT_FORMAT);
		else
			snprintf(err, errlen, "%s: not a %s file", path, PCB_RESULT_FORMAT);
		json_decref(result);
		return -1;
	}
	if (pcb_result_check(result, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: %s", path, why);
		json_decref(result);
		return -1;
	}
	*out = result;
	return 0;
}
