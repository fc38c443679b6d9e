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

/* how the function blocks read a result, and the marks they made, for the legends under them */
struct fn_marks {
	double step;			/* the TSC's */
	int raw;			/* the result's means raw */
	int below;			/* ~ or <1 step: below the timer's resolution */
	int unstable;			/* ! the noise gate's */
};

/* one block a design: mean, STDDEV, calls; what was set aside as interrupted */
static void design_block(FILE *out, json_t *functions, json_t *dj,
			 const struct pcb_table_opts *opts, struct fn_marks *mk)
{
	const char *d = rj_design_design(dj), *head;
	int raw = mk->raw;
	json_t *rows[PCB_MAX_ROWS];
	char aside[512] = "";
	int w = pcb_title_col(out, d, 2 * COL + 16, opts, &head);
	size_t n = pcb_design_function_rows(functions, d, rows, PCB_MAX_ROWS);

	fprintf(out, "%-*s%-*s%-*s%s\n", w, head, COL, pcb_mean_head(raw), COL, "STDDEV",
		"Call Count");
	for (size_t j = 0; j < n; j++) {
		int has_mean = raw ? rj_fn_has_raw_avg_cycles(rows[j]) : 1;
		double sd = pcb_fn_stddev(rows[j], raw);
		json_int_t interrupted = rj_fn_interrupted(rows[j]);
		char label[80], m[32], sdt[32];

		snprintf(label, sizeof(label), "%s:", rj_fn_function(rows[j]));
		pcb_stddev_text(sdt, sizeof(sdt), sd, rj_get(rows[j], RJ_F_fn_unstable),
				&mk->unstable);
		if (has_mean)
			format_mean(m, sizeof(m), pcb_fn_mean(rows[j], raw),
				    pcb_fn_resolution(rows[j], mk->step), raw, &mk->below);
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

/* "[lo, hi]": the interval of a row's Diff %, "unbounded" or "-" where it has none */
static void ci_text(char *buf, size_t len, const struct pcb_diff_fig *f)
{
	if (!f->tested || !f->has_pct)
		snprintf(buf, len, "-");
	else if (!f->pct_bounded)
		snprintf(buf, len, "unbounded");
	else
		snprintf(buf, len, "[%.2f, %.2f]", f->pct_lo, f->pct_hi);
}

/* a block's Diff rows, and their geometric mean */
static void diff_block(FILE *out, const struct pcb_diffs *d, const struct pcb_diff_block *b,
		       double step, const struct pcb_table_opts *opts)
{
	int w, nratio = 0;
	double ratio[PCB_MAX_ROWS];
	char title[400];
	const char *head;

	snprintf(title, sizeof(title), "%s - %s", rj_design_design(b->dj),
		 rj_design_design(b->base));
	w = pcb_title_col(out, title, 2 * COL + 18, opts, &head);
	fprintf(out, "%-*s%-*s%-*s%s\n", w, head, COL, "Diff (cycles)", COL, "Diff %",
		PCB_DIFF_CI_HEAD);
	for (size_t j = b->from; j < b->to; j++) {
		const struct pcb_diff_fig *f = &d->row[j].f;
		char label[80], pct[48], ci[64];

		snprintf(label, sizeof(label), "%s:", rj_fn_function(d->row[j].fj));
		fprintf(out, "%-*s%-*.2f", w, label, COL, f->diff);
		/* no percentage of nothing: a base at or below the empty region */
		if (!f->has_pct) {
			fprintf(out, "-\n");
			continue;
		}
		snprintf(pct, sizeof(pct), "%s%.2f%s", !d->raw &&
			 f->y < pcb_fn_resolution(d->row[j].bf, step) ? "~" : "", f->pct,
			 f->significant ? "*" : "");
		ci_text(ci, sizeof(ci), f);
		pcb_pct_ci_cells(out, pct, ci, w + COL, opts);
		if (f->x > 0 && nratio < PCB_MAX_ROWS)
			ratio[nratio++] = f->x / f->y;
	}
	/* the block in one figure, as mmtests' --print-ratio and Google Benchmark's OVERALL_GEOMEAN */
	if (nratio > 1)
		fprintf(out, "%-*s%-*s%.2f\n", w, "geomean:", COL, "-",
			100 * (pcb_geomean(ratio, nratio) - 1));
	fprintf(out, "\n");
}

/* every Diff block, each row marked where its interval excludes 0 (read/interval.h) */
static void diff_blocks(FILE *out, json_t *result, double step,
			const struct pcb_table_opts *opts)
{
	struct pcb_diff_legend l = { .width = opts->width, .star = "*", .whom = "above",
				     .more = "geomean: of the rows' ratios." };
	struct pcb_diffs d;

	if (pcb_result_diffs(result, &d) < 0)
		return;
	l.lo = 1;
	for (size_t i = 0; i < d.n; i++) {
		const struct pcb_diff_fig *f = &d.row[i].f;

		l.any_sig |= f->significant;
		if (f->tested) {
			l.lo = f->level < l.lo ? f->level : l.lo;
			l.hi = f->level > l.hi ? f->level : l.hi;
		}
	}
	for (size_t b = 0; b < d.nblocks; b++)
		diff_block(out, &d, &d.block[b], step, opts);
	l.n = d.tested;
	if (d.tested)
		pcb_diff_legend(out, &l);
	pcb_diffs_free(&d);
}

/* distribution of the per-call figure, where one was kept (not by the instrumented backend) */
static void percentiles(FILE *out, json_t *functions, json_t *dj,
			const struct pcb_table_opts *opts)
{
	const char *d = rj_design_design(dj), *head;
	json_t *rows[PCB_MAX_ROWS];
	char title[400];
	size_t n, kept = 0;
	int w;

	n = pcb_design_function_rows(functions, d, rows, PCB_MAX_ROWS);
	for (size_t j = 0; j < n; j++)
		kept += rj_fn_has_histogram(rows[j]) && json_array_size(rj_fn_histogram(rows[j]));
	if (!kept)
		return;
	snprintf(title, sizeof(title), "%s percentiles", d);
	w = pcb_title_col(out, title, 30 + 10, opts, &head);
	fprintf(out, "%-*s%-10s%-10s%-10s%s\n", w, head, "p50", "p99", "p99.9", "max");
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
	struct fn_marks mk = { .step = step, .raw = pcb_result_raw(result) };
	size_t i;

	json_array_foreach(designs, i, dj)
		design_block(out, functions, dj, opts, &mk);
	if (mk.below) {
		pcb_paragraph(out, opts->width, "~ below the timer's resolution: the TSC advances "
			      "in steps of %.0f cycle(s), so a region reads to the step and the mean "
			      "is an average of steps; <1 step: less than the empty region itself",
			      step);
		fprintf(out, "\n");
	}
	if (mk.unstable)
		pcb_unstable_legend(out, result, opts->width);

	diff_blocks(out, result, step, opts);

	json_array_foreach(designs, i, dj)
		percentiles(out, functions, dj, opts);
}
