/* SPDX-License-Identifier: MIT */
/*
 * compare's rows: every (design, config, function) of any result, each
 * result's mean against the first's, read as the first result is read (raw
 * or net), each difference tested, given its intervals and marked by
 * read/interval.h's procedure over every difference of the compare
 * together, as the tables' are; and what differs in the results' context.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../scenario/scenario.h"
#include "../../schema/schema.h"
#include "../read/diffs.h"
#include "../read/query.h"
#include "../read/rows.h"
#include "compare.h"

struct cmp_key {
	const char *design, *config, *function;
	json_t *fj[PCB_COMPARE_MAX];
};

char pcb_compare_letter(int i)
{
	return (char)('A' + i);
}

struct key_set {
	struct cmp_key *key;
	size_t *block;			/* each key's (design, config) block, in order of first key */
	size_t n, cap, blocks;
	json_t *ids, *block_ids;	/* pcb_rows_key() -> index */
};

/* the index of values v[0..nv) in map, a new one (*next, counted up) if absent; -1 no memory */
static long index_of(json_t *map, const char *const *v, int nv, size_t *next, int *added)
{
	size_t len;
	char *key = pcb_rows_key(v, nv, &len);
	json_t *id;
	long at = -1;

	*added = 0;
	if (!key)
		return -1;
	id = json_object_getn(map, key, len);
	if (id) {
		at = (long)json_integer_value(id);
	} else if (!json_object_setn_new_nocheck(map, key, len, json_integer((json_int_t)*next))) {
		at = (long)(*next)++;
		*added = 1;
	}
	free(key);
	return at;
}

/* fj's key in the set, added at its block's end if new; NULL out of memory */
static struct cmp_key *key_of(struct key_set *s, json_t *result, json_t *fj)
{
	json_t *dj = pcb_design_row(result, rj_fn_design(fj));
	const char *design = dj ? rj_design_design_name(dj) : rj_fn_design(fj);
	const char *config = dj && rj_design_has_config(dj) ? rj_design_config(dj) : "";
	const char *v[3] = { design, config, rj_fn_function(fj) };
	size_t next = s->n, next_block = s->blocks;
	int added, new_block;
	long k = index_of(s->ids, v, 3, &next, &added), b;

	if (k < 0 || !added)
		return k < 0 ? NULL : &s->key[k];
	b = index_of(s->block_ids, v, 2, &next_block, &new_block);
	if (b < 0)
		return NULL;
	s->blocks = next_block;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct cmp_key *more = realloc(s->key, cap * sizeof(*more));
		size_t *blocks = more ? realloc(s->block, cap * sizeof(*blocks)) : NULL;

		if (more)
			s->key = more;
		if (!blocks)
			return NULL;
		s->block = blocks;
		s->cap = cap;
	}
	s->block[s->n] = (size_t)b;
	s->key[s->n] = (struct cmp_key){ .design = design, .config = config, .function = v[2] };
	return &s->key[s->n++];
}

/* the keys in block order, each block's in the order they were added (a counting sort) */
static struct cmp_key *keys_by_block(struct key_set *s)
{
	struct cmp_key *out = calloc(s->n ? s->n : 1, sizeof(*out));
	size_t *at = calloc(s->blocks + 1, sizeof(*at));

	if (out && at) {
		for (size_t k = 0; k < s->n; k++)
			at[s->block[k] + 1]++;
		for (size_t b = 0; b < s->blocks; b++)
			at[b + 1] += at[b];
		for (size_t k = 0; k < s->n; k++)
			out[at[s->block[k]]++] = s->key[k];
	} else {
		free(out);
		out = NULL;
	}
	free(at);
	return out;
}

/*
 * every (design, config, function), in the order the results first name
 * them; a function only a later result has goes after the last of its
 * design and config, so that a design's block stays one block
 */
static struct cmp_key *collect_keys(json_t **results, int n, size_t *nr)
{
	struct key_set s = { .ids = json_object(), .block_ids = json_object() };
	struct cmp_key *keys = NULL, *k;
	int ok = s.ids && s.block_ids;

