/* SPDX-License-Identifier: MIT */
/*
 * compare's CSV as bars: Diff % a function, a bar per design and result
 * from zero, its interval (the tables' CI (Holm)) as whiskers, the marked
 * ones starred as mmtests stars them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "csv.h"
#include "plot.h"

int pcb_plot_compare_check(struct pcb_csv *c, char *err, size_t errlen)
{
	const char *h = c->header;
	int res = pcb_csv_col(h, "result"), sig = pcb_csv_col(h, "significant");
	int pct = pcb_csv_col(h, "diff_pct"), comparable = 0;
	double v;

	for (int r = 0; r < c->nrows; r++) {
		const char *s = pcb_csv_cell(c, r, sig);

		if (pcb_csv_number(c, r, "result", &v, err, errlen) < 0)
			return -1;
		if (v < 0 || v != floor(v)) {
			snprintf(err, errlen, "%s:%d: result '%s' is not a result number",
				 c->path, c->line[r], pcb_csv_cell(c, r, res));
			return -1;
		}
		if (v == 0)
			continue;
		if (pcb_csv_number_or_empty(c, r, "diff_pct", &v, err, errlen) < 0)
			return -1;
		if (strcmp(s, "0") && strcmp(s, "1") && *s) {
			snprintf(err, errlen, "%s:%d: significant '%s' is not 1 or 0",
				 c->path, c->line[r], s);
			return -1;
		}
		comparable |= *pcb_csv_cell(c, r, pct) != 0;
	}
	if (!comparable) {
		snprintf(err, errlen, "%s: no result to compare with the baseline (no row has a "
			 "diff_pct: no row in common with it, or its mean is not above 0)", c->path);
		return -1;
	}
	return pcb_csv_matrix_check(c, (struct pcb_csv_index){ .cols = { pcb_csv_col(h, "function") },
							       .ncols = 1, .nonempty = -1 },
				    (struct pcb_csv_index){ .cols = { pcb_csv_col(h, "design"),
								      pcb_csv_col(h, "config"), res },
							    .ncols = 3, .nonempty = pct },
				    "functions by series", err, errlen);
}

/*
 * The bar series of a compare table: each first row of a design and
 * configuration of a result other than the baseline with a Diff % on one
 * of its rows at least (a series that has none, no row in common with the
 * baseline or a baseline mean of 0, has nothing to draw); how many, or -1
 */
static int compare_series(const struct pcb_csv *c, const struct pcb_csv_index *by_series,
			  int *series)
{
	const char *h = c->header;
	int design = pcb_csv_col(h, "design"), config = pcb_csv_col(h, "config");
	int res = pcb_csv_col(h, "result"), n = 0;

	for (int s = 0; s < c->nrows; s++) {
		const char *v[3] = {
			pcb_csv_cell(c, s, design), pcb_csv_cell(c, s, config), pcb_csv_cell(c, s, res),
		};

		if (strcmp(v[2], "0") && pcb_csv_first_seen(by_series, c, s) &&
		    pcb_csv_last_with(by_series, v) >= 0)
			series[n++] = s;
	}
	return n;
}

/* a cell of the CSV as a data file's figure: "?" where it is empty */
static const char *cell_or_missing(const struct pcb_csv *c, int row, int col)
{
	const char *v = pcb_csv_cell(c, row, col);

	return *v ? v : "?";
}

/* a row a function, each series' Diff %, mark and interval beside it */
static void compare_rows(FILE *f, const struct pcb_csv *c, const struct pcb_csv_index *x,
			 const int *series, int ns)
{
	const char *h = c->header;
	int design = pcb_csv_col(h, "design"), config = pcb_csv_col(h, "config");
	int res = pcb_csv_col(h, "result"), fn = pcb_csv_col(h, "function");
	int sig = pcb_csv_col(h, "significant"), pct = pcb_csv_col(h, "diff_pct");
	int lo = pcb_csv_col(h, "ci_low_pct"), hi = pcb_csv_col(h, "ci_high_pct");

	for (int r = 0; r < c->nrows; r++) {
		if (!pcb_csv_first_seen(&x[1], c, r))
			continue;
		pcb_plot_label(f, pcb_csv_cell(c, r, fn));
		for (int k = 0; k < ns; k++) {
			int s = series[k];
			const char *v[4] = {
				pcb_csv_cell(c, r, fn), pcb_csv_cell(c, s, design),
				pcb_csv_cell(c, s, config), pcb_csv_cell(c, s, res),
			};
			int at = pcb_csv_last_with(&x[2], v);

			if (at < 0)
				fputs("\t?\t0\t?\t?", f);
			else
				fprintf(f, "\t%s\t%s\t%s\t%s", pcb_csv_cell(c, at, pct),
					*pcb_csv_cell(c, at, sig) ? pcb_csv_cell(c, at, sig) : "0",
					cell_or_missing(c, at, lo), cell_or_missing(c, at, hi));
		}
		fputc('\n', f);
	}
}

