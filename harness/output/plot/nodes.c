/* SPDX-License-Identifier: MIT */
/* A per-node run's nodes.csv as heat maps: node x design, a map a function */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "nodes.h"
#include "plot.h"

int pcb_plot_nodes_check(struct pcb_csv *c, char *err, size_t errlen)
{
	const char *h = c->header;
	int node = pcb_csv_col(h, "node");
	double v;

	for (int r = 0; r < c->nrows; r++) {
		if (pcb_csv_number(c, r, "node", &v, err, errlen) < 0 ||
		    pcb_csv_number(c, r, pcb_csv_mean_col(c), &v, err, errlen) < 0)
			return -1;
		const char *n = pcb_csv_cell(c, r, node);

		if (v < 0 || strspn(n, "0123456789") != strlen(n)) {
			snprintf(err, errlen, "%s:%d: node '%s' or %s is negative",
				 c->path, c->line[r], pcb_csv_cell(c, r, node), pcb_csv_mean_col(c));
			return -1;
		}
	}
	return pcb_csv_matrix_check(c, (struct pcb_csv_index){ .cols = { node }, .ncols = 1,
							       .nonempty = -1 },
				    (struct pcb_csv_index){ .cols = { pcb_csv_col(h, "design"),
								      pcb_csv_col(h, "config") },
							    .ncols = 2, .nonempty = -1 },
				    "nodes by designs", err, errlen);
}

/* the table's indexes, and its distinct designs and nodes as the rows that first have them */
struct nodes_axes {
	struct pcb_csv_index x[4];	/* design+config, node, the four of a cell, function */
	int *dc, ndc, *node, nnode;
};

/* one function's heat map: designs across, nodes down, each cell the last row of all four */
static int nodes_figure(struct pcb_csv *c, int r, const struct nodes_axes *a,
			const struct pcb_csv_out *o)
{
	struct pcb_plot_set *set = o->set;
	const char *h = c->header;
	int node = pcb_csv_col(h, "node"), design = pcb_csv_col(h, "design");
	int config = pcb_csv_col(h, "config"), fn = pcb_csv_col(h, "function");
	int avg = pcb_csv_col(h, pcb_csv_mean_col(c));
	char name[128], label[512];
	FILE *f;

	pcb_plot_file_name(name, sizeof(name), "heatmap-", pcb_csv_cell(c, r, fn));
	f = pcb_plot_add(set, o->dir, name, "heatmap", o->err, o->errlen);
	if (!f)
		return -1;
	/* gnuplot's matrix with row and column headers: designs across, nodes down */
	fputs("node", f);
	for (int i = 0; i < a->ndc; i++) {
		int d = a->dc[i];

		pcb_plot_column_label(label, sizeof(label), pcb_csv_cell(c, d, design),
				      pcb_csv_cell(c, d, config));
		fputc('\t', f);
		pcb_plot_label(f, label);
	}
	fputc('\n', f);
	for (int j = 0; j < a->nnode; j++) {
		int n = a->node[j];

		fprintf(f, "node %s", pcb_csv_cell(c, n, node));
		for (int i = 0; i < a->ndc; i++) {
			int d = a->dc[i];
			const char *v[4] = {
				pcb_csv_cell(c, r, fn), pcb_csv_cell(c, n, node),
				pcb_csv_cell(c, d, design), pcb_csv_cell(c, d, config),
			};
			int at = pcb_csv_last_with(&a->x[2], v);

			fprintf(f, "\t%s", at < 0 ? "NaN" : pcb_csv_cell(c, at, avg));
		}
		fputc('\n', f);
	}
	set->plot[set->n - 1].series = a->ndc;
	snprintf(set->plot[set->n - 1].title, sizeof(set->plot[0].title),
		 "%s: %s cycles per call on each node", pcb_csv_cell(c, r, fn),
		 c->raw ? "raw" : "net");
	snprintf(set->plot[set->n - 1].vars, sizeof(set->plot[0].vars),
		 "ncols=%d; nrows=%d; means='%s'", a->ndc, a->nnode, c->raw ? "raw" : "net");
	return pcb_plot_close(set, f, o->err, o->errlen);
}

/* the rows of c that first have x's cells, in the table's order; NULL out of memory */
static int *first_rows(const struct pcb_csv *c, const struct pcb_csv_index *x, int *n)
{
	int *rows = malloc(sizeof(*rows) * (c->nrows ? c->nrows : 1));

	*n = 0;
	for (int r = 0; rows && r < c->nrows; r++)
		if (pcb_csv_first_seen(x, c, r))
			rows[(*n)++] = r;
	return rows;
}

int pcb_plot_nodes_data(struct pcb_csv *c, const char *dir, struct pcb_plot_set *set,
			char *err, size_t errlen)
{
	const char *h = c->header;
	int node = pcb_csv_col(h, "node"), design = pcb_csv_col(h, "design");
	int config = pcb_csv_col(h, "config"), fn = pcb_csv_col(h, "function"), rc = 0, made = 0;
	const struct pcb_csv_out o = { dir, set, err, errlen };
	struct nodes_axes a = { .x = {
		{ .cols = { design, config }, .ncols = 2, .nonempty = -1 },
		{ .cols = { node }, .ncols = 1, .nonempty = -1 },
		{ .cols = { fn, node, design, config }, .ncols = 4, .nonempty = -1 },
		{ .cols = { fn }, .ncols = 1, .nonempty = -1 },
	} };

	for (; made < 4 && !rc; made++)
		rc = pcb_csv_index(c, &a.x[made]);
	if (rc) {
		made--;	/* pcb_csv_index() freed what it made of the one that failed */
	} else {
		/* the axes once: a figure is then designs x nodes lookups, not a pass a node */
		a.dc = first_rows(c, &a.x[0], &a.ndc);
		a.node = first_rows(c, &a.x[1], &a.nnode);
		rc = !a.dc || !a.node;
	}
	if (rc)
		snprintf(err, errlen, "%s: out of memory", c->path);
	for (int r = 0; r < c->nrows && !rc; r++)
		if (pcb_csv_first_seen(&a.x[3], c, r))
			rc = nodes_figure(c, r, &a, &o);
	free(a.dc);
	free(a.node);
	while (made-- > 0)
		pcb_csv_index_free(&a.x[made]);
	return rc;
}
