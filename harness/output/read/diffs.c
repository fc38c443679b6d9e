/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../schema/schema.h"
#include "diffs.h"
#include "query.h"
#include "rows.h"

/* the design entry a design is compared with, NULL for the baseline itself */
static json_t *baseline_of(json_t *designs, json_t *dj, const char *baseline, int names)
{
	json_t *x;

	/*
	 * One design over a sweep: each configuration against the one with the
	 * first swept key at its first value and the others as they are
	 * ("rate_hz=100 think_ns=50" against "rate_hz=10 think_ns=50").
	 */
	if (names < 2) {
		const char *first = rj_design_config(json_array_get(designs, 0));
		const char *cfg = rj_design_config(dj), *rest = strchr(cfg, ' ');
		char want[1024];

		snprintf(want, sizeof(want), "%.*s%s", (int)strcspn(first, " "), first,
			 rest ? rest : "");
		x = pcb_row_where(designs, RJ_F_design_config, want);
		if (x)
			return x == dj ? NULL : x;
		return dj == json_array_get(designs, 0) ? NULL : json_array_get(designs, 0);
	}
	if (!strcmp(rj_design_design_name(dj), baseline))
		return NULL;
	return pcb_row_where2(designs, RJ_F_design_design_name, baseline, RJ_F_design_config,
			      rj_design_config(dj));
}

/* design names in a result (a sweep repeats them) */
static int design_names(json_t *designs)
{
	json_t *x;
	size_t i;
	int n = 0;

	json_array_foreach(designs, i, x)
		n += json_array_get(pcb_rows_where(designs, RJ_F_design_design_name,
						   rj_design_design_name(x)), 0) == x;
	return n;
}

void pcb_diff_fn_rows(json_t *fj, json_t *bf, int raw, struct pcb_diff_fig *f)
{
	static double va[PCB_MAX_RUNS], vb[PCB_MAX_RUNS];
	const struct pcb_runs a = {
		va, pcb_run_means(fj, raw, va, PCB_MAX_RUNS), pcb_fn_mean(fj, raw),
	};
	const struct pcb_runs b = {
		vb, pcb_run_means(bf, raw, vb, PCB_MAX_RUNS), pcb_fn_mean(bf, raw),
	};

	pcb_diff_fig_test(f, &a, &b);
}

/* the rows of dj that base has too, appended to d (up to max), each tested */
static void collect_rows(json_t *functions, json_t *dj, json_t *base, struct pcb_diffs *d,
			 size_t max)
{
	json_t *rows[PCB_MAX_ROWS];
	size_t nr = pcb_design_function_rows(functions, rj_design_design(dj), rows,
					     PCB_MAX_ROWS);

	for (size_t j = 0; j < nr && d->n < max; j++) {
		json_t *bf = pcb_function_row(functions, rj_design_design(base),
					      rj_fn_function(rows[j]));
		struct pcb_diff_row *r = &d->row[d->n];

		if (!bf)
			continue;
		r->fj = rows[j];
		r->bf = bf;
		pcb_diff_fn_rows(rows[j], bf, d->raw, &r->f);
		d->tested += r->f.tested;
		d->n++;
	}
}

/* the rows' marks and intervals, Holm's step-down over all of them; -1 out of memory */
static int family(struct pcb_diffs *d)
{
	struct pcb_diff_fig *f = calloc(d->n ? d->n : 1, sizeof(*f));

	if (!f)
		return -1;
	for (size_t i = 0; i < d->n; i++)
		f[i] = d->row[i].f;
	/* short of memory it marks at Bonferroni's level: still one procedure */
	pcb_diff_family(f, (int)d->n);
	for (size_t i = 0; i < d->n; i++)
		d->row[i].f = f[i];
	free(f);
	return 0;
}

/* each design with a baseline, its rows those of its label from where the last ended */
static void blocks(json_t *designs, const char *baseline, int names, struct pcb_diffs *d)
{
	size_t at = 0, i;
	json_t *dj;

	json_array_foreach(designs, i, dj) {
		json_t *base = baseline_of(designs, dj, baseline, names);
		size_t from = at;

		if (!base)
			continue;
		while (at < d->n && !strcmp(rj_fn_design(d->row[at].fj), rj_design_design(dj)))
			at++;
		d->block[d->nblocks++] = (struct pcb_diff_block){ dj, base, from, at };
	}
}

