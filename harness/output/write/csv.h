/* SPDX-License-Identifier: MIT */
/*
 * The CSV files, each a table of columns.h: a run's (functions.csv,
 * runs.csv, histogram.csv, counters.csv, drains.csv, contention.csv,
 * diffs.csv, a row a function, run, bucket, counter, drain, lock and
 * difference; a raw result's means and STDDEV under raw_ names), run
 * --each-node's nodes.csv over the nodes' results, and compare --format
 * csv. plot reads nodes.csv and compare's by the headers written here.
 */
#ifndef PCB_OUTPUT_WRITE_CSV_H
#define PCB_OUTPUT_WRITE_CSV_H

#include <stdio.h>

#include <jansson.h>

#include "columns.h"

/* a CSV file of a result: a row each of an array's rows, or of their own rows */
struct pcb_csv_table {
	const char *file;
	enum rj_field rows;		/* the result's array */
	int sub;			/* an array of its rows, whose items are the rows, or -1 */
	struct pcb_columns cols;
	/* a result read raw (pcb_result_raw()): these, where given, named as the figures are */
	struct pcb_columns raw_cols;
	/* the rows made from the result (a new array), where they are not one of its arrays */
	json_t *(*made)(json_t *result);
};

/* the CSV files a run writes beside result.json */
extern const struct pcb_csv_table pcb_result_csv[];
extern const int pcb_nr_result_csv;

/* table t of result, its header first */
void pcb_csv_write(FILE *f, json_t *result, const struct pcb_csv_table *t);

/*
 * nodes.csv: a row a node and function (a drain as its kernel's), results[k] of nodes[k];
 * the header a net result's has (a raw one's has raw_avg_cycles and raw_stddev)
 */
void pcb_nodes_csv(FILE *out, json_t *const *results, const int *nodes, int n);
const char *pcb_nodes_csv_header(void);

/* compare --format csv: a row a design x config x function x result; a net compare's header */
void pcb_compare_csv(FILE *out, json_t *cmp);
const char *pcb_compare_csv_header(void);

#endif
