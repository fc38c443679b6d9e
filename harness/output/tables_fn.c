/* SPDX-License-Identifier: MIT */
/*
 * The function tables of seed 000's cover letter: one block per design
 * (the mean over run means, their standard deviation, the call count), the
 * differences against the baseline design at the same configuration, and
 * the percentiles of the per-call figure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../measure/stats.h"
#include "rows.h"
#include "tables.h"

/* what one call can be resolved to: the TSC step over the calls of a region */
static double resolution(json_t *fj, double step)
{
	double calls = (double)rj_fn_calls(fj), regions = (double)rj_fn_regions(fj);

	return calls > 0 && regions > 0 ? step * regions / calls : 0;
}

/* a row's mean, raw (the timer included) or net */
static double fn_mean(json_t *fj, int raw)
{
	return raw ? rj_fn_raw_avg_cycles(fj) : rj_fn_avg_cycles(fj);
}

/* a mean as the table shows it; *marked when it is below the timer's resolution */
static void format_mean(char *buf, size_t len, double v, double res, int raw, int *marked)
{
	if (!raw && v < 0) {
		snprintf(buf, len, "<1 step");
		*marked = 1;
	} else if (!raw && v < res) {
		snprintf(buf, len, "~%.2f", v);
		*marked = 1;
	} else {
		snprintf(buf, len, "%.2f", v);
	}
}

/* a row's STDDEV, with the noise gate's mark where its run means spread past run.max_cv */
void pcb_stddev_text(char *buf, size_t len, double sd, json_t *unstable, int *noisy)
{
	int mark = json_is_true(unstable);

	snprintf(buf, len, "%.2f%s", sd, mark ? PCB_UNSTABLE_MARK : "");
	*noisy |= mark;
}

/* the noise gate's legend, under the blocks it marked */
void pcb_unstable_legend(FILE *out, json_t *result)
{
	fprintf(out, PCB_UNSTABLE_MARK " unstable: the run means' coefficient of variation is "
		"above run.max_cv (%s%%); more runs\n  (run.runs = auto) or a quieter machine "
		"narrow it\n\n", pcb_setting(result, K_RUN_MAX_CV));
}

/* the marks a function block made, for the legends under them */
struct fn_marks {
	int below;			/* ~ or <1 step: below the timer's resolution */
	int unstable;			/* ! the noise gate's */
};

/* one block a design: mean, STDDEV, calls; what was set aside as interrupted */
static void design_block(FILE *out, json_t *functions, json_t *dj, double step,
			 const struct pcb_table_opts *opts, struct fn_marks *mk)
{
	const char *d = rj_design_design(dj), *head;
	int raw = opts->raw;
	json_t *rows[MAX_ROWS];
	char aside[512] = "";
	int w = title_col(out, d, 2 * COL + 16, opts, &head);
	size_t n = design_functions(functions, d, rows, MAX_ROWS);

	fprintf(out, "%-*s%-*s%-*s%s\n", w, head, COL, raw ? "Raw clk" : "Average clk", COL,
		"STDDEV", "Call Count");
	for (size_t j = 0; j < n; j++) {
		int has_mean = raw ? rj_fn_has_raw_avg_cycles(rows[j]) : 1;
		double sd = raw ? rj_fn_raw_stddev(rows[j]) : rj_fn_stddev(rows[j]);
		json_int_t interrupted = rj_fn_interrupted(rows[j]);
		char label[80], m[32], sdt[32];

		snprintf(label, sizeof(label), "%s:", rj_fn_function(rows[j]));
		pcb_stddev_text(sdt, sizeof(sdt), sd, rj_get(rows[j], RJ_F_fn_unstable),
				&mk->unstable);
		if (has_mean)
			format_mean(m, sizeof(m), fn_mean(rows[j], raw), resolution(rows[j], step),
				    raw, &mk->below);
		else
			snprintf(m, sizeof(m), "-");
		fprintf(out, "%-*s%-*s%-*s%" JSON_INTEGER_FORMAT "\n", w, label, COL, m, COL, sdt,
			rj_fn_calls(rows[j]));
		if (interrupted)
			snprintf(aside + strlen(aside), sizeof(aside) - strlen(aside), "%s%s %"
				 JSON_INTEGER_FORMAT, aside[0] ? ", " : "", rj_fn_function(rows[j]),
				 interrupted);
	}
	if (aside[0])
		fprintf(out, "(set aside: timed regions longer than the interruption threshold, "
			"counted under interruptions: %s)\n", aside);
	fprintf(out, "\n");
}

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

