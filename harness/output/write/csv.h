/* SPDX-License-Identifier: MIT */
/*
 * The CSV files: a run's (functions.csv, runs.csv, histogram.csv,
 * counters.csv, drains.csv, contention.csv, a row a function, run,
 * bucket, counter, drain and lock), run --each-node's nodes.csv over the
 * nodes' results, and compare --format csv. plot reads nodes.csv and
 * compare's by the headers written here.
 */
#ifndef PCB_OUTPUT_WRITE_CSV_H
#define PCB_OUTPUT_WRITE_CSV_H

#include <stdio.h>

#include <jansson.h>

/* the CSV files a run writes beside result.json */
#define PCB_NR_RESULT_CSV 6
extern const char *const pcb_result_csv_file[PCB_NR_RESULT_CSV];

/* each CSV file of result into f[i], the stream of pcb_result_csv_file[i] */
void pcb_result_csv(json_t *result, FILE *const *f);

/* nodes.csv's header, as pcb_nodes_csv() writes it and plot reads it */
#define PCB_NODES_HEADER "node,design,config,function,timing,avg_cycles,stddev,calls"

/* nodes.csv: a row a node and function (a drain as its kernel's), results[k] of nodes[k] */
void pcb_nodes_csv(FILE *out, json_t *const *results, const int *nodes, int n);

/* compare --format csv's header, as it writes it and plot --compare reads it */
#define PCB_COMPARE_HEADER "design,config,function,result,label,avg_cycles,stddev,runs," \
	"diff_cycles,diff_pct,significant,test"

/* compare --format csv: a row a design x config x function x result */
void pcb_compare_csv(FILE *out, json_t *cmp);

#endif
