/* SPDX-License-Identifier: MIT */
/*
 * A run session: the scenarios' runs in their order, each scenario's
 * tables and result, Ctrl-C at a run boundary, the CPUs locked against
 * another pcpbench, and the output directory made ready before anything
 * runs.
 */
#ifndef PCB_CLI_SESSION_H
#define PCB_CLI_SESSION_H

#include <limits.h>

#include "../machine/topo.h"
#include "../measure/tsc.h"
#include "../output/present/tables.h"
#include "../scenario/scenario.h"

struct progress {
	const char *scenario;
	const char *config;		/* the [sweep] configuration, "" if none */
	double start;
	double estimate;		/* seconds for everything */
	int tty;
	/* --each-node: the node this run is on (-1: none), and which of how many */
	int node, node_i, nr_nodes;
	/* write the result exactly there instead of under out, when set */
	const char *result_at;
	const char *result_name;	/* and name it so: where it will be once renamed */
	/* where the result went */
	char result[PATH_MAX];
};

double now_s(void);

/* SIGINT/SIGTERM: the first stops at the next run boundary, the second at once */
void session_catch_signals(void);
int session_interrupted(void);

/* dir and everything under it (symbolic links not followed); -1 if any stays */
int session_remove_tree(const char *dir);
/* a temporary directory of the session's removed, or said to be left for the user */
void session_remove_tmp(const char *dir);
/* create DIR (and parents) and check it can take a result; -1 with err */
int session_prepare_out(const char *dir, char *err, size_t errlen);
/* the bad settings of the machine a session warns of, at most */
#define SESSION_WARNED 32

/* what a session does once, however many scenarios it runs */
struct session_once {
	hwloc_bitmap_t held;			/* CPUs whose lock this process holds */
	char warned[SESSION_WARNED][48];	/* the settings warned of */
	int nr_warned;
};

/* lock cpus against another pcpbench; their list in busy when one holds them */
void session_lock_cpus(struct session_once *once, hwloc_const_bitmap_t cpus, char *busy,
		       size_t len);
void session_once_free(struct session_once *once);

struct pcb_kmod;
/*
 * run.backend = kernel in sc: pcpbench.ko loaded into k for the session
 * (run.module), unless it is already; a refusal exits 2, naming cmd
 */
void session_load_module(const struct pcb_scenario *sc, struct pcb_kmod *k, const char *cmd);

/* what every scenario of a session is run with */
struct session {
	struct pcb_topo *topo;			/* scenarios are checked against it */
	const struct pcb_clock *clk;		/* NULL until calibrated */
	const char *command;			/* the command line, for the result */
	const char *out;			/* where results go */
	const struct pcb_table_opts *tables;	/* NULL: the tables in the result alone */
	struct session_once *once;		/* shared by every copy of the session */
};

/*
 * every configuration of one scenario: runs in order, tables (on stdout,
 * unless ss->tables is NULL), result; exit status
 */
int run_scenario(const struct session *ss, struct pcb_scenario *cfg, int ncfg,
		 struct progress *pg);

#endif
