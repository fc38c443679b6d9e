/* SPDX-License-Identifier: MIT */
/*
 * A scenario as run, reproduce and the per-node runs load it: the file, the
 * --set overrides and options, every configuration of its [sweep], each
 * checked against the topology before anything runs.
 */
#ifndef PCB_CLI_GROUPS_H
#define PCB_CLI_GROUPS_H

#include "../scenario/scenario.h"

/*
 * Called on configuration c after the sweep and the options, before the
 * checks: the per-node runs set cpus.workers and drain.cpu there.
 */
typedef void (*group_hook)(struct pcb_scenario *sc, int c, void *arg);

/* what the command line asks of every scenario, and what the per-node runs add */
struct run_opts {
	const char **sets;		/* "section.key=value" */
	int nsets;
	const char *runs;		/* --runs, or NULL */
	const char *events;		/* --events, or NULL */
	int quick;
	group_hook hook;		/* NULL if none */
	void *hook_arg;			/* what hook is passed */
};

/* a scenario's configurations */
struct scn_group {
	int n;
	struct pcb_scenario *cfg;
};

/* load and check; -1 with "FILE:LINE: section.key: why" in err */
int group_load(struct scn_group *g, const char *path, const struct run_opts *o,
	       struct pcb_topo *topo, char *err, size_t errlen);
void group_free(struct scn_group *g);
/* seconds the group's runs take, warm-up included */
double group_seconds(const struct scn_group *g);
double scenario_seconds(const struct pcb_scenario *sc);
/* a scenario named without a path: scenarios/NAME.scn, from here or the data directory */
const char *scenario_path(const char *name, char *buf, size_t len);

#endif