/* the labels of the results compared with the baseline, "B, C" */
static const char *others(const struct pcb_csv *c, char *buf, size_t len)
{
	int res = pcb_csv_col(c->header, "result"), lab = pcb_csv_col(c->header, "label");
	size_t at = 0;

	buf[0] = 0;
	for (int r = 0; r < c->nrows && at < len; r++) {
		const char *l = pcb_csv_cell(c, r, lab);

		if (!strcmp(pcb_csv_cell(c, r, res), "0") || strstr(buf, l))
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", l);
	}
	return buf;
}

static int compare_figure(struct pcb_csv *c, const char *name, const struct pcb_csv_index *x,
			  const int *series, int ns, const struct pcb_csv_out *o)
{
	struct pcb_plot_set *set = o->set;
	const char *h = c->header;
	int design = pcb_csv_col(h, "design"), config = pcb_csv_col(h, "config");
	int res = pcb_csv_col(h, "result"), lab = pcb_csv_col(h, "label");
	const char *base = NULL;
	char others_buf[160];
	FILE *f;

	for (int r = 0; r < c->nrows && !base; r++)
		if (!strcmp(pcb_csv_cell(c, r, res), "0"))
			base = pcb_csv_cell(c, r, lab);
	f = pcb_plot_add(set, o->dir, name, "compare", o->err, o->errlen);
	if (!f)
		return -1;
	fputs("function", f);
	for (int k = 0; k < ns; k++) {
		char label[600];

		pcb_plot_column_label(label, sizeof(label), pcb_csv_cell(c, series[k], design),
				      pcb_csv_cell(c, series[k], config));
		fputc('\t', f);
		pcb_plot_label(f, label);
		fputs(": ", f);
		pcb_plot_label(f, pcb_csv_cell(c, series[k], lab));
		fputs("\t-\t-\t-", f);
	}
	fputc('\n', f);
	compare_rows(f, c, x, series, ns);
	set->plot[set->n - 1].series = ns;
	snprintf(set->plot[set->n - 1].title, sizeof(set->plot[0].title),
		 "%s against %s: Diff %% of %s cycles, whiskers its CI (Holm), * marked",
		 others(c, others_buf, sizeof(others_buf)), base ? base : "the baseline",
		 c->raw ? "raw" : "net");
	return pcb_plot_close(set, f, o->err, o->errlen);
}

int pcb_plot_compare_data(struct pcb_csv *c, const char *name, const char *dir,
			  struct pcb_plot_set *set, char *err, size_t errlen)
{
	const char *h = c->header;
	int design = pcb_csv_col(h, "design"), config = pcb_csv_col(h, "config");
	int fn = pcb_csv_col(h, "function"), res = pcb_csv_col(h, "result");
	int pct = pcb_csv_col(h, "diff_pct");
	struct pcb_csv_index x[3] = {
		{ .cols = { design, config, res }, .ncols = 3, .nonempty = pct },
		{ .cols = { fn }, .ncols = 1, .nonempty = -1 },
		{ .cols = { fn, design, config, res }, .ncols = 4, .nonempty = pct },
	};
	int *series = calloc((size_t)c->nrows + 1, sizeof(*series)), made = 0, rc = !series, ns;

	for (; made < 3 && !rc; made++)
		rc = pcb_csv_index(c, &x[made]);
	if (rc) {
		made -= series != NULL;
		snprintf(err, errlen, "%s: out of memory", c->path);
	} else {
		ns = compare_series(c, &x[0], series);
		rc = compare_figure(c, name, x, series, ns,
				    &(struct pcb_csv_out){ dir, set, err, errlen });
	}
	while (made-- > 0)
		pcb_csv_index_free(&x[made]);
	free(series);
	return rc;
}
