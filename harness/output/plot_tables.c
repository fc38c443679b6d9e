/* SPDX-License-Identifier: MIT */
/*
 * The two CSV tables plot reads besides result.json: a per-node run's
 * nodes.csv (a heat map of node x design a function) and compare's CSV
 * (Diff % a function, bars per design and result, the significant ones
 * starred as mmtests stars them). Both are untrusted: the header must be
 * the one pcpbench writes, every row its fields, every figure a number.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define CSV_MAX_ROWS 100000

struct pcb_csv {
	char path[4096];
	const char *header;		/* the one pcpbench writes */
	int ncols, nrows, cap;		/* cap: the rows cell and line have room for */
	char **cell;			/* nrows x ncols */
	int *line;			/* each row's line in the file */
};

static const char *cell(const struct pcb_csv *c, int row, int col)
{
	return c->cell[row * c->ncols + col];
}

/* split one line at commas, "quoted" fields taking commas literally */
static int split(char *s, char **field, int max)
{
	int n = 0;

	for (;;) {
		char *out = s;

		if (n == max)
			return max + 1;
		field[n++] = s;
		if (*s == '"') {
			for (s++; *s && !(*s == '"' && s[1] != '"'); s++)
				*out++ = *s == '"' ? *++s : *s;
			if (*s == '"')
				s++;
			if (*s && *s != ',')
				return -1;
		} else {
			s += strcspn(s, ",");
			out = s;
		}
		if (!*s) {
			*out = 0;
			return n;
		}
		*out = 0;
		s++;
	}
}

void pcb_csv_free(struct pcb_csv *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nrows * c->ncols; i++)
		free(c->cell[i]);
	free(c->cell);
	free(c->line);
	free(c);
}

/* a row of n fields, from line lineno, appended to c; -1 with err */
static int add_row(struct pcb_csv *c, char **field, int n, int lineno, char *err, size_t errlen)
{
	if (n != c->ncols) {
		snprintf(err, errlen, "%s:%d: %d fields, the header has %d", c->path, lineno,
			 n < 0 ? 0 : n, c->ncols);
		return -1;
	}
	if (c->nrows == CSV_MAX_ROWS) {
		snprintf(err, errlen, "%s:%d: more rows than a result has", c->path, lineno);
		return -1;
	}
	if (c->nrows == c->cap) {
		int cap = c->cap ? 2 * c->cap : 64;
		void *p = realloc(c->cell, (size_t)cap * c->ncols * sizeof(char *));

		if (!p)
			goto oom;
		c->cell = p;
		p = realloc(c->line, cap * sizeof(int));
		if (!p)
			goto oom;
		c->line = p;
		c->cap = cap;
	}
	c->line[c->nrows] = lineno;
	for (int i = 0; i < n; i++)
		c->cell[c->nrows * c->ncols + i] = strdup(field[i]);
	c->nrows++;
	for (int i = 0; i < n; i++)
		if (!c->cell[(c->nrows - 1) * c->ncols + i])
			goto oom;
	return 0;
oom:
	snprintf(err, errlen, "%s: out of memory", c->path);
	return -1;
}

/* every line of f after the header into c; -1 with err */
static int read_rows(struct pcb_csv *c, FILE *f, char *err, size_t errlen)
{
	char *line = NULL, *field[64];
	size_t cap = 0;
	int lineno = 0, rc = 0;

	while (!rc && getline(&line, &cap, f) > 0) {
		lineno++;
		line[strcspn(line, "\r\n")] = 0;
		if (lineno == 1) {
			if (strcmp(line, c->header)) {
				snprintf(err, errlen, "%s:1: header is not \"%s\"", c->path, c->header);
				rc = -1;
			}
			continue;
		}
		if (*line)
			rc = add_row(c, field, split(line, field, 64), lineno, err, errlen);
	}
	free(line);
	if (!rc && (ferror(f) || lineno == 0)) {
		snprintf(err, errlen, "%s: %s", c->path, lineno ? strerror(errno) :
			 "empty, no header");
		rc = -1;
	}
	if (!rc && !c->nrows) {
		snprintf(err, errlen, "%s: a header and no rows", c->path);
		rc = -1;
	}
	return rc;
}

struct pcb_csv *pcb_csv_load(const char *path, const char *header, char *err, size_t errlen)
{
	struct pcb_csv *c = calloc(1, sizeof(*c));
	FILE *f;

	if (!c) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->header = header;
	for (const char *h = header; h; h = strchr(h + 1, ','))
		c->ncols++;
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(c);
		return NULL;
	}
	if (read_rows(c, f, err, errlen) < 0) {
		fclose(f);
		pcb_csv_free(c);
		return NULL;
	}
	fclose(f);
	return c;
}

static int col_of(const char *header, const char *name)
{
	const char *at = header;

	for (int i = 0; at; i++) {
		size_t len = strcspn(at, ",");

		if (len == strlen(name) && !strncmp(at, name, len))
			return i;
		at = strchr(at, ',');
		if (at)
			at++;
	}
	return -1;
}

