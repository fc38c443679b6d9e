/* SPDX-License-Identifier: MIT */
/*
 * The two CSV tables plot reads besides result.json, a per-node run's
 * nodes.csv and compare's, read and indexed: both are untrusted, so the
 * header must be the one pcpbench writes (write/csv.h), every row its
 * fields, every figure a number; a file's rows are found by the cells of
 * some columns in time linear in the file.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../read/rows.h"
#include "csv.h"

#define CSV_MAX_ROWS 100000

const char *pcb_csv_cell(const struct pcb_csv *c, int row, int col)
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

/* header's raw form into buf: each column avg_cycles or stddev as raw_avg_cycles, raw_stddev */
static void raw_form(const char *header, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (const char *h = header; *h && at < len; ) {
		size_t n = strcspn(h, ",");
		int mean = (n == 10 && !strncmp(h, "avg_cycles", n)) ||
			   (n == 6 && !strncmp(h, "stddev", n));

		at += (size_t)snprintf(buf + at, len - at, "%s%s%.*s", at ? "," : "",
				       mean ? "raw_" : "", (int)n, h);
		h += n + (h[n] == ',');
	}
}

/* the header line of a table: c's, or its raw form (c->raw then); -1 with err */
static int check_header(struct pcb_csv *c, const char *line, char *err, size_t errlen)
{
	if (!strcmp(line, c->header))
		return 0;
	raw_form(c->header, c->raw_header, sizeof(c->raw_header));
	if (!strcmp(line, c->raw_header)) {
		c->header = c->raw_header;
		c->raw = 1;
		return 0;
	}
	snprintf(err, errlen, "%s:1: header is not \"%s\" (nor its raw form)", c->path,
		 c->header);
	return -1;
}

const char *pcb_csv_mean_col(const struct pcb_csv *c)
{
	return c->raw ? "raw_avg_cycles" : "avg_cycles";
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
			rc = check_header(c, line, err, errlen);
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

int pcb_csv_col(const char *header, const char *name)
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
int pcb_csv_number(const struct pcb_csv *c, int row, const char *name, double *v, char *err,
		  size_t errlen)
{
	const char *s = pcb_csv_cell(c, row, pcb_csv_col(c->header, name));
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
int pcb_csv_number_or_empty(const struct pcb_csv *c, int row, const char *name, double *v,
			   char *err, size_t errlen)
{
	if (!*pcb_csv_cell(c, row, pcb_csv_col(c->header, name))) {
		*v = NAN;
		return 0;
	}
	return pcb_csv_number(c, row, name, v, err, errlen);
}

/* a name for a file: letters, digits, '_' and '-' */
void pcb_plot_file_name(char *out, size_t len, const char *prefix, const char *s)
{
	size_t at = snprintf(out, len, "%s", prefix);

	for (; *s && at + 1 < len; s++)
		out[at++] = isalnum((unsigned char)*s) || *s == '_' || *s == '-' ? *s : '_';
	out[at] = 0;
}

/* "design config", unless the design's label already says its config */
void pcb_plot_column_label(char *out, size_t len, const char *design, const char *config)
{
	size_t d = strlen(design), c = strlen(config);

	if (!c || (d >= c && !strcmp(design + d - c, config)))
		snprintf(out, len, "%s", design);
	else
		snprintf(out, len, "%s %s", design, config);
}

static char *row_key(const struct pcb_csv *c, int row, const int *cols, int ncols, size_t *len)
{
	const char *v[4];

	for (int k = 0; k < ncols; k++)
		v[k] = pcb_csv_cell(c, row, cols[k]);
	return pcb_rows_key(v, ncols, len);
}

void pcb_csv_index_free(struct pcb_csv_index *x)
{
	json_decref(x->first);
	json_decref(x->last);
}

/* x's maps over c, from its cols, ncols and nonempty; -1 out of memory */
int pcb_csv_index(const struct pcb_csv *c, struct pcb_csv_index *x)
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
		if (!bad && (x->nonempty < 0 || *pcb_csv_cell(c, r, x->nonempty)))
			bad = json_object_setn_new_nocheck(x->last, key, len, json_integer(r)) < 0;
		free(key);
	}
	if (bad)
		pcb_csv_index_free(x);
	return bad ? -1 : 0;
}

/* whether row is the first with its cells */
int pcb_csv_first_seen(const struct pcb_csv_index *x, const struct pcb_csv *c, int row)
{
	size_t len;
	char *key = row_key(c, row, x->cols, x->ncols, &len);
	json_t *at = key ? json_object_getn(x->first, key, len) : NULL;

	free(key);
	return at && json_integer_value(at) == row;
}

/* the last row whose cells are v[] and that passes x's test, -1 if none */
int pcb_csv_last_with(const struct pcb_csv_index *x, const char *const *v)
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
static int distinct(const struct pcb_csv *c, struct pcb_csv_index spec)
{
	int n;

	if (pcb_csv_index(c, &spec) < 0)
		return -1;
	n = (int)json_object_size(spec.last);
	pcb_csv_index_free(&spec);
	return n;
}

/* a figure of rows x cols keys, with what the rows and columns are; -1 with err */
int pcb_csv_matrix_check(const struct pcb_csv *c, struct pcb_csv_index rows,
			 struct pcb_csv_index cols, const char *what, char *err, size_t errlen)
{
	int r = distinct(c, rows), k = distinct(c, cols);

	if (r < 0 || k < 0) {
		snprintf(err, errlen, "%s: out of memory", c->path);
		return -1;
	}
	return cells_check(c, r, k, what, err, errlen);
}