	for (int r = 0; r < n && ok; r++) {
		json_t *fj;
		size_t i;

		json_array_foreach(rj_top_functions(results[r]), i, fj) {
			k = key_of(&s, results[r], fj);
			if (!k) {
				ok = 0;
				break;
			}
			if (!k->fj[r])
				k->fj[r] = fj;
		}
	}
	if (ok)
		keys = keys_by_block(&s);
	*nr = keys ? s.n : 0;
	free(s.key);
	free(s.block);
	json_decref(s.ids);
	json_decref(s.block_ids);
	return keys;
}

static const struct pcb_diff_fields cmprow_fields = {
	RJ_F_cmprow_diff_cycles, RJ_F_cmprow_diff_pct, RJ_F_cmprow_ci_level,
	RJ_F_cmprow_ci_low_cycles, RJ_F_cmprow_ci_high_cycles, RJ_F_cmprow_ci_low_pct,
	RJ_F_cmprow_ci_high_pct, RJ_F_cmprow_p_value, RJ_F_cmprow_p_holm, RJ_F_cmprow_significant,
};

/* what is compared: results[i] named labels[i] */
struct cmp_in {
	json_t **results;
	const char **labels;
	int n;
};

/* the differences of a compare, a row each that has a baseline, marked together */
struct cmp_diffs {
	struct pcb_diff_fig *f;
	json_t **row;			/* the compare row each is of */
	size_t n;
};

/*
 * a row of k for result r, read raw or net; its difference from A, where
 * it has one, tested into the next of d. NULL where jansson refuses a
 * string (not UTF-8) or memory runs out
 */
static json_t *row_json(const struct cmp_key *k, int r, const char *label, int raw,
			struct cmp_diffs *d)
{
	json_t *fj = k->fj[r], *base = k->fj[0];
	json_t *o = json_object();
	int bad = !o;

