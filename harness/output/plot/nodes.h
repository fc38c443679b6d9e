/* SPDX-License-Identifier: MIT */
/*
 * nodes.csv of a per-node run (node,design,config,function,timing,
 * avg_cycles,stddev,calls, as write/csv.c writes it): checked into a
 * table first, then a heat map a function.
 */
#ifndef PCB_OUTPUT_PLOT_NODES_H
#define PCB_OUTPUT_PLOT_NODES_H

#include <stddef.h>

#include "csv.h"
#include "plot.h"

/* every figure of the table a number; -1 with the file and line */
int pcb_plot_nodes_check(struct pcb_csv *nodes, char *err, size_t errlen);
int pcb_plot_nodes_data(struct pcb_csv *nodes, const char *dir, struct pcb_plot_set *set,
			char *err, size_t errlen);

#endif
