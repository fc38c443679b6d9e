/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../scenario/scenario.h"
#include "../../schema/schema.h"
#include "../read/query.h"
#include "layout.h"

void pcb_md_put(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '|': case '`': case '\\': case '[': case ']':
			fputc('\\', out);
			fputc(*s, out);
			break;
		case '\n': case '\r': fputc(' ', out); break;
		default: fputc(*s, out);
		}
	}
}

int pcb_first_col(const char *s)
{
	int n = (int)strlen(s) + 2;

	return n < 24 ? 24 : n;
}

int pcb_title_col(FILE *out, const char *title, int rest, const struct pcb_table_opts *opts,
		  const char **head)
{
	int w = pcb_first_col(title);

	*head = title;
	if (!opts->width || w + rest <= opts->width)
		return w;
	fprintf(out, "%s\n", title);
	*head = "";
	return 24;
}

void pcb_subtracted_text(json_t *result, double base, char *buf, size_t len)
{
	double lo, hi;

	pcb_result_subtracted(result, base, &lo, &hi);
	if (hi > lo)
		snprintf(buf, len, "%.1f-%.1f", lo, hi);
	else
		snprintf(buf, len, "%.1f", lo);
}

const char *pcb_swept_text(json_t *result, int key, const char *value, char *buf, size_t len)
{
	const struct pcb_key *k = pcb_key_get(key);
	const char *swept = pcb_swept(result, key);

	if (!swept)
		return value;
	snprintf(buf, len, "each configuration's (%s.%s = %.100s)", k->section, k->name, swept);
	return buf;
}

const char *pcb_runs_setting(json_t *result, char *buf, size_t len)
{
	const char *runs = pcb_setting(result, K_RUN_RUNS);

	/* settings holds the first configuration's: each design line says its own auto */
	if (pcb_swept(result, K_RUN_RUNS))
		return pcb_swept_text(result, K_RUN_RUNS, runs, buf, len);
	if (strcmp(runs, "auto"))
		return runs;
	snprintf(buf, len, "auto (%d to %s, until every row's 95%% interval is within %s%% of "
		 "its mean)", PCB_AUTO_MIN_RUNS, pcb_setting(result, K_RUN_MAX_RUNS),
		 pcb_setting(result, K_RUN_CI_TARGET));
	return buf;
}

/* a row's STDDEV, with the noise gate's mark where its run means spread past run.max_cv */
void pcb_stddev_text(char *buf, size_t len, double sd, json_t *unstable, int *noisy)
{
	int mark = json_is_true(unstable);

	snprintf(buf, len, "%.2f%s", sd, mark ? PCB_UNSTABLE_MARK : "");
	*noisy |= mark;
}

void pcb_unstable_legend(FILE *out, json_t *result, int width)
{
	pcb_paragraph(out, width, PCB_UNSTABLE_MARK " unstable: the run means' coefficient of "
		      "variation is above run.max_cv (%s%%); more runs (run.runs = auto) or a "
		      "quieter machine narrow it", pcb_setting(result, K_RUN_MAX_CV));
	fprintf(out, "\n");
}

const char *pcb_cycles_text(json_t *result, char *buf, size_t len)
{
	json_t *ctx = rj_top_context(result);

	snprintf(buf, len, "cycles: TSC cycles at %.1f MHz (step %" JSON_INTEGER_FORMAT "); %s",
		 rj_ctx_tsc_hz(ctx) / 1e6, rj_ctx_tsc_step(ctx), pcb_result_raw(result) ?
		 "means raw: the timer's empty region in them, as seed 000's instrument "
		 "printed them (percentiles net)" : "means net: the timer's empty region "
		 "subtracted");
	return buf;
}

void pcb_pct_ci_cells(FILE *out, const char *pct, const char *ci, int at,
		      const struct pcb_table_opts *opts)
{
	if (opts->width && at + PCB_TABLE_COL + (int)strlen(ci) > opts->width)
		fprintf(out, "%s\n%*s%s\n", pct, at, "", ci);
	else
		fprintf(out, "%-*s%s\n", PCB_TABLE_COL, pct, ci);
}

const char *pcb_mean_head(int raw)
{
	return raw ? "Raw cycles" : "Avg cycles";
}

/*
 * text's words onto out, a line at most width long where a word allows; the
 * first line indented as text is, the others two more
 */
static void fill(FILE *out, const char *text, int width)
{
	int lead = (int)strspn(text, " "), indent = lead, col;

	col = fprintf(out, "%*s", lead, "");
	while (*text) {
		int n;

		text += strspn(text, " ");
		n = (int)strcspn(text, " ");
		if (!n)
			break;
		if (col > indent && col + 1 + n > width) {
			indent = lead + 2;
			col = fprintf(out, "\n%*s", indent, "") - 1;
		} else if (col > indent) {
			col += fprintf(out, " ");
		}
		col += fprintf(out, "%.*s", n, text);
		text += n;
	}
	fprintf(out, "\n");
}

void pcb_paragraph(FILE *out, int width, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	fill(out, text, width > 0 ? width : PCB_TEXT_WIDTH);
	free(text);
}

const char *pcb_levels_text(char *buf, size_t len, double lo, double hi)
{
	if (lo < hi)
		snprintf(buf, len, "%.4g%% to %.4g%%", 100 * lo, 100 * hi);
	else
		snprintf(buf, len, "%.4g%%", 100 * lo);
	return buf;
}

void pcb_diff_legend(FILE *out, const struct pcb_diff_legend *l)
{
	char range[80], mark[64];

	pcb_levels_text(range, sizeof(range), l->lo, l->hi);
	snprintf(mark, sizeof(mark), l->any_sig ? "%s the difference is significant:" :
		 "no difference is significant:", l->star);
	pcb_paragraph(out, l->width, "%s Welch's test on the run means, Holm's step-down over "
		      "the %zu differences %s (a 5%% chance of any mark where none differ). %s: "
		      "the Diff %%'s interval, Fieller's for the ratio of the means, at the "
		      "confidence Holm's procedure tested its row at (%s); a row is marked "
		      "exactly where it excludes 0.%s%s", mark, l->n, l->whom, PCB_DIFF_CI_HEAD,
		      range, l->more ? " " : "", l->more ? l->more : "");
	fprintf(out, "\n");
}