	/* a setter fails on a NULL value: a failed json_string() is caught */
	bad |= rj_set_cmprow_design(o, k->design);
	bad |= rj_set_cmprow_config(o, k->config);
	bad |= rj_set_cmprow_function(o, k->function);
	bad |= rj_set_cmprow_result(o, r);
	bad |= rj_set_cmprow_label(o, label);
	bad |= rj_put(o, raw ? RJ_F_cmprow_raw_avg_cycles : RJ_F_cmprow_avg_cycles,
		      json_real(pcb_fn_mean(fj, raw)));
	bad |= rj_put(o, raw ? RJ_F_cmprow_raw_stddev : RJ_F_cmprow_stddev,
		      json_real(pcb_fn_stddev(fj, raw)));
	bad |= rj_set_cmprow_runs(o, (json_int_t)json_array_size(rj_fn_runs(fj)));
	if (r > 0 && base) {
		pcb_diff_fn_rows(fj, base, raw, &d->f[d->n]);
		d->row[d->n++] = o;
		bad |= rj_set_cmprow_test(o, "welch");
	} else {
		static const struct pcb_diff_fig none;

		/* its figures null: written once the family is known (mark_diffs()) */
		bad |= pcb_diff_fig_put(o, &none, &cmprow_fields);
		bad |= rj_put(o, RJ_F_cmprow_diff_cycles, json_null());
		bad |= rj_put(o, RJ_F_cmprow_test, json_null());
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* every difference of the compare marked together, its figures set in its row; -1 if refused */
static int mark_diffs(struct cmp_diffs *d)
{
	int bad = 0;

	pcb_diff_family(d->f, (int)d->n);
	for (size_t i = 0; i < d->n; i++)
		bad |= pcb_diff_fig_put(d->row[i], &d->f[i], &cmprow_fields);
	return bad ? -1 : 0;
}

/* a machine figure as the tables print it, whole, as a JSON string */
static json_t *machine_value(json_t *ctx, enum rj_field key)
{
	json_t *v = rj_get(ctx, key);
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
	/* a TSC written as an integer is the same clock as one written as a real */
	else if (json_is_integer(v) && key != RJ_F_ctx_tsc_hz)
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
	json_t *x = json_object_get(rj_sc_settings(rj_top_scenario(result)), key);

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
	bad |= rj_set_cmpdiff_key(o, key);
	bad |= rj_set_cmpdiff_values(o, a);
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

/*
 * The next item of a setting as its key reads it: split at sep, trimmed;
 * *v moved past it, NULL after the last. 0 with its start and length, -1
 * at the end (in a list split at blanks too, empty items are none).
 */
static int setting_item(const char **v, const char *sep, const char **item, size_t *len)
{
	while (*v) {
		const char *p = *v;
		size_t n = strcspn(p, sep), lead = strspn(p, " \t");

		lead = lead < n ? lead : n;
		*item = p + lead;
		*len = n - lead;
		while (*len && strchr(" \t", (*item)[*len - 1]))
			(*len)--;
		*v = p[n] ? p + n + 1 : NULL;
		if (*len || !strchr(sep, ' '))
			return 0;
	}
	return -1;
}

/*
 * Two settings of key alike as it reads them: item by item (split at
 * commas, and for run.designs at blanks too), trimmed, a number by its
 * value (integers as integers); "local_lock, spinlock" is
 * "local_lock,spinlock", 2e3 is 2000
 */
static int same_setting(const char *key, const char *a, const char *b)
{
	const char *sep = strcmp(key, "run.designs") ? "," : ", \t", *x, *y;
	size_t nx, ny;

	if (!strcmp(a, b))
		return 1;
	for (;;) {
		int ea = setting_item(&a, sep, &x, &nx), eb = setting_item(&b, sep, &y, &ny);

		if (ea || eb)
			return ea && eb;
		if (nx == ny && !memcmp(x, y, nx))
			continue;
		if (!pcb_value_same_number(x, nx, y, ny))
			return 0;
	}
}

/* whether key's settings in values[0..n) are not all one, read as same_setting() reads them */
static int settings_differ(const char *key, json_t **values, int n)
{
	for (int r = 0; r < n; r++)
		if (!values[r] || !same_setting(key, json_string_value(values[0]),
						json_string_value(values[r])))
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
	static const enum rj_field machine[] = {
		RJ_F_ctx_cpu_model, RJ_F_ctx_cpus, RJ_F_ctx_numa_nodes, RJ_F_ctx_tsc_hz,
		RJ_F_ctx_kernel, RJ_F_ctx_version,
		RJ_F_ctx_complete,	/* false: an interrupted run, with the runs that finished */
	};
	json_t *values[PCB_COMPARE_MAX];
	json_t *diffs = json_array(), *seen = json_object(), *v;
	const char *key;
	int bad = !diffs || !seen;

	for (size_t m = 0; m < sizeof(machine) / sizeof(machine[0]) && !bad; m++) {
		int differs;

		for (int r = 0; r < n; r++)
			values[r] = machine_value(rj_top_context(results[r]), machine[m]);
		differs = values_differ(values, n);
		/* the TSC is calibrated afresh each run: a part in a thousand is the same clock */
		if (machine[m] == RJ_F_ctx_tsc_hz) {
			double a = rj_ctx_tsc_hz(rj_top_context(results[0]));

			differs = 0;
			for (int r = 1; r < n; r++) {
				double b = rj_ctx_tsc_hz(rj_top_context(results[r]));

				differs |= fabs(b - a) > 1e-3 * fmax(fabs(a), fabs(b));
			}
		}
		if (differs)
			bad = add_difference(diffs, rj_name(machine[m]), values, n);
		else
			drop_values(values, n);
	}
	/* the means each is read by on its own: compare reads them all as A is read */
	if (!bad) {
		for (int r = 0; r < n; r++)
			values[r] = json_string(pcb_means_word(pcb_result_raw(results[r])));
		if (values_differ(values, n))
			bad = add_difference(diffs, "means", values, n);
		else
			drop_values(values, n);
	}
	/* scenario settings, every key any result has, in the order they first appear */
	for (int r = 0; r < n && !bad; r++)
		json_object_foreach(rj_sc_settings(rj_top_scenario(results[r])), key, v) {
			if (bad)
				break;
			if (json_object_get(seen, key))
				continue;
			bad = json_object_set_new(seen, key, json_true());
			for (int s = 0; s < n; s++)
				values[s] = setting_value(results[s], key);
			if (settings_differ(key, values, n))
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

/* results[]: result r, read from path as label; NULL where jansson refuses one */
static json_t *result_ref(int r, const char *label, const char *path)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= rj_set_cmpres_result(o, r);
	bad |= rj_set_cmpres_label(o, label);
	bad |= rj_set_cmpres_path(o, path);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* missing[]: k's row that result r lacks */
static json_t *missing_row(const struct cmp_key *k, int r, const char *label)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= rj_set_cmpmiss_design(o, k->design);
	bad |= rj_set_cmpmiss_config(o, k->config);
	bad |= rj_set_cmpmiss_function(o, k->function);
	bad |= rj_set_cmpmiss_result(o, r);
	bad |= rj_set_cmpmiss_label(o, label);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * the rows of every key, each result's read as A is, their differences
 * marked together, or a missing row; -1 with err
 */
static int add_rows(const struct cmp_key *keys, size_t nr, const struct cmp_in *in,
		    json_t *cmp, char *err, size_t errlen)
{
	json_t *rows = rj_cmp_rows(cmp), *missing = rj_cmp_missing(cmp);
	const char **labels = in->labels;
	int raw = pcb_result_raw(in->results[0]), bad = 0, n = in->n;
	size_t most = nr * (size_t)n + 1;
	struct cmp_diffs d = { calloc(most, sizeof(*d.f)), calloc(most, sizeof(*d.row)), 0 };

	if (!d.f || !d.row || rj_set_cmp_means(cmp, pcb_means_word(raw))) {
		snprintf(err, errlen, "out of memory");
		bad = 1;
	}
	for (size_t k = 0; k < nr && !bad; k++)
		for (int r = 0; r < n && !bad; r++) {
			if (keys[k].fj[r])
				bad = json_array_append_new(rows, row_json(&keys[k], r, labels[r],
									   raw, &d));
			else
				bad = json_array_append_new(missing, missing_row(&keys[k], r,
									 labels[r]));
			if (bad)
				snprintf(err, errlen, "%s %s %s: a row that jansson refused (not "
					 "UTF-8, or out of memory)", keys[k].design, keys[k].config,
					 keys[k].function);
		}
	if (!bad && mark_diffs(&d) < 0) {
		snprintf(err, errlen, "out of memory");
		bad = 1;
	}
	free(d.f);
	free(d.row);
	return bad;
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
		if (strcmp(pcb_result_model_name(results[r]), pcb_result_model_name(results[0]))) {
			snprintf(err, errlen, "%s is of the %s model, %s of the %s model: results "
				 "of different models do not compare", paths[r], pcb_result_model_name(results[r]),
				 paths[0], pcb_result_model_name(results[0]));
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
	bad |= rj_set_cmp_format(o, PCB_COMPARE_FORMAT);
	bad |= rj_set_cmp_model(o, pcb_result_model_name(results[0]));
	bad |= rj_set_cmp_results(o, rs);
	bad |= rj_set_cmp_context_differences(o, diffs);
	bad |= rj_set_cmp_rows(o, rows);
	bad |= rj_set_cmp_missing(o, missing);
	if (bad)
		snprintf(err, errlen, "out of memory");
	for (int r = 0; r < n && !bad; r++)
		if (json_array_append_new(rs, result_ref(r, labels[r], paths[r]))) {
			snprintf(err, errlen, "result %c: its label or path is not valid UTF-8",
				 pcb_compare_letter(r));
			bad = 1;
		}
	if (!bad)
		bad = add_rows(keys, nr, &(struct cmp_in){ results, labels, n }, o, err, errlen);
	free(keys);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}
