/* SPDX-License-Identifier: MIT */
/*
 * One scenario's runs as run_scenario() makes them (session_run.c), and
 * the result they leave (session_result.c): what the two share, inside
 * cli/ only.
 */
#ifndef PCB_CLI_SESSION_RUN_H
#define PCB_CLI_SESSION_RUN_H

#include "../machine/state.h"
#include "session.h"

/* one design of one configuration, and the runs it has */
struct slot {
	struct pcb_scenario *sc;
	const struct pcb_design *d;
};

/* one scenario's runs as run_scenario() makes them, and what they leave */
struct scn_run {
	const struct session *ss;
	struct pcb_scenario *cfg;
	int ncfg;
	struct progress *pg;
	struct pcb_design_result *res;	/* one a slot */
	struct slot *slots;
	int *order;			/* (slot, run) pairs */
	int total, nruns;		/* slots, runs */
	int interrupted;		/* the run a stop came before, -1 if none */
	char busy[512];			/* CPUs another pcpbench holds */
	json_t *context, *runs;		/* the result's context and run order */
	struct pcb_load_sample load;	/* the machine's load as the runs began */
	double load_at;			/* when (now_s()) */
};

/*
 * The machine's state for every configuration's workers into r's context
 * (as check reads it), and this process's ASLR; each bad setting warned of
 * once a session
 */
void session_record_state(struct scn_run *r);
/*
 * The machine's load over the runs (steal on the workers' CPUs, the load
 * average) from r->load to now, into r's context as items of its state;
 * each bad one warned of once a session
 */
void session_record_run_load(struct scn_run *r);
/* the result of what ran, printed and written: rc, else EXIT_RUNTIME if that or a check failed */
int session_finish_result(struct scn_run *r, int rc);

#endif
