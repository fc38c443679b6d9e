/* SPDX-License-Identifier: MIT */
/*
 * compare's text and cover letter (the formats of format/ that print
 * them): the cover letter's blocks (seed 000's: a block of means, then
 * "B - A  Diff (cycles)  Diff %"), the mark as mmtests' compare-kernels.sh
 * prints a significant difference (`*-1.35%*`); markdown the same blocks
 * as tables.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../measure/stats.h"
#include "../../schema/schema.h"
#include "../read/query.h"
#include "../write/textout.h"
#include "compare.h"
#include "compare_print.h"
#include "layout.h"
#include "letter.h"

#define COL PCB_TABLE_COL

/* one function of a block: its row in each result, NULL where missing */
struct cmp_line {
	const char *function;
	json_t *row[PCB_COMPARE_MAX];
};

struct cmp_block {
	const char *design, *config;
	char title[400];
	struct cmp_line line[PCB_MAX_ROWS];
	int nr_lines;
};

static int same_block(json_t *row, const struct cmp_block *b)
{
	return !strcmp(rj_cmprow_design(row), b->design) && !strcmp(rj_cmprow_config(row), b->config);
}

/* the rows from *at that share its design and config, *at moved past them */
static int next_block(json_t *rows, size_t *at, struct cmp_block *b)
{
	json_t *row = json_array_get(rows, *at);

	if (!row)
		return 0;
	memset(b, 0, sizeof(*b));
	b->design = rj_cmprow_design(row);
	b->config = rj_cmprow_config(row);
	snprintf(b->title, sizeof(b->title), "%s%s%s", b->design, *b->config ? " " : "",
		 b->config);
	for (; (row = json_array_get(rows, *at)) && same_block(row, b); (*at)++) {
		int r = (int)rj_cmprow_result(row);
		struct cmp_line *l = b->nr_lines ? &b->line[b->nr_lines - 1] : NULL;

		if (!l || strcmp(l->function, rj_cmprow_function(row))) {
			if (b->nr_lines == PCB_MAX_ROWS)
				continue;
			l = &b->line[b->nr_lines++];
			l->function = rj_cmprow_function(row);
		}
		if (r >= 0 && r < PCB_COMPARE_MAX)
			l->row[r] = row;
	}
	return 1;
}

/* Diff % with mmtests' mark: `*-1.35%*` significant, ` -1.35%` not */
static void format_pct(char *buf, size_t len, json_t *row, int markdown)
{
	json_t *pct = rj_get(row, RJ_F_cmprow_diff_pct);
	const char *star = markdown ? "\\*" : "*";

	if (!json_is_number(pct))
		snprintf(buf, len, "-");
	else if (rj_cmprow_significant(row))
		snprintf(buf, len, "%s%.2f%%%s", star, json_number_value(pct), star);
	else
		snprintf(buf, len, "%s%.2f%%", markdown ? "" : " ", json_number_value(pct));
}

/* a Diff %'s interval, "[lo, hi]", "unbounded" (Fieller's), or "-" where it has none */
static void format_ci(char *buf, size_t len, json_t *row)
{
	json_t *lo = rj_get(row, RJ_F_cmprow_ci_low_pct), *hi = rj_get(row, RJ_F_cmprow_ci_high_pct);

	if (json_is_number(lo) && json_is_number(hi))
		snprintf(buf, len, "[%.2f, %.2f]", json_number_value(lo), json_number_value(hi));
	else if (json_is_number(rj_get(row, RJ_F_cmprow_ci_level)) &&
		 json_is_number(rj_get(row, RJ_F_cmprow_diff_pct)))
		snprintf(buf, len, "unbounded");
	else
		snprintf(buf, len, "-");
}

/* whether a compare reads raw means (the timer in them) */
static int cmp_raw(json_t *cmp)
{
	return rj_cmp_has_means(cmp) && !strcmp(rj_cmp_means(cmp), "raw");
}

/* a compare row's mean and STDDEV, of the means it reads */
static double row_mean(json_t *row, int raw)
{
	return raw ? rj_cmprow_raw_avg_cycles(row) : rj_cmprow_avg_cycles(row);
}

static double row_stddev(json_t *row, int raw)
{
	return raw ? rj_cmprow_raw_stddev(row) : rj_cmprow_stddev(row);
}

