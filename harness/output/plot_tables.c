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
#include "rows.h"

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

/*
 * The rows by their cells in some columns, so that a table of 100,000
 * rows is drawn in time linear in it: the key of the cells (rows.h's
 * pcb_rows_key()) to the first row that has them, and to the last one
 * that has them and passes the index's test (a cell not empty, or any).
 */
struct csv_index {
	int cols[4], ncols, nonempty;	/* nonempty: the column last's rows must fill, or -1 */
	json_t *first, *last;		/* key -> row */
};

static char *row_key(const struct pcb_csv *c, int row, const int *cols, int ncols, size_t *len)
{
	const char *v[4];

	for (int k = 0; k < ncols; k++)
		v[k] = cell(c, row, cols[k]);
	return pcb_rows_key(v, ncols, len);
}

static void csv_index_free(struct csv_index *x)
{
	json_decref(x->first);
	json_decref(x->last);
}

/* x's maps over c, from its cols, ncols and nonempty; -1 out of memory */
static int csv_index(const struct pcb_csv *c, struct csv_index *x)
{
	int bad;

	x->first = json_object();
	x->last = json_object();
	bad = !x->first || !x->last;
	for (int r = 0; r < c->nrows && !bad; r++) {
		size_t len;
		char *key = row_key(c, r, x->cols, x->ncols, &len);

		bad = !key;
		if (!bad && !json_object_getn(x->first, key, len))
			bad = json_object_setn_new_nocheck(x->first, key, len, json_integer(r)) < 0;
		if (!bad && (x->nonempty < 0 || *cell(c, r, x->nonempty)))
			bad = json_object_setn_new_nocheck(x->last, key, len, json_integer(r)) < 0;
		free(key);
	}
	if (bad)
		csv_index_free(x);
	return bad ? -1 : 0;
}

/* whether row is the first with its cells */
static int first_seen(const struct csv_index *x, const struct pcb_csv *c, int row)
{
	size_t len;
	char *key = row_key(c, row, x->cols, x->ncols, &len);
	json_t *at = key ? json_object_getn(x->first, key, len) : NULL;

	free(key);
	return at && json_integer_value(at) == row;
}

/* the last row whose cells are v[] and that passes x's test, -1 if none */
static int last_with(const struct csv_index *x, const char *const *v)
{
	size_t len;
	char *key = pcb_rows_key(v, x->ncols, &len);
	json_t *at = key ? json_object_getn(x->last, key, len) : NULL;

	free(key);
	return at ? (int)json_integer_value(at) : -1;
}

/* a heat map or bar chart of rows x columns cells, each a row of the table at most */
static int cells_check(const struct pcb_csv *c, int rows, int cols, const char *what,
		       char *err, size_t errlen)
{
	if ((long)rows * cols <= c->nrows)
		return 0;
	snprintf(err, errlen, "%s: %d x %d %s: more cells than the table has rows (%d)", c->path,
		 rows, cols, what, c->nrows);
	return -1;
}

/* the keys of spec's columns in c with a row that passes its test; -1 out of memory */
static int distinct(const struct pcb_csv *c, struct csv_index spec)
{
	int n;

	if (csv_index(c, &spec) < 0)
		return -1;
	n = (int)json_object_size(spec.last);
	csv_index_free(&spec);
	return n;
}

/* a figure of rows x cols keys, with what the rows and columns are; -1 with err */
static int matrix_check(const struct pcb_csv *c, struct csv_index rows, struct csv_index cols,
			const char *what, char *err, size_t errlen)
{
	int r = distinct(c, rows), k = distinct(c, cols);

	if (r < 0 || k < 0) {
		snprintf(err, errlen, "%s: out of memory", c->path);
		return -1;
	}
	return cells_check(c, r, k, what, err, errlen);
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
	return matrix_check(c, (struct csv_index){ .cols = { node }, .ncols = 1, .nonempty = -1 },
			    (struct csv_index){ .cols = { col_of(h, "design"), col_of(h, "config") },
						.ncols = 2, .nonempty = -1 },
			    "nodes by designs", err, errlen);
}

/* where a table's figures go, and what went wrong */
struct csv_out {
	const char *dir;
	struct pcb_plot_set *set;
	char *err;
	size_t errlen;
};

