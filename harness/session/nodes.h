/* SPDX-License-Identifier: MIT */
/*
 * run --each-node / --node N: a scenario once per NUMA node, workers on
 * that node's CPUs, the coordinator on another node, one result directory
 * per node under one run directory, and the table of nodes.
 */
#ifndef PCB_CLI_NODES_H
#define PCB_CLI_NODES_H

#include "../output/result.h"
#include "groups.h"
#include "session.h"

struct node_opts {
	int each;			/* --each-node */
	int node;			/* --node N, -1 if not given */
	int coord_node;			/* --coordinator-node M, -1 if not given */
};

/* nodes with CPUs; a node option naming another exits 2 */
int nodes_with_cpus(const struct pcb_topo *topo);

/*
 * One scenario over the nodes asked for: the plan (dry), or the runs and
 * OUT/<scenario>-<UTC ts>/node<N>/, nodes.csv and nodes.txt. Exit status;
 * bad input exits 2 before anything is written.
 */
int nodes_run(const struct session *ss, const char *path, const struct run_opts *o,
	      const struct node_opts *no, int dry, double *estimate);

#endif
