/* SPDX-License-Identifier: MIT */
/*
 * The one column list a table is written from: each column a field of the
 * schema (of the row, or of a row it belongs to: a run's function row, a
 * function's design entry) or the row's place, its name the field's. A
 * table's header and its rows come from the same list, written as CSV, as
 * LKP-tests' "name: value" stats or as mmtests' tab-separated rows.
 */
#ifndef PCB_OUTPUT_WRITE_COLUMNS_H
#define PCB_OUTPUT_WRITE_COLUMNS_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "../../schema/schema.h"

/* the columns that are no field: the row's place among its siblings, from 1 */
#define PCB_COL_INDEX (-1)
/* the first and second items of a row that is an array (a histogram's [lower, count]) */
#define PCB_COL_ITEM0 (-2)
#define PCB_COL_ITEM1 (-3)
/* the node the row's result ran on */
#define PCB_COL_NODE (-4)

/* absent (or null): no value, where the field's accessor would give "?" or 0 */
#define PCB_COL_OPT 0x1
/* a number as written, an integer as one, where the schema's type would give decimals */
#define PCB_COL_ASIS 0x2
/* a number without decimals */
#define PCB_COL_WHOLE 0x4
/* absent: the field alt instead */
#define PCB_COL_ALT 0x8

struct pcb_column {
	int field;			/* an enum rj_field, or a PCB_COL_ place */
	const char *name;		/* NULL: the field's */
	unsigned int flags;
	enum rj_field alt;		/* with PCB_COL_ALT */
};

struct pcb_columns {
	const struct pcb_column *col;
	int n;
};

#define PCB_COLUMNS(cols) { (cols), (int)(sizeof(cols) / sizeof((cols)[0])) }

/* one row, as its columns read it */
struct pcb_row {
	json_t *obj[RJ_K_NR];		/* the row and the rows it belongs to, by kind */
	json_t *item;			/* a row that is an array */
	size_t index;			/* its place among its siblings, from 1 */
	int node;
};

/* CSV: a field with a comma or a quote in quotes, a line break a blank */
#define PCB_CELLS_QUOTE 0x1
/* texts as pcb_kv_name() makes them, an empty cell "-" (mmtests) */
#define PCB_CELLS_NAMES 0x2

/* how a table's cells are written */
struct pcb_cells {
	char sep;			/* between cells */
	int decimals;			/* of a number */
	unsigned int flags;
};

/* the columns' names, sep between them, and a line break */
void pcb_columns_header(FILE *f, const struct pcb_columns *c, char sep);
/* the header as one string, made once into buf */
const char *pcb_columns_header_text(const struct pcb_columns *c, char *buf, size_t len);
/* a row's cells as how says, and a line break */
void pcb_columns_row(FILE *f, const struct pcb_columns *c, const struct pcb_row *r,
		     const struct pcb_cells *how);
/* a "prefix.name: value" line a column the row has a value of (LKP-tests' stats) */
void pcb_columns_stats(FILE *f, const char *prefix, const struct pcb_columns *c,
		       const struct pcb_row *r, int decimals);

/* text as a stat name's part: lower case, a space a dot, anything else an underscore */
void pcb_kv_name(const char *text, char *buf, size_t len);

#endif