/*
 * the geometric mean of result r's ratios to A over b's lines, as a Diff %
 * (mmtests' --print-ratio, Google Benchmark's OVERALL_GEOMEAN): 1, or 0
 * where fewer than two lines have a ratio
 */
static int block_geomean(const struct cmp_block *b, int r, char *buf, size_t len)
{
	double ratio[PCB_MAX_ROWS];
	int n = 0;

	for (int j = 0; j < b->nr_lines; j++) {
		json_t *row = b->line[j].row[r];
		json_t *pct = row ? rj_get(row, RJ_F_cmprow_diff_pct) : NULL;

		if (json_is_number(pct) && 1 + json_number_value(pct) / 100 > 0)
			ratio[n++] = 1 + json_number_value(pct) / 100;
	}
	if (n < 2)
		return 0;
	snprintf(buf, len, " %.2f%%", 100 * (pcb_geomean(ratio, n) - 1));
	return 1;
}

/* line j of b has a difference of result r from A */
static int line_has_diff(const struct cmp_block *b, int j, int r)
{
	json_t *row = b->line[j].row[r];

	return row && json_is_number(rj_get(row, RJ_F_cmprow_diff_cycles));
}

/* b has a difference of result r from A: else its Diff block (or columns) is left out */
static int block_has_diff(const struct cmp_block *b, int r)
{
	for (int j = 0; j < b->nr_lines; j++)
		if (line_has_diff(b, j, r))
			return 1;
	return 0;
}

static void text_block(FILE *out, const struct cmp_block *b, int n, int width, int raw)
{
	struct pcb_table_opts opts = { .width = width };
	int per = n, w;
	const char *head;

	/* the means, as many results to a block as the width takes */
	if (width) {
		per = (width - 24) / COL;
		per = per < 1 ? 1 : per;
	}
	for (int from = 0; from < n; from += per) {
		int to = from + per < n ? from + per : n;

		w = pcb_title_col(out, b->title, COL * (to - from), &opts, &head);
		fprintf(out, "%-*s", w, head);
		for (int r = from; r < to; r++)
			fprintf(out, "%c %-*s%s", pcb_compare_letter(r), r + 1 < to ? COL - 2 : 0,
				pcb_mean_head(raw), r + 1 < to ? "" : "\n");
		for (int j = 0; j < b->nr_lines; j++) {
			char label[80];

			snprintf(label, sizeof(label), "%s:", b->line[j].function);
			fprintf(out, "%-*s", w, label);
			for (int r = from; r < to; r++) {
				json_t *row = b->line[j].row[r];
				char m[32] = "-";

				if (row)
					snprintf(m, sizeof(m), "%.2f", row_mean(row, raw));
				fprintf(out, "%-*s%s", r + 1 < to ? COL : 0, m, r + 1 < to ? "" : "\n");
			}
		}
		fprintf(out, "\n");
	}
	for (int r = 1; r < n; r++) {
		char title[440], pct_geo[48];

		if (!block_has_diff(b, r))
			continue;
		snprintf(title, sizeof(title), "%s: %c - A", b->title, pcb_compare_letter(r));
		w = pcb_title_col(out, title, 2 * COL + 18, &opts, &head);
		fprintf(out, "%-*s%-*s%-*s%s\n", w, head, COL, "Diff (cycles)", COL, "Diff %",
			PCB_DIFF_CI_HEAD);
		for (int j = 0; j < b->nr_lines; j++) {
			json_t *row = b->line[j].row[r];
			char label[80], pct[48], ci[64];

			if (!line_has_diff(b, j, r))
				continue;
			snprintf(label, sizeof(label), "%s:", b->line[j].function);
			format_pct(pct, sizeof(pct), row, 0);
			format_ci(ci, sizeof(ci), row);
			fprintf(out, "%-*s%-*.2f", w, label, COL, rj_cmprow_diff_cycles(row));
			pcb_pct_ci_cells(out, pct, ci, w + COL, &opts);
		}
		if (block_geomean(b, r, pct_geo, sizeof(pct_geo)))
			fprintf(out, "%-*s%-*s%s\n", w, "geomean:", COL, "-", pct_geo);
		fprintf(out, "\n");
	}
}

