/* SPDX-License-Identifier: MIT */
/*
 * compare's rows: every (design, config, function) of any result, each
 * result's mean against the first's, significant at 95% by Welch's t-test
 * over the run means or, where both have PCB_MWU_MIN_RUNS runs or more, by
 * Mann-Whitney U, as Google Benchmark's compare.py (its U test wants 9
 * repetitions); and what differs in the results' context.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../measure/stats.h"
#include "compare.h"
#include "tables.h"

struct cmp_key {
	const char *design, *config, *function;
	json_t *fj[PCB_COMPARE_MAX];
};

char pcb_compare_letter(int i)
{
	return (char)('A' + i);
}

/* results written before the pcp model carry no model: they are memcg's */
static const char *model_of(json_t *result)
{
	const char *m = json_string_value(json_object_get(json_object_get(result, "scenario"),
							   "model"));

	return m ? m : "memcg";
}

/* the design entry a function row belongs to */
static json_t *design_of(json_t *result, json_t *fj)
{
	json_t *dj;
	size_t i;

	json_array_foreach(json_object_get(result, "designs"), i, dj)
		if (!strcmp(str(dj, "design"), str(fj, "design")))
			return dj;
	return NULL;
}

static struct cmp_key *find_key(struct cmp_key *keys, size_t n, const char *design,
				const char *config, const char *function)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(keys[k].design, design) && !strcmp(keys[k].config, config) &&
		    !strcmp(keys[k].function, function))
			return &keys[k];
	return NULL;
}

/*
 * every (design, config, function), in the order the results first name
 * them; a function only a later result has goes after the last of its
 * design and config, so that a design's block stays one block
 */
static struct cmp_key *collect_keys(json_t **results, int n, size_t *nr)
{
	struct cmp_key *keys = NULL, *k;
	size_t cap = 0, at;

	*nr = 0;
	for (int r = 0; r < n; r++) {
		json_t *fj;
		size_t i;

		json_array_foreach(json_object_get(results[r], "functions"), i, fj) {
			json_t *dj = design_of(results[r], fj);
			const char *design = dj ? str(dj, "design_name") : str(fj, "design");
			const char *config = dj && json_is_string(json_object_get(dj, "config")) ?
					     str(dj, "config") : "";

			k = find_key(keys, *nr, design, config, str(fj, "function"));
			if (!k) {
				if (*nr == cap) {
					struct cmp_key *more;

					cap = cap ? 2 * cap : 64;
					more = realloc(keys, cap * sizeof(*keys));
					if (!more) {
						free(keys);
						return NULL;
					}
					keys = more;
				}
				at = *nr;
				for (size_t j = *nr; j-- > 0;)
					if (!strcmp(keys[j].design, design) &&
					    !strcmp(keys[j].config, config)) {
						at = j + 1;
						break;
					}
				memmove(&keys[at + 1], &keys[at], (*nr - at) * sizeof(*keys));
				(*nr)++;
				k = &keys[at];
				memset(k, 0, sizeof(*k));
				k->design = design;
				k->config = config;
				k->function = str(fj, "function");
			}
			if (!k->fj[r])
				k->fj[r] = fj;
		}
	}
	return keys ? keys : calloc(1, sizeof(*keys));
}