/* a Diff row: a function of a design and the same of its baseline */
struct diff_row {
	json_t *fj, *bf;
	double p;			/* Welch's two-sided p, then Holm-adjusted */
};

/* the Diff rows of a result's tables, and how they print */
struct diff_set {
	struct diff_row *row;
	size_t n, max;
	double step;			/* the TSC step, for the resolution's ~ */
	const struct pcb_table_opts *opts;
};

/* the rows of dj that base has too, appended to the set, with Welch's p-values */
static void collect_diffs(json_t *functions, json_t *dj, json_t *base, struct diff_set *set)
{
	int raw = set->opts->raw;
	json_t *rows[MAX_ROWS];
	size_t nr = design_functions(functions, rj_design_design(dj), rows, MAX_ROWS);
	static double va[MAX_RUNS], vb[MAX_RUNS];

	for (size_t j = 0; j < nr && set->n < set->max; j++) {
		json_t *bf = find_function(functions, rj_design_design(base),
					   rj_fn_function(rows[j]));
		int na, nb;

		if (!bf)
			continue;
		na = run_means(rows[j], raw, va, MAX_RUNS);
		nb = run_means(bf, raw, vb, MAX_RUNS);
		set->row[set->n++] = (struct diff_row){ rows[j], bf, pcb_welch_p(va, na, vb, nb) };
	}
}

/* "[lo, hi]": the 95% interval of x's Diff % over base's run means, "-" where none */
void pcb_diff_ci_text(char *buf, size_t len, json_t *fj, json_t *bf, int raw)
{
	static double va[MAX_RUNS], vb[MAX_RUNS];
	int na = run_means(fj, raw, va, MAX_RUNS), nb = run_means(bf, raw, vb, MAX_RUNS);
	double lo, hi;

	if (pcb_ratio_ci95(va, na, vb, nb, &lo, &hi) < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%.2f, %.2f]", lo, hi);
}

/* dj - base over the set's rows [from, to), and their geometric mean */
static void diff_block(FILE *out, json_t *dj, json_t *base, const struct diff_set *set,
		       size_t from, size_t to)
{
	const struct pcb_table_opts *opts = set->opts;
	const struct diff_row *d = set->row + from;
	size_t n = to - from;
	double step = set->step;
	int raw = opts->raw, w, nratio = 0;
	double ratio[MAX_ROWS];
	char title[400];
	const char *head;

	snprintf(title, sizeof(title), "%s - %s", rj_design_design(dj), rj_design_design(base));
	w = title_col(out, title, 2 * COL + 18, opts, &head);
	fprintf(out, "%-*s%-*s%-*s%s\n", w, head, COL, "Diff (cycles)", COL, "Diff %", "95% CI");
	for (size_t j = 0; j < n; j++) {
		double x = fn_mean(d[j].fj, raw), y = fn_mean(d[j].bf, raw);
		char label[80], pct[48], ci[64];

		snprintf(label, sizeof(label), "%s:", rj_fn_function(d[j].fj));
		fprintf(out, "%-*s%-*.2f", w, label, COL, x - y);
		/* no percentage of nothing: a base at or below the empty region */
		if (!(y > 0)) {
			fprintf(out, "-\n");
			continue;
		}
		snprintf(pct, sizeof(pct), "%s%.2f%s", !raw && y < resolution(d[j].bf, step) ?
			 "~" : "", 100 * (x - y) / y, d[j].p <= 0.05 ? "*" : "");
		pcb_diff_ci_text(ci, sizeof(ci), d[j].fj, d[j].bf, raw);
		fprintf(out, "%-*s%s\n", COL, pct, ci);
		if (x > 0 && nratio < MAX_ROWS)
			ratio[nratio++] = x / y;
	}
	/* the block in one figure, as mmtests' --print-ratio and Google Benchmark's OVERALL_GEOMEAN */
	if (nratio > 1)
		fprintf(out, "%-*s%-*s%.2f\n", w, "geomean:", COL, "-",
			100 * (pcb_geomean(ratio, nratio) - 1));
	fprintf(out, "\n");
}

