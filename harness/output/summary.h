/* SPDX-License-Identifier: MIT */
/*
 * Summaries over several results: run --each-node's table of nodes
 * (nodes.txt, nodes.csv).
 */
#ifndef PCB_SUMMARY_H
#define PCB_SUMMARY_H

#include <stdio.h>

#include <jansson.h>

/* nodes.csv's header, as pcb_nodes_csv() writes it and plot reads it */
#define PCB_NODES_HEADER "node,design,config,function,timing,avg_cycles,stddev,calls"

/* node,design,config,function,timing,avg_cycles,stddev,calls */
void pcb_nodes_csv(FILE *out, json_t *const *results, const int *nodes, int n);
/* one row per node and function, one column per design: avg cycles */
void pcb_nodes_table(FILE *out, json_t *const *results, const int *nodes, int n);

#endif