/* a row of k for result r; NULL where jansson refuses a string (not UTF-8) or memory runs out */
static json_t *row_json(const struct cmp_key *k, int r, const char *label)
{
	json_t *fj = k->fj[r], *base = k->fj[0];
	const char *key = "avg_cycles";
	json_t *o = json_object();
	double x = json_number_value(json_object_get(fj, key));
	int bad = !o;

	/* json_object_set_new() fails on a NULL value: a failed json_string() is caught */
	bad |= json_object_set_new(o, "design", json_string(k->design));
	bad |= json_object_set_new(o, "config", json_string(k->config));
	bad |= json_object_set_new(o, "function", json_string(k->function));
	bad |= json_object_set_new(o, "result", json_integer(r));
	bad |= json_object_set_new(o, "label", json_string(label));
	bad |= json_object_set_new(o, "avg_cycles", json_real(x));
	bad |= json_object_set_new(o, "stddev",
				   json_real(json_number_value(json_object_get(fj, "stddev"))));
	bad |= json_object_set_new(o, "runs", json_integer((json_int_t)json_array_size(
					json_object_get(fj, "runs"))));
	if (r > 0 && base) {
		static double va[MAX_RUNS], vb[MAX_RUNS];
		double y = json_number_value(json_object_get(base, key));
		int na = run_means(fj, key, va, MAX_RUNS), nb = run_means(base, key, vb, MAX_RUNS);
		int mwu = na >= PCB_MWU_MIN_RUNS && nb >= PCB_MWU_MIN_RUNS;

		bad |= json_object_set_new(o, "diff_cycles", json_real(x - y));
		/* no percentage of nothing: a base at or below the empty region */
		bad |= json_object_set_new(o, "diff_pct",
					   y > 0 ? json_real(100 * (x - y) / y) : json_null());
		bad |= json_object_set_new(o, "significant", json_boolean(mwu ?
			pcb_mann_whitney_significant(va, na, vb, nb) :
			pcb_welch_significant(va, na, vb, nb)));
		bad |= json_object_set_new(o, "test", json_string(mwu ? "mann-whitney" : "welch"));
	} else {
		bad |= json_object_set_new(o, "diff_cycles", json_null());
		bad |= json_object_set_new(o, "diff_pct", json_null());
		bad |= json_object_set_new(o, "significant", json_null());
		bad |= json_object_set_new(o, "test", json_null());
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* a machine figure as the tables print it, whole, as a JSON string */
static json_t *machine_value(json_t *ctx, const char *key)
{
	json_t *v = json_object_get(ctx, key);
	char buf[64];
	size_t n;

	if (json_is_string(v)) {
		/* /proc/cpuinfo pads some: the trailing blanks go */
		n = json_string_length(v);
		while (n && json_string_value(v)[n - 1] == ' ')
			n--;
		return json_stringn(json_string_value(v), n);
	}
	if (json_is_boolean(v))
		snprintf(buf, sizeof(buf), "%s", json_is_true(v) ? "true" : "false");
	else if (json_is_integer(v))
		snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_number(v))
		snprintf(buf, sizeof(buf), "%.1f MHz", json_number_value(v) / 1e6);
	else
		snprintf(buf, sizeof(buf), "-");
	return json_string(buf);
}

/* a scenario setting as compare prints it */
static json_t *setting_value(json_t *result, const char *key)
{
	json_t *x = json_object_get(json_object_get(json_object_get(result, "scenario"),
						    "settings"), key);

	/* a key an older pcpbench did not have, or one left empty */
	if (!json_is_string(x))
		return json_string("(absent)");
	if (!json_string_length(x))
		return json_string("(empty)");
	return json_copy(x);
}

/*
 * values[0..n) differ: {key, values} appended to diffs, which takes the
 * values; 0, or -1 when one is NULL (jansson refused it) or memory ran out
 */
static int add_difference(json_t *diffs, const char *key, json_t **values, int n)
{
	json_t *o = json_object(), *a = json_array();
	int bad = 0;

	for (int r = 0; r < n; r++)
		bad |= json_array_append_new(a, values[r]);
	bad |= json_object_set_new(o, "key", json_string(key));
	bad |= json_object_set_new(o, "values", a);
	bad |= json_array_append_new(diffs, o);
	return bad ? -1 : 0;
}

/* whether the strings of values[0..n) are not all the same; a NULL is not a string */
static int values_differ(json_t **values, int n)
{
	for (int r = 0; r < n; r++)
		if (!values[r] ||
		    strcmp(json_string_value(values[r]), json_string_value(values[0])))
			return 1;
	return 0;
}

static void drop_values(json_t **values, int n)
{
	for (int r = 0; r < n; r++)
		json_decref(values[r]);
}

/* what differs between the results' machines and settings; NULL when memory runs out */
static json_t *context_differences(json_t **results, int n)
{
	static const char *const machine[] = {
		"cpu_model", "cpus", "numa_nodes", "tsc_hz", "kernel", "version",
		"complete",	/* false: an interrupted run, with the runs that finished */
		NULL,
	};
	json_t *values[PCB_COMPARE_MAX];
	json_t *diffs = json_array(), *seen = json_object(), *v;
	const char *key;
	int bad = !diffs || !seen;

	for (int m = 0; machine[m] && !bad; m++) {
		int differs;

		for (int r = 0; r < n; r++)
			values[r] = machine_value(json_object_get(results[r], "context"),
						  machine[m]);
		differs = values_differ(values, n);
		/* the TSC is calibrated afresh each run: a part in a thousand is the same clock */
		if (!strcmp(machine[m], "tsc_hz")) {
			double a = json_number_value(json_object_get(json_object_get(results[0],
							"context"), "tsc_hz"));

			differs = 0;
			for (int r = 1; r < n; r++) {
				double b = json_number_value(json_object_get(json_object_get(results[r],
								"context"), "tsc_hz"));

				differs |= fabs(b - a) > 1e-3 * fmax(fabs(a), fabs(b));
			}
		}
		if (differs)
			bad = add_difference(diffs, machine[m], values, n);
		else
			drop_values(values, n);
	}
	/* scenario settings, every key any result has, in the order they first appear */
	for (int r = 0; r < n && !bad; r++)
		json_object_foreach(json_object_get(json_object_get(results[r], "scenario"),
						    "settings"), key, v) {
			if (bad)
				break;
			if (json_object_get(seen, key))
				continue;
			bad = json_object_set_new(seen, key, json_true());
			for (int s = 0; s < n; s++)
				values[s] = setting_value(results[s], key);
			if (values_differ(values, n))
				bad |= add_difference(diffs, key, values, n);
			else
				drop_values(values, n);
		}
	json_decref(seen);
	if (bad) {
		json_decref(diffs);
		return NULL;
	}
	return diffs;
}

json_t *pcb_compare_build(json_t **results, const char **labels, const char **paths, int n,
			  char *err, size_t errlen)
{
	json_t *o, *rs, *rows, *missing, *diffs;
	struct cmp_key *keys;
	size_t nr;
	int bad;

	if (n < 2 || n > PCB_COMPARE_MAX) {
		snprintf(err, errlen, "compare takes 2 to %d results, not %d", PCB_COMPARE_MAX, n);
		return NULL;
	}
	for (int r = 1; r < n; r++)
		if (strcmp(model_of(results[r]), model_of(results[0]))) {
			snprintf(err, errlen, "%s is of the %s model, %s of the %s model: results "
				 "of different models do not compare", paths[r], model_of(results[r]),
				 paths[0], model_of(results[0]));
			return NULL;
		}
	keys = collect_keys(results, n, &nr);
	if (!keys) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	o = json_object();
	rs = json_array();
	rows = json_array();
	missing = json_array();
	diffs = context_differences(results, n);
	/* each set_new/append_new fails on a NULL value: nothing jansson refused is dropped */
	bad = !o || !rs || !rows || !missing;
	bad |= json_object_set_new(o, "format", json_string(PCB_COMPARE_FORMAT));
	bad |= json_object_set_new(o, "model", json_string(model_of(results[0])));
	bad |= json_object_set_new(o, "results", rs);
	bad |= json_object_set_new(o, "context_differences", diffs);
	bad |= json_object_set_new(o, "rows", rows);
	bad |= json_object_set_new(o, "missing", missing);
	if (bad)
		snprintf(err, errlen, "out of memory");
	for (int r = 0; r < n && !bad; r++)
		if (json_array_append_new(rs, json_pack("{s:i,s:s,s:s}", "result", r, "label",
							labels[r], "path", paths[r]))) {
			snprintf(err, errlen, "result %c: its label or path is not valid UTF-8",
				 pcb_compare_letter(r));
			bad = 1;
		}
	for (size_t k = 0; k < nr && !bad; k++)
		for (int r = 0; r < n && !bad; r++) {
			if (keys[k].fj[r])
				bad = json_array_append_new(rows, row_json(&keys[k], r, labels[r]));
			else
				bad = json_array_append_new(missing, json_pack(
					"{s:s,s:s,s:s,s:i,s:s}",
					"design", keys[k].design, "config", keys[k].config,
					"function", keys[k].function, "result", r,
					"label", labels[r]));
			if (bad)
				snprintf(err, errlen, "%s %s %s: a row that jansson refused (not "
					 "UTF-8, or out of memory)", keys[k].design, keys[k].config,
					 keys[k].function);
		}
	free(keys);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}
