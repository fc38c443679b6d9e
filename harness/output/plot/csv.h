/* SPDX-License-Identifier: MIT */
/*
 * A CSV table plot reads (nodes.csv, compare's), loaded whole and checked:
 * its header the one pcpbench writes, every row its fields; its cells,
 * figures and rows found by the cells of some columns.
 */
#ifndef PCB_OUTPUT_PLOT_CSV_H
#define PCB_OUTPUT_PLOT_CSV_H

#include <stddef.h>

#include <jansson.h>

#include "plot.h"

struct pcb_csv {
	char path[4096];
	const char *header;		/* the one pcpbench writes */
	int raw;			/* of raw means: the header's avg_cycles and stddev raw_ */
	char raw_header[1024];
	int ncols, nrows, cap;		/* cap: the rows cell and line have room for */
	char **cell;			/* nrows x ncols */
	int *line;			/* each row's line in the file */
};

/*
 * path read as a table of header's columns, or of its raw form (a raw
 * result's: raw_avg_cycles and raw_stddev for avg_cycles and stddev), then
 * the header; NULL with err naming the file (and line)
 */
struct pcb_csv *pcb_csv_load(const char *path, const char *header, char *err, size_t errlen);
void pcb_csv_free(struct pcb_csv *c);
/* the cell of a row and column */
const char *pcb_csv_cell(const struct pcb_csv *c, int row, int col);
/* the column called name in a header, -1 if none */
int pcb_csv_col(const char *header, const char *name);
/* the mean's column: avg_cycles, or raw_avg_cycles where the table is of raw means */
const char *pcb_csv_mean_col(const struct pcb_csv *c);
/* the cell of row and column name, a finite number into *v; -1 with the file and line */
int pcb_csv_number(const struct pcb_csv *c, int row, const char *name, double *v, char *err,
		   size_t errlen);
/* the same, or an empty cell (NAN) */
int pcb_csv_number_or_empty(const struct pcb_csv *c, int row, const char *name, double *v,
			    char *err, size_t errlen);

/*
 * The rows by their cells in some columns, so that a table of 100,000
 * rows is drawn in time linear in it: the key of the cells (rows.h's
 * pcb_rows_key()) to the first row that has them, and to the last one
 * that has them and passes the index's test (a cell not empty, or any).
 */
struct pcb_csv_index {
	int cols[4], ncols, nonempty;	/* nonempty: the column last's rows must fill, or -1 */
	json_t *first, *last;		/* key -> row */
};

/* x's maps over c, from its cols, ncols and nonempty; -1 out of memory */
int pcb_csv_index(const struct pcb_csv *c, struct pcb_csv_index *x);
void pcb_csv_index_free(struct pcb_csv_index *x);
/* whether row is the first with its cells */
int pcb_csv_first_seen(const struct pcb_csv_index *x, const struct pcb_csv *c, int row);
/* the last row whose cells are v[] and that passes x's test, -1 if none */
int pcb_csv_last_with(const struct pcb_csv_index *x, const char *const *v);
/* a figure of rows x cols keys, each cell a row of the table at most; -1 with err */
int pcb_csv_matrix_check(const struct pcb_csv *c, struct pcb_csv_index rows,
			 struct pcb_csv_index cols, const char *what, char *err, size_t errlen);

/* a name for a file: prefix, then s's letters, digits, '_' and '-' (others '_') */
void pcb_plot_file_name(char *out, size_t len, const char *prefix, const char *s);
/* "design config", unless the design's label already says its config */
void pcb_plot_column_label(char *out, size_t len, const char *design, const char *config);

/* where a table's figures go, and what went wrong */
struct pcb_csv_out {
	const char *dir;
	struct pcb_plot_set *set;
	char *err;
	size_t errlen;
};

#endif