/* one function's heat map: designs across, nodes down, each cell the last row of all four */
static int nodes_figure(struct pcb_csv *c, int r, struct csv_index *x, const struct csv_out *o)
{
	struct pcb_plot_set *set = o->set;
	const char *h = PCB_NODES_HEADER;
	int node = col_of(h, "node"), design = col_of(h, "design"), config = col_of(h, "config");
	int fn = col_of(h, "function"), nodes = 0, cols = 0;
	struct csv_index *by_dc = &x[0], *by_node = &x[1], *by_cell = &x[2];
	char name[128], label[512];
	FILE *f;

	file_name(name, sizeof(name), "heatmap-", cell(c, r, fn));
	f = pcb_plot_add(set, o->dir, name, "heatmap", o->err, o->errlen);
	if (!f)
		return -1;
	/* gnuplot's matrix with row and column headers: designs across, nodes down */
	fputs("node", f);
	for (int d = 0; d < c->nrows; d++)
		if (first_seen(by_dc, c, d)) {
			column_label(label, sizeof(label), cell(c, d, design), cell(c, d, config));
			fputc('\t', f);
			pcb_plot_label(f, label);
			cols++;
		}
	fputc('\n', f);
	for (int n = 0; n < c->nrows; n++) {
		if (!first_seen(by_node, c, n))
			continue;
		fprintf(f, "node %s", cell(c, n, node));
		nodes++;
		for (int d = 0; d < c->nrows; d++) {
			const char *v[4] = { cell(c, r, fn), cell(c, n, node), cell(c, d, design),
					     cell(c, d, config) };
			int at;

			if (!first_seen(by_dc, c, d))
				continue;
			at = last_with(by_cell, v);
			fprintf(f, "\t%s", at < 0 ? "NaN" : cell(c, at, col_of(h, "avg_cycles")));
		}
		fputc('\n', f);
	}
	set->plot[set->n - 1].series = cols;
	snprintf(set->plot[set->n - 1].title, sizeof(set->plot[0].title),
		 "%s: cycles per call on each node", cell(c, r, fn));
	snprintf(set->plot[set->n - 1].vars, sizeof(set->plot[0].vars),
		 "ncols=%d; nrows=%d", cols, nodes);
	return pcb_plot_close(set, f, o->err, o->errlen);
}

int pcb_plot_nodes_data(struct pcb_csv *c, const char *dir, struct pcb_plot_set *set,
			char *err, size_t errlen)
{
	const char *h = PCB_NODES_HEADER;
	int node = col_of(h, "node"), design = col_of(h, "design"), config = col_of(h, "config");
	int fn = col_of(h, "function"), rc = 0, made = 0;
	const struct csv_out o = { dir, set, err, errlen };
	struct csv_index x[4] = {
		{ .cols = { design, config }, .ncols = 2, .nonempty = -1 },
		{ .cols = { node }, .ncols = 1, .nonempty = -1 },
		{ .cols = { fn, node, design, config }, .ncols = 4, .nonempty = -1 },
		{ .cols = { fn }, .ncols = 1, .nonempty = -1 },
	};

	for (; made < 4 && !rc; made++)
		rc = csv_index(c, &x[made]);
	if (rc) {
		made--;
		snprintf(err, errlen, "%s: out of memory", c->path);
	}
	for (int r = 0; r < c->nrows && !rc; r++)
		if (first_seen(&x[3], c, r))
			rc = nodes_figure(c, r, x, &o);
	while (made-- > 0)
		csv_index_free(&x[made]);
	return rc;
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
	return matrix_check(c, (struct csv_index){ .cols = { col_of(h, "function") }, .ncols = 1,
						   .nonempty = -1 },
			    (struct csv_index){ .cols = { col_of(h, "design"), col_of(h, "config"), res },
						.ncols = 3, .nonempty = pct },
			    "functions by series", err, errlen);
}

/*
 * The bar series of a compare table: each first row of a design and
 * configuration of a result other than the baseline with a Diff % on one
 * of its rows at least (a series that has none, no row in common with the
 * baseline or a baseline mean of 0, has nothing to draw); how many, or -1
 */
