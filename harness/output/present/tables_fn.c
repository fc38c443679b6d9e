/* SPDX-License-Identifier: MIT */
/*
 * The function tables of seed 000's cover letter, printed from the rows
 * and the differences the reader gives.
 */
#include <stdio.h>
#include <string.h>

#include "../../measure/stats.h"
#include "../../schema/schema.h"
#include "../read/diffs.h"
#include "../read/query.h"
#include "layout.h"
#include "tables_fn.h"

#define COL PCB_TABLE_COL

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
	json_t *rows[PCB_MAX_ROWS];
	char aside[512] = "";
	int w = pcb_title_col(out, d, 2 * COL + 16, opts, &head);
	size_t n = pcb_design_function_rows(functions, d, rows, PCB_MAX_ROWS);

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
			format_mean(m, sizeof(m), pcb_fn_mean(rows[j], raw),
				    pcb_fn_resolution(rows[j], step), raw, &mk->below);
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

/* "[lo, hi]": the 95% interval of fj's Diff % over bf's, "-" where none */
static void ci_text(char *buf, size_t len, json_t *fj, json_t *bf, int raw)
{
	double lo, hi;

	if (pcb_diff_ci(fj, bf, raw, &lo, &hi) < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%.2f, %.2f]", lo, hi);
}

/* a block's Diff rows, and their geometric mean */
static void diff_block(FILE *out, const struct pcb_diffs *d, const struct pcb_diff_block *b,
		       double step, const struct pcb_table_opts *opts)
{
	int raw = opts->raw, w, nratio = 0;
	double ratio[PCB_MAX_ROWS];
	char title[400];
	const char *head;

	snprintf(title, sizeof(title), "%s - %s", rj_design_design(b->dj),
		 rj_design_design(b->base));
	w = pcb_title_col(out, title, 2 * COL + 18, opts, &head);
	fprintf(out, "%-*s%-*s%-*s%s\n", w, head, COL, "Diff (cycles)", COL, "Diff %", "95% CI");
	for (size_t j = b->from; j < b->to; j++) {
		const struct pcb_diff_row *r = &d->row[j];
		double x = pcb_fn_mean(r->fj, raw), y = pcb_fn_mean(r->bf, raw);
		char label[80], pct[48], ci[64];

		snprintf(label, sizeof(label), "%s:", rj_fn_function(r->fj));
		fprintf(out, "%-*s%-*.2f", w, label, COL, x - y);
		/* no percentage of nothing: a base at or below the empty region */
		if (!(y > 0)) {
			fprintf(out, "-\n");
			continue;
		}
		snprintf(pct, sizeof(pct), "%s%.2f%s", !raw && y < pcb_fn_resolution(r->bf, step) ?
			 "~" : "", 100 * (x - y) / y, r->p <= 0.05 ? "*" : "");
		ci_text(ci, sizeof(ci), r->fj, r->bf, raw);
		fprintf(out, "%-*s%s\n", COL, pct, ci);
		if (x > 0 && nratio < PCB_MAX_ROWS)
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

/* every Diff block, marked as the reader corrected them (Holm-Bonferroni) */
static void diff_blocks(FILE *out, json_t *result, double step,
			const struct pcb_table_opts *opts)
{
	struct pcb_diffs d;
	int any_sig = 0;

	if (pcb_result_diffs(result, opts->raw, &d) < 0)
		return;
	for (size_t i = 0; i < d.n; i++)
		any_sig |= d.row[i].p <= 0.05;
	for (size_t b = 0; b < d.nblocks; b++)
		diff_block(out, &d, &d.block[b], step, opts);
	if (d.n)
		diff_legend(out, any_sig, d.n);
	pcb_diffs_free(&d);
}

/* distribution of the per-call figure */
static void percentiles(FILE *out, json_t *functions, json_t *dj,
			const struct pcb_table_opts *opts)
{
	const char *d = rj_design_design(dj), *head;
	json_t *rows[PCB_MAX_ROWS];
	char title[400];
	size_t n;
	int w;

	snprintf(title, sizeof(title), "%s percentiles", d);
	w = pcb_title_col(out, title, 30 + 10, opts, &head);
	fprintf(out, "%-*s%-10s%-10s%-10s%s\n", w, head, "p50", "p99", "p99.9", "max");
	n = pcb_design_function_rows(functions, d, rows, PCB_MAX_ROWS);
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

void pcb_tables_functions(FILE *out, json_t *result, const struct pcb_table_opts *opts)
{
	json_t *designs = rj_top_designs(result);
	json_t *functions = rj_top_functions(result), *dj;
	double step = (double)rj_ctx_tsc_step(rj_top_context(result));
	struct fn_marks mk = { 0 };
	size_t i;

	json_array_foreach(designs, i, dj)
		design_block(out, functions, dj, step, opts, &mk);
	if (mk.below)
		fprintf(out, "~ below the timer's resolution: the TSC advances in steps of %.0f "
			"tick(s), so a region reads to the step and the mean is an average of\n"
			"  steps; <1 step: less than the empty region itself\n\n", step);
	if (mk.unstable)
		pcb_unstable_legend(out, result);

	diff_blocks(out, result, step, opts);

	json_array_foreach(designs, i, dj)
		percentiles(out, functions, dj, opts);
}