/* the Diff blocks' legend: the test, its correction, the interval, the geometric mean */
static void diff_legend(FILE *out, int any_sig, size_t n)
{
	if (any_sig)
		fprintf(out, "* the run means differ at 95%% confidence (Welch's t-test), "
			"Holm-Bonferroni-corrected over\n  the %zu differences above\n", n);
	else
		fprintf(out, "no difference is significant at 95%% confidence (Welch's t-test "
			"over run means,\n  Holm-Bonferroni-corrected over the %zu differences "
			"above)\n", n);
	fprintf(out, "95%% CI: of the Diff %%, Welch's interval on the run means, the ratio's "
		"standard error by\n  the delta method (each row's own, not corrected); "
		"geomean: of the rows' ratios\n\n");
}

/* every Diff block, the rows' marks corrected together (Holm-Bonferroni) */
static void diff_blocks(FILE *out, json_t *result, const char *baseline, int names,
			double step, const struct pcb_table_opts *opts)
{
	json_t *designs = rj_top_designs(result), *functions = rj_top_functions(result), *dj;
	size_t max = json_array_size(functions), at = 0, i;
	struct diff_set set = { .max = max, .step = step, .opts = opts };
	double *p = calloc(max ? max : 1, sizeof(*p));
	int any_sig = 0;

	set.row = calloc(max ? max : 1, sizeof(*set.row));
	if (!set.row || !p)
		goto out;
	json_array_foreach(designs, i, dj) {
		json_t *base = baseline_of(designs, dj, baseline, names);

		if (base)
			collect_diffs(functions, dj, base, &set);
	}
	for (i = 0; i < set.n; i++)
		p[i] = set.row[i].p;
	pcb_holm_adjust(p, (int)set.n, p);
	for (i = 0; i < set.n; i++) {
		set.row[i].p = p[i];
		any_sig |= p[i] <= 0.05;
	}
	json_array_foreach(designs, i, dj) {
		json_t *base = baseline_of(designs, dj, baseline, names);
		size_t from = at;

		if (!base)
			continue;
		while (at < set.n && !strcmp(rj_fn_design(set.row[at].fj), rj_design_design(dj)))
			at++;
		diff_block(out, dj, base, &set, from, at);
	}
	if (set.n)
		diff_legend(out, any_sig, set.n);
out:
	free(set.row);
	free(p);
}

void pcb_tables_functions(FILE *out, json_t *result, const struct pcb_table_opts *opts)
{
	json_t *designs = rj_top_designs(result);
	json_t *functions = rj_top_functions(result);
	json_t *sc = rj_top_scenario(result), *dj, *rows[MAX_ROWS];
	double step = (double)rj_ctx_tsc_step(rj_top_context(result));
	const char *baseline = rj_sc_has_baseline(sc) ? rj_sc_baseline(sc) :
			       rj_design_design_name(json_array_get(designs, 0));
	int names = design_names(designs);
	struct fn_marks mk = { 0 };
	size_t i, n;

	json_array_foreach(designs, i, dj)
		design_block(out, functions, dj, step, opts, &mk);
	if (mk.below)
		fprintf(out, "~ below the timer's resolution: the TSC advances in steps of %.0f "
			"tick(s), so a region reads to the step and the mean is an average of\n"
			"  steps; <1 step: less than the empty region itself\n\n", step);
	if (mk.unstable)
		pcb_unstable_legend(out, result);

	diff_blocks(out, result, baseline, names, step, opts);

	/* distribution of the per-call figure */
	json_array_foreach(designs, i, dj) {
		const char *d = rj_design_design(dj), *head;
		char title[400];
		int w;

		snprintf(title, sizeof(title), "%s percentiles", d);
		w = title_col(out, title, 30 + 10, opts, &head);
		fprintf(out, "%-*s%-10s%-10s%-10s%s\n", w, head, "p50", "p99", "p99.9", "max");
		n = design_functions(functions, d, rows, MAX_ROWS);
		for (size_t j = 0; j < n; j++) {
			char label[80];

			snprintf(label, sizeof(label), "%s:", rj_fn_function(rows[j]));
			fprintf(out, "%-*s%-10" JSON_INTEGER_FORMAT "%-10" JSON_INTEGER_FORMAT
				"%-10" JSON_INTEGER_FORMAT "%" JSON_INTEGER_FORMAT "\n", w, label,
				rj_fn_p50(rows[j]), rj_fn_p99(rows[j]), rj_fn_p999(rows[j]),
				rj_fn_max(rows[j]));
		}
		fprintf(out, "\n");
	}
}