static int compare_series(const struct pcb_csv *c, const struct csv_index *by_series, int *series)
{
	const char *h = PCB_COMPARE_HEADER;
	int design = col_of(h, "design"), config = col_of(h, "config"), res = col_of(h, "result");
	int n = 0;

	for (int s = 0; s < c->nrows; s++) {
		const char *v[3] = { cell(c, s, design), cell(c, s, config), cell(c, s, res) };

		if (strcmp(v[2], "0") && first_seen(by_series, c, s) && last_with(by_series, v) >= 0)
			series[n++] = s;
	}
	return n;
}

/* a row a function, each series' Diff % and significance beside it */
static void compare_rows(FILE *f, const struct pcb_csv *c, const struct csv_index *x,
			 const int *series, int ns)
{
	const char *h = PCB_COMPARE_HEADER;
	int design = col_of(h, "design"), config = col_of(h, "config"), res = col_of(h, "result");
	int fn = col_of(h, "function"), sig = col_of(h, "significant"), pct = col_of(h, "diff_pct");

	for (int r = 0; r < c->nrows; r++) {
		if (!first_seen(&x[1], c, r))
			continue;
		pcb_plot_label(f, cell(c, r, fn));
		for (int k = 0; k < ns; k++) {
			int s = series[k];
			const char *v[4] = { cell(c, r, fn), cell(c, s, design), cell(c, s, config),
					     cell(c, s, res) };
			int at = last_with(&x[2], v);

			if (at < 0)
				fputs("\t?\t0", f);
			else
				fprintf(f, "\t%s\t%s", cell(c, at, pct),
					*cell(c, at, sig) ? cell(c, at, sig) : "0");
		}
		fputc('\n', f);
	}
}

static int compare_figure(struct pcb_csv *c, const char *name, const struct csv_index *x,
			  const int *series, int ns, const struct csv_out *o)
{
	struct pcb_plot_set *set = o->set;
	const char *h = PCB_COMPARE_HEADER;
	int design = col_of(h, "design"), config = col_of(h, "config");
	int res = col_of(h, "result"), lab = col_of(h, "label");
	const char *base = NULL;
	FILE *f;

	for (int r = 0; r < c->nrows && !base; r++)
		if (!strcmp(cell(c, r, res), "0"))
			base = cell(c, r, lab);
	f = pcb_plot_add(set, o->dir, name, "compare", o->err, o->errlen);
	if (!f)
		return -1;
	fputs("function", f);
	for (int k = 0; k < ns; k++) {
		char label[600];

		column_label(label, sizeof(label), cell(c, series[k], design),
			     cell(c, series[k], config));
		fputc('\t', f);
		pcb_plot_label(f, label);
		fputs(": ", f);
		pcb_plot_label(f, cell(c, series[k], lab));
		fputs("\t-", f);
	}
	fputc('\n', f);
	compare_rows(f, c, x, series, ns);
	set->plot[set->n - 1].series = ns;
	snprintf(set->plot[set->n - 1].title, sizeof(set->plot[0].title),
		 "Diff %% against %s (* significant)", base ? base : "the baseline");
	return pcb_plot_close(set, f, o->err, o->errlen);
}

int pcb_plot_compare_data(struct pcb_csv *c, const char *name, const char *dir,
			  struct pcb_plot_set *set, char *err, size_t errlen)
{
	const char *h = PCB_COMPARE_HEADER;
	int design = col_of(h, "design"), config = col_of(h, "config");
	int fn = col_of(h, "function"), res = col_of(h, "result"), pct = col_of(h, "diff_pct");
	struct csv_index x[3] = {
		{ .cols = { design, config, res }, .ncols = 3, .nonempty = pct },
		{ .cols = { fn }, .ncols = 1, .nonempty = -1 },
		{ .cols = { fn, design, config, res }, .ncols = 4, .nonempty = pct },
	};
	int *series = calloc((size_t)c->nrows + 1, sizeof(*series)), made = 0, rc = !series, ns;

	for (; made < 3 && !rc; made++)
		rc = csv_index(c, &x[made]);
	if (rc) {
		made -= series != NULL;
		snprintf(err, errlen, "%s: out of memory", c->path);
	} else {
		ns = compare_series(c, &x[0], series);
		rc = compare_figure(c, name, x, series, ns, &(struct csv_out){ dir, set, err, errlen });
	}
	while (made-- > 0)
		csv_index_free(&x[made]);
	free(series);
	return rc;
}
