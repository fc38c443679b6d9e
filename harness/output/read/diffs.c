/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../measure/stats.h"
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

/* the rows of dj that base has too, appended to d (up to max), with Welch's p-values */
static void collect_rows(json_t *functions, json_t *dj, json_t *base, int raw,
			 struct pcb_diffs *d, size_t max)
{
	json_t *rows[PCB_MAX_ROWS];
	size_t nr = pcb_design_function_rows(functions, rj_design_design(dj), rows,
					     PCB_MAX_ROWS);
	static double va[PCB_MAX_RUNS], vb[PCB_MAX_RUNS];

	for (size_t j = 0; j < nr && d->n < max; j++) {
		json_t *bf = pcb_function_row(functions, rj_design_design(base),
					      rj_fn_function(rows[j]));
		int na, nb;

		if (!bf)
			continue;
		na = pcb_run_means(rows[j], raw, va, PCB_MAX_RUNS);
		nb = pcb_run_means(bf, raw, vb, PCB_MAX_RUNS);
		d->row[d->n++] = (struct pcb_diff_row){ rows[j], bf, pcb_welch_p(va, na, vb, nb) };
	}
}

/* the rows' p-values corrected together (Holm-Bonferroni); -1 out of memory */
static int holm(struct pcb_diffs *d)
{
	double *p = calloc(d->n ? d->n : 1, sizeof(*p));

	if (!p)
		return -1;
	for (size_t i = 0; i < d->n; i++)
		p[i] = d->row[i].p;
	pcb_holm_adjust(p, (int)d->n, p);
	for (size_t i = 0; i < d->n; i++)
		d->row[i].p = p[i];
	free(p);
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

int pcb_result_diffs(json_t *result, int raw, struct pcb_diffs *d)
{
	json_t *designs = rj_top_designs(result), *functions = rj_top_functions(result), *dj;
	json_t *sc = rj_top_scenario(result);
	const char *baseline = rj_sc_has_baseline(sc) ? rj_sc_baseline(sc) :
			       rj_design_design_name(json_array_get(designs, 0));
	size_t max = json_array_size(functions), i;
	int names = design_names(designs);

	memset(d, 0, sizeof(*d));
	d->row = calloc(max ? max : 1, sizeof(*d->row));
	d->block = calloc(json_array_size(designs) + 1, sizeof(*d->block));
	if (!d->row || !d->block)
		goto fail;
	json_array_foreach(designs, i, dj) {
		json_t *base = baseline_of(designs, dj, baseline, names);

		if (base)
			collect_rows(functions, dj, base, raw, d, max);
	}
	if (holm(d) < 0)
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

int pcb_diff_ci(json_t *fj, json_t *bf, int raw, double *lo, double *hi)
{
	static double va[PCB_MAX_RUNS], vb[PCB_MAX_RUNS];
	int na = pcb_run_means(fj, raw, va, PCB_MAX_RUNS);
	int nb = pcb_run_means(bf, raw, vb, PCB_MAX_RUNS);

	return pcb_ratio_ci95(va, na, vb, nb, lo, hi) < 0 ? -1 : 0;
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

void pcb_diff_test(const double *x, int nx, const double *base, int nbase,
		   struct pcb_diff_test *t)
{
	t->mwu = nx >= PCB_MWU_MIN_RUNS && nbase >= PCB_MWU_MIN_RUNS;
	t->p = t->mwu ? pcb_normal_p(pcb_mann_whitney_z(x, nx, base, nbase)) :
		 pcb_welch_p(x, nx, base, nbase);
	t->has_ci = pcb_ratio_ci95(x, nx, base, nbase, &t->lo, &t->hi) == 0;
}