/* the rows Holm's procedure went over (those with a p-value), the levels of their intervals */
static size_t nr_diffs(json_t *cmp, double *lo, double *hi)
{
	size_t i, n = 0;
	json_t *row;

	*lo = 1;
	*hi = 0;
	json_array_foreach(rj_cmp_rows(cmp), i, row) {
		double level = rj_cmprow_ci_level(row);

		if (!json_is_number(rj_get(row, RJ_F_cmprow_p_value)))
			continue;
		n++;
		*lo = level < *lo ? level : *lo;
		*hi = level > *hi ? level : *hi;
	}
	return n;
}

/* the marks' and intervals' legend (read/interval.h), as the tables give it */
static void legend(FILE *out, json_t *cmp, int markdown, int width)
{
	struct pcb_diff_legend l = { .width = width, .star = markdown ? "\\*" : "*",
				     .whom = "from A of this compare",
				     .more = "geomean: of a block's ratios to A." };
	json_t *row;
	size_t i;

	l.n = nr_diffs(cmp, &l.lo, &l.hi);
	json_array_foreach(rj_cmp_rows(cmp), i, row)
		l.any_sig |= json_is_true(rj_get(row, RJ_F_cmprow_significant));
	if (l.n)
		pcb_diff_legend(out, &l);
}

static void context_lines(FILE *out, json_t *cmp, int markdown)
{
	json_t *d, *v;
	size_t i, j;

	json_array_foreach(rj_cmp_context_differences(cmp), i, d) {
		fprintf(out, "%scontext differs: ", markdown ? "- " : "");
		if (markdown)
			pcb_md_put(out, rj_cmpdiff_key(d));
		else
			fputs(rj_cmpdiff_key(d), out);
		fputs(": ", out);
		json_array_foreach(rj_cmpdiff_values(d), j, v) {
			fputs(j ? " | " : "", out);
			if (markdown)
				pcb_md_put(out, json_string_value(v));
			else
				fputs(json_string_value(v), out);
		}
		fprintf(out, "\n");
	}
	if (json_array_size(rj_cmp_context_differences(cmp)))
		fprintf(out, "\n");
}

static void results_key(FILE *out, json_t *cmp, int markdown)
{
	json_t *r;
	size_t i;

	json_array_foreach(rj_cmp_results(cmp), i, r) {
		if (!markdown) {
			fprintf(out, "  %c  %s (%s)%s\n", pcb_compare_letter((int)i),
				rj_cmpres_label(r), rj_cmpres_path(r), i ? "" : ", the baseline");
			continue;
		}
		fprintf(out, "- **%c**: ", pcb_compare_letter((int)i));
		pcb_md_put(out, rj_cmpres_label(r));
		fputs(" (", out);
		pcb_md_put(out, rj_cmpres_path(r));
		fprintf(out, ")%s\n", i ? "" : ", the baseline");
	}
	fprintf(out, "\n");
}

static void missing_lines(FILE *out, json_t *cmp, int markdown)
{
	json_t *m;
	size_t i;

	json_array_foreach(rj_cmp_missing(cmp), i, m) {
		char what[1024];

		snprintf(what, sizeof(what), "%s%s%s %s", rj_cmpmiss_design(m),
			 *rj_cmpmiss_config(m) ? " " : "", rj_cmpmiss_config(m), rj_cmpmiss_function(m));
		fputs(markdown ? "- missing: " : "missing: ", out);
		if (markdown)
			pcb_md_put(out, what);
		else
			fputs(what, out);
		fprintf(out, ": not in %c\n", pcb_compare_letter((int)rj_cmpmiss_result(m)));
	}
	if (json_array_size(rj_cmp_missing(cmp)))
		fprintf(out, "\n");
}

static void print_text(FILE *out, json_t *cmp, int width)
{
	int raw = cmp_raw(cmp);
	json_t *rows = rj_cmp_rows(cmp);
	int n = (int)json_array_size(rj_cmp_results(cmp));
	struct cmp_block *b = malloc(sizeof(*b));
	size_t at = 0;

	if (!b)
		return;
	while (next_block(rows, &at, b))
		text_block(out, b, n, width, raw);
	free(b);
	missing_lines(out, cmp, 0);
	legend(out, cmp, 0, width);
}