int pcb_result_diffs(json_t *result, struct pcb_diffs *d)
{
	json_t *designs = rj_top_designs(result), *functions = rj_top_functions(result), *dj;
	json_t *sc = rj_top_scenario(result);
	const char *baseline = rj_sc_has_baseline(sc) ? rj_sc_baseline(sc) :
			       rj_design_design_name(json_array_get(designs, 0));
	size_t max = json_array_size(functions), i;
	int names = design_names(designs);

	memset(d, 0, sizeof(*d));
	d->raw = pcb_result_raw(result);
	d->row = calloc(max ? max : 1, sizeof(*d->row));
	d->block = calloc(json_array_size(designs) + 1, sizeof(*d->block));
	if (!d->row || !d->block)
		goto fail;
	json_array_foreach(designs, i, dj) {
		json_t *base = baseline_of(designs, dj, baseline, names);

		if (base)
			collect_rows(functions, dj, base, d, max);
	}
	if (family(d) < 0)
		goto fail;
	blocks(designs, baseline, names, d);
	return 0;
fail:
	pcb_diffs_free(d);
	return -1;
}

void pcb_diffs_free(struct pcb_diffs *d)
{
	free(d->row);
	free(d->block);
	memset(d, 0, sizeof(*d));
}

/* a design entry's configuration, "" when it has none */
static const char *config_of(json_t *dj)
{
	return json_string_value(rj_get(dj, RJ_F_design_config)) ?: "";
}

json_t *pcb_config_baseline(json_t *designs, json_t *dj)
{
	const char *first = config_of(json_array_get(designs, 0));
	const char *cfg = config_of(dj), *rest = strchr(cfg, ' ');
	char want[1024];
	json_t *x;

	snprintf(want, sizeof(want), "%.*s%s", (int)strcspn(first, " "), first, rest ?: "");
	x = pcb_row_where2(designs, RJ_F_design_config, want, RJ_F_design_design_name,
			   rj_design_design_name(dj));
	return x == dj ? NULL : x;
}

const struct pcb_diff_fields pcb_diff_row_fields = {
	RJ_F_diff_diff_cycles, RJ_F_diff_diff_pct, RJ_F_diff_ci_level, RJ_F_diff_ci_low_cycles,
	RJ_F_diff_ci_high_cycles, RJ_F_diff_ci_low_pct, RJ_F_diff_ci_high_pct, RJ_F_diff_p_value,
	RJ_F_diff_p_holm, RJ_F_diff_significant,
};

/* v as a JSON number, or null where there is none */
static json_t *number_or_null(int has, double v)
{
	return has ? json_real(v) : json_null();
}

int pcb_diff_fig_put(json_t *o, const struct pcb_diff_fig *f, const struct pcb_diff_fields *k)
{
	int t = f->tested, bad = 0, pct = f->tested && f->pct_bounded;

	bad |= rj_put(o, k->diff_cycles, json_real(f->diff));
	/* no percentage of nothing: a base at or below the empty region */
	bad |= rj_put(o, k->diff_pct, number_or_null(f->has_pct, f->pct));
	bad |= rj_put(o, k->level, number_or_null(t, f->level));
	bad |= rj_put(o, k->lo, number_or_null(t, f->lo));
	bad |= rj_put(o, k->hi, number_or_null(t, f->hi));
	bad |= rj_put(o, k->pct_lo, number_or_null(pct, f->pct_lo));
	bad |= rj_put(o, k->pct_hi, number_or_null(pct, f->pct_hi));
	bad |= rj_put(o, k->p, number_or_null(t, f->p));
	bad |= rj_put(o, k->p_holm, number_or_null(t, f->p_holm));
	bad |= rj_put(o, k->significant, t ? json_boolean(f->significant) : json_null());
	return bad ? -1 : 0;
}

/* row r of d as a diff row; NULL where jansson refused it */
static json_t *diff_json(const struct pcb_diffs *d, const struct pcb_diff_row *r)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set(o, rj_name(RJ_F_diff_design), rj_get(r->fj, RJ_F_fn_design));
	bad |= json_object_set(o, rj_name(RJ_F_diff_baseline), rj_get(r->bf, RJ_F_fn_design));
	bad |= json_object_set(o, rj_name(RJ_F_diff_function), rj_get(r->fj, RJ_F_fn_function));
	bad |= rj_set_diff_means(o, pcb_means_word(d->raw));
	bad |= pcb_diff_fig_put(o, &r->f, &pcb_diff_row_fields);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *pcb_result_diffs_json(json_t *result)
{
	json_t *a = json_array();
	struct pcb_diffs d;
	int bad = !a;

	if (bad || pcb_result_diffs(result, &d) < 0) {
		json_decref(a);
		return NULL;
	}
	for (size_t i = 0; i < d.n && !bad; i++)
		bad = json_array_append_new(a, diff_json(&d, &d.row[i]));
	pcb_diffs_free(&d);
	if (bad) {
		json_decref(a);
		return NULL;
	}
	return a;
}