/* a cell that must be a finite number */
static int number(const struct pcb_csv *c, int row, const char *name, double *v, char *err,
		  size_t errlen)
{
	const char *s = cell(c, row, col_of(c->header, name));
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(*v) || fabs(*v) > 1e18) {
		snprintf(err, errlen, "%s:%d: %s '%s' is not a number", c->path, c->line[row],
			 name, s);
		return -1;
	}
	return 0;
}

/* the same, or empty (NAN) */
static int number_or_empty(const struct pcb_csv *c, int row, const char *name, double *v,
			   char *err, size_t errlen)
{
	if (!*cell(c, row, col_of(c->header, name))) {
		*v = NAN;
		return 0;
	}
	return number(c, row, name, v, err, errlen);
}

static void put_label(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

/* a name for a file: letters, digits, '_' and '-' */
static void file_name(char *out, size_t len, const char *prefix, const char *s)
{
	size_t at = snprintf(out, len, "%s", prefix);

	for (; *s && at + 1 < len; s++)
		out[at++] = isalnum((unsigned char)*s) || *s == '_' || *s == '-' ? *s : '_';
	out[at] = 0;
}

/* "design config", unless the design's label already says its config */
static void column_label(char *out, size_t len, const char *design, const char *config)
{
	size_t d = strlen(design), c = strlen(config);

	if (!c || (d >= c && !strcmp(design + d - c, config)))
		snprintf(out, len, "%s", design);
	else
		snprintf(out, len, "%s %s", design, config);
}

static int first_seen(const struct pcb_csv *c, int row, const int *cols, int ncols)
{
	for (int r = 0; r < row; r++) {
		int same = 1;

		for (int k = 0; k < ncols && same; k++)
			same = !strcmp(cell(c, r, cols[k]), cell(c, row, cols[k]));
		if (same)
			return 0;
	}
	return 1;
}

int pcb_plot_nodes_check(struct pcb_csv *c, char *err, size_t errlen)
{
	const char *h = PCB_NODES_HEADER;
	int node = col_of(h, "node");
	double v;

	for (int r = 0; r < c->nrows; r++) {
		if (number(c, r, "node", &v, err, errlen) < 0 ||
		    number(c, r, "avg_cycles", &v, err, errlen) < 0)
			return -1;
		if (v < 0 || strspn(cell(c, r, node), "0123456789") != strlen(cell(c, r, node))) {
			snprintf(err, errlen, "%s:%d: node '%s' or avg_cycles is negative",
				 c->path, c->line[r], cell(c, r, node));
			return -1;
		}
	}
	return 0;
}

int pcb_plot_nodes_data(struct pcb_csv *c, const char *dir, struct pcb_plot_set *set,
			char *err, size_t errlen)
{
	const char *h = PCB_NODES_HEADER;
	int node = col_of(h, "node"), design = col_of(h, "design"), config = col_of(h, "config");
	int fn = col_of(h, "function");
	int dc[2] = { design, config };

	for (int r = 0; r < c->nrows; r++) {
		char name[128], label[512];
		int nodes = 0, cols = 0;
		FILE *f;

		if (!first_seen(c, r, &fn, 1))
			continue;
		file_name(name, sizeof(name), "heatmap-", cell(c, r, fn));
		f = pcb_plot_add(set, dir, name, "heatmap", err, errlen);
		if (!f)
			return -1;
		/* gnuplot's matrix with row and column headers: designs across, nodes down */
		fputs("node", f);
		for (int d = 0; d < c->nrows; d++)
			if (first_seen(c, d, dc, 2)) {
				column_label(label, sizeof(label), cell(c, d, design), cell(c, d, config));
				fputc('\t', f);
				put_label(f, label);
				cols++;
			}
		fputc('\n', f);
		for (int n = 0; n < c->nrows; n++) {
			if (!first_seen(c, n, &node, 1))
				continue;
			fprintf(f, "node %s", cell(c, n, node));
			nodes++;
			for (int d = 0; d < c->nrows; d++) {
				const char *val = "NaN";

				if (!first_seen(c, d, dc, 2))
					continue;
				for (int x = 0; x < c->nrows; x++)
					if (!strcmp(cell(c, x, fn), cell(c, r, fn)) &&
					    !strcmp(cell(c, x, node), cell(c, n, node)) &&
					    !strcmp(cell(c, x, design), cell(c, d, design)) &&
					    !strcmp(cell(c, x, config), cell(c, d, config)))
						val = cell(c, x, col_of(h, "avg_cycles"));
				fprintf(f, "\t%s", val);
			}
			fputc('\n', f);
		}
		set->plot[set->n - 1].series = cols;
		snprintf(set->plot[set->n - 1].title, sizeof(set->plot[0].title),
			 "%s: cycles per call on each node", cell(c, r, fn));
		snprintf(set->plot[set->n - 1].vars, sizeof(set->plot[0].vars),
			 "ncols=%d; nrows=%d", cols, nodes);
		if (pcb_plot_close(set, f, err, errlen) < 0)
			return -1;
	}
	return 0;
}

int pcb_plot_compare_check(struct pcb_csv *c, char *err, size_t errlen)
{
	const char *h = PCB_COMPARE_HEADER;
	int res = col_of(h, "result"), sig = col_of(h, "significant");
	int pct = col_of(h, "diff_pct"), comparable = 0;
	double v;

	for (int r = 0; r < c->nrows; r++) {
		const char *s = cell(c, r, sig);

		if (number(c, r, "result", &v, err, errlen) < 0)
			return -1;
		if (v < 0 || v != floor(v)) {
			snprintf(err, errlen, "%s:%d: result '%s' is not a result number",
				 c->path, c->line[r], cell(c, r, res));
			return -1;
		}
		if (v == 0)
			continue;
		if (number_or_empty(c, r, "diff_pct", &v, err, errlen) < 0)
			return -1;
		if (strcmp(s, "0") && strcmp(s, "1") && *s) {
			snprintf(err, errlen, "%s:%d: significant '%s' is not 1 or 0",
				 c->path, c->line[r], s);
			return -1;
		}
		comparable |= *cell(c, r, pct) != 0;
	}
	if (!comparable) {
		snprintf(err, errlen, "%s: no result to compare with the baseline (no row has a "
			 "diff_pct: no row in common with it, or its mean is not above 0)", c->path);
		return -1;
	}
	return 0;
}

/*
 * row s starts a bar series (a design and configuration of a result other
 * than the baseline) with a Diff % on one of its rows at least: a series
 * that has none (no row in common with the baseline, or a baseline mean
 * of 0) has nothing to draw
 */
static int compare_series(const struct pcb_csv *c, int s)
{
	const char *h = PCB_COMPARE_HEADER;
	int design = col_of(h, "design"), config = col_of(h, "config");
	int res = col_of(h, "result"), pct = col_of(h, "diff_pct");
	int series[3] = { design, config, res };

	if (!strcmp(cell(c, s, res), "0") || !first_seen(c, s, series, 3))
		return 0;
	for (int x = s; x < c->nrows; x++)
		if (!strcmp(cell(c, x, design), cell(c, s, design)) &&
		    !strcmp(cell(c, x, config), cell(c, s, config)) &&
		    !strcmp(cell(c, x, res), cell(c, s, res)) && *cell(c, x, pct))
			return 1;
	return 0;
}

int pcb_plot_compare_data(struct pcb_csv *c, const char *name, const char *dir,
			  struct pcb_plot_set *set, char *err, size_t errlen)
{
	const char *h = PCB_COMPARE_HEADER;
	int design = col_of(h, "design"), config = col_of(h, "config");
	int fn = col_of(h, "function"), res = col_of(h, "result"), lab = col_of(h, "label");
	int sig = col_of(h, "significant"), pct = col_of(h, "diff_pct");
	const char *base = NULL;
	int n = 0;
	FILE *f;

	for (int r = 0; r < c->nrows && !base; r++)
		if (!strcmp(cell(c, r, res), "0"))
			base = cell(c, r, lab);
	f = pcb_plot_add(set, dir, name, "compare", err, errlen);
	if (!f)
		return -1;
	fputs("function", f);
	for (int r = 0; r < c->nrows; r++) {
		char label[600];

		if (!compare_series(c, r))
			continue;
		column_label(label, sizeof(label), cell(c, r, design), cell(c, r, config));
		fputc('\t', f);
		put_label(f, label);
		fputs(": ", f);
		put_label(f, cell(c, r, lab));
		fputs("\t-", f);
		n++;
	}
	fputc('\n', f);
	for (int r = 0; r < c->nrows; r++) {
		if (!first_seen(c, r, &fn, 1))
			continue;
		put_label(f, cell(c, r, fn));
		for (int s = 0; s < c->nrows; s++) {
			const char *p = "?", *m = "0";

			if (!compare_series(c, s))
				continue;
			for (int x = 0; x < c->nrows; x++)
				if (!strcmp(cell(c, x, fn), cell(c, r, fn)) &&
				    !strcmp(cell(c, x, design), cell(c, s, design)) &&
				    !strcmp(cell(c, x, config), cell(c, s, config)) &&
				    !strcmp(cell(c, x, res), cell(c, s, res)) && *cell(c, x, pct)) {
					p = cell(c, x, pct);
					m = *cell(c, x, sig) ? cell(c, x, sig) : "0";
				}
			fprintf(f, "\t%s\t%s", p, m);
		}
		fputc('\n', f);
	}
	set->plot[set->n - 1].series = n;
	snprintf(set->plot[set->n - 1].title, sizeof(set->plot[0].title),
		 "Diff %% against %s (* significant)", base ? base : "the baseline");
	return pcb_plot_close(set, f, err, errlen);
}