static void print_markdown_tables(FILE *out, json_t *cmp)
{
	json_t *rows = rj_cmp_rows(cmp);
	int n = (int)json_array_size(rj_cmp_results(cmp)), raw = cmp_raw(cmp);
	struct cmp_block *b = malloc(sizeof(*b));
	size_t at = 0;

	if (!b)
		return;
	while (next_block(rows, &at, b)) {
		int cols = n;

		fputs("#### ", out);
		pcb_md_put(out, b->title);
		fputs("\n\n| function |", out);
		for (int r = 0; r < n; r++)
			fprintf(out, " %c %s |", pcb_compare_letter(r), pcb_mean_head(raw));
		/* a result with no difference from A in this block gets no Diff columns */
		for (int r = 1; r < n; r++)
			if (block_has_diff(b, r)) {
				fprintf(out, " %c - A Diff (cycles) | %c - A Diff %% | %c - A %s |",
					pcb_compare_letter(r), pcb_compare_letter(r),
					pcb_compare_letter(r), PCB_DIFF_CI_HEAD);
				cols += 3;
			}
		fprintf(out, "\n|---|");
		for (int r = 0; r < cols; r++)
			fprintf(out, "---:|");
		fprintf(out, "\n");
		for (int j = 0; j < b->nr_lines; j++) {
			fputs("| ", out);
			pcb_md_put(out, b->line[j].function);
			fputs(" |", out);
			for (int r = 0; r < n; r++) {
				json_t *row = b->line[j].row[r];

				if (row)
					fprintf(out, " %.2f ± %.2f |", row_mean(row, raw),
						row_stddev(row, raw));
				else
					fprintf(out, " - |");
			}
			for (int r = 1; r < n; r++) {
				json_t *row = b->line[j].row[r];
				char pct[48], ci[64];

				if (!block_has_diff(b, r))
					continue;
				if (!line_has_diff(b, j, r)) {
					fprintf(out, " - | - | - |");
					continue;
				}
				format_pct(pct, sizeof(pct), row, 1);
				format_ci(ci, sizeof(ci), row);
				fprintf(out, " %.2f | %s | %s |",
					rj_cmprow_diff_cycles(row), pct, ci);
			}
			fprintf(out, "\n");
		}
		fprintf(out, "\n");
	}
	free(b);
	missing_lines(out, cmp, 1);
	fprintf(out, "Means in cycles (%s) ± the STDDEV of the run means.\n\n",
		pcb_means_word(raw));
	legend(out, cmp, 1, 0);
}

static void print_letter(FILE *out, json_t *cmp, json_t **results, int markdown)
{
	int n = (int)json_array_size(rj_cmp_results(cmp));
	char fallback[PATH_MAX + 32];

	if (markdown)
		fprintf(out, "## pcpbench compare: %s model, %d results\n\n",
			rj_cmp_model(cmp), n);
	else
		fprintf(out, "pcpbench compare: %s model, %d results, each against A\n\n",
			rj_cmp_model(cmp), n);
	context_lines(out, cmp, markdown);
	fprintf(out, markdown ? "### Results compared\n\n" : "Results compared\n");
	results_key(out, cmp, markdown);
	pcb_letter_test_system(out, results[0], "Test System (A's)", markdown);
	pcb_letter_method(out, results[0], markdown);
	if (markdown) {
		fprintf(out, "### Tables\n\n");
		print_markdown_tables(out, cmp);
		fprintf(out, "\n### Reproduce\n\n```\n");
	} else {
		fprintf(out, "Tables\n\n");
		print_text(out, cmp, PCB_LETTER_WIDTH);
		fprintf(out, "\nTo reproduce:\n\n");
	}
	for (int r = 0; r < n; r++) {
		const char *cmd = pcb_letter_command(results[r], fallback, sizeof(fallback));
		char prefix[16];

		if (markdown) {
			fprintf(out, "# %c\n%s\n", pcb_compare_letter(r), cmd);
			continue;
		}
		snprintf(prefix, sizeof(prefix), "  %c: ", pcb_compare_letter(r));
		pcb_letter_shell(out, prefix, cmd, PCB_LETTER_WIDTH);
	}
	if (markdown)
		fprintf(out, "```\n");
}

void pcb_compare_print_letter(FILE *out, json_t *cmp, json_t **results, int markdown)
{
	print_letter(out, cmp, results, markdown);
}

void pcb_compare_print_text(FILE *out, json_t *cmp, json_t **results)
{
	char cycles[256];

	context_lines(out, cmp, 0);
	fprintf(out, "pcpbench compare: %s model, each result against A, read as A is\n",
		rj_cmp_model(cmp));
	fprintf(out, "%s\n", pcb_cycles_text(results[0], cycles, sizeof(cycles)));
	results_key(out, cmp, 0);
	print_text(out, cmp, 0);
}
