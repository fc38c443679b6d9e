/* SPDX-License-Identifier: MIT */
/*
 * run --each-node's table of nodes (nodes.txt), over the nodes' results,
 * and where each node's run had its memory
 */
#ifndef PCB_OUTPUT_PRESENT_NODES_H
#define PCB_OUTPUT_PRESENT_NODES_H

#include <stdio.h>

#include <jansson.h>

/* one row per node and function, one column per design: avg cycles; results[k] ran on nodes[k] */
void pcb_nodes_table(FILE *out, json_t *const *results, const int *nodes, int n);
/* one row per node: how many of its workers' caches and drain targets are on it */
void pcb_nodes_memory(FILE *out, json_t *const *results, const int *nodes, int n);

#endif
