/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../machine/datadir.h"
#include "../output/write/columns.h"
#include "../scenario/sweep.h"
#include "groups.h"

/*
 * a scenario named without a path: the data directory's alone, never the
 * current directory's (where another user may have put one)
 */
const char *scenario_path(const char *name, char *buf, size_t len)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "scenarios/%s.scn", name);
	return pcb_data_path(rel, buf, len);
}

/*
 * A fork and exec of cat and its read of /proc/interrupts, the
 * instrumented backend's operation: 1.04 ms a loop iteration under bash
 * on a 2-CPU KVM guest (2026-12)
 */
#define INSTRUMENTED_OP_S 1e-3

double scenario_seconds(const struct pcb_scenario *sc)
{
	double op_run = sc->backend == PCB_BACKEND_INSTRUMENTED ?
			(double)sc->ops * INSTRUMENTED_OP_S : 1;
	double per_run = (double)sc->warmup_ms / 1e3 + (sc->ops ? op_run :
			 (double)sc->duration_ms / 1e3) + 0.02;

	return per_run * sc->runs * sc->nr_designs;
}

double group_seconds(const struct scn_group *g)
{
	double s = 0;

	for (int c = 0; c < g->n; c++)
		s += scenario_seconds(&g->cfg[c]);
	return s;
}

/*
 * --quick: 2 runs (unless --runs, or a [sweep] of run.runs, whose values
 * name the configurations), a tenth of the duration and warm-up
 */
static void make_quick(struct pcb_scenario *sc, int runs_given)
{
	char v[32];

	if (!runs_given && !sc->sweep[K_RUN_RUNS]) {
		pcb_scenario_override(sc, K_RUN_RUNS, "2", "--quick");
		sc->runs = 2;
		sc->runs_auto = 0;
	}
	sc->duration_ms = sc->duration_ms / 10 ? sc->duration_ms / 10 : 1;
	sc->warmup_ms /= 10;
	sc->ops /= 10;
	snprintf(v, sizeof(v), "%ld", sc->duration_ms);
	pcb_scenario_override(sc, K_RUN_DURATION_MS, v, "--quick");
	snprintf(v, sizeof(v), "%ld", sc->warmup_ms);
	pcb_scenario_override(sc, K_RUN_WARMUP_MS, v, "--quick");
	snprintf(v, sizeof(v), "%ld", sc->ops);
	pcb_scenario_override(sc, K_RUN_OPS, v, "--quick");
}

/*
 * One name a configuration in every format: kv's stats and mmtests' rows
 * name a configuration by its label as pcb_kv_name() makes it, so two
 * labels that make one name are refused, at the swept key that tells them
 * apart; -1 with err
 */
static int check_names(const struct scn_group *g, char *err, size_t errlen)
{
	char (*name)[PCB_LABEL_LEN] = calloc((size_t)g->n, sizeof(*name));

	if (!name) {
		snprintf(err, errlen, "%s: out of memory", g->cfg[0].file);
		return -1;
	}
	for (int c = 0; c < g->n; c++)
		pcb_kv_name(g->cfg[c].label, name[c], sizeof(name[c]));
	for (int c = 1; c < g->n; c++)
		for (int d = 0; d < c; d++) {
			const struct pcb_scenario *a = &g->cfg[d], *b = &g->cfg[c];
			int k = 0;

			if (strcmp(name[c], name[d]))
				continue;
			/* the labels differ, so a swept value does */
			while (!a->sweep[k] || !strcmp(a->value[k], b->value[k]))
				k++;
			snprintf(err, errlen, "%s:%d: sweep.%s.%s: '%s' and '%s' make one name (%s) "
				 "in report --format kv and mmtests", a->file, a->sweep_line[k],
				 pcb_key_get(k)->section, pcb_key_get(k)->name, a->value[k],
				 b->value[k], name[c]);
			free(name);
			return -1;
		}
	free(name);
	return 0;
}

/* --runs and --events win over a [sweep] of their key, as --set does: one value, one label */
static void options_over_sweep(struct pcb_scenario *sc, const struct run_opts *o)
{
	const int key[2] = { K_RUN_RUNS, K_COUNTERS_EVENTS };
	const char *const given[2] = { o->runs, o->events };

	for (int i = 0; i < 2; i++)
		if (given[i]) {
			free(sc->sweep[key[i]]);
			sc->sweep[key[i]] = NULL;
		}
}

void group_free(struct scn_group *g)
{
	for (int c = 0; g->cfg && c < g->n; c++)
		pcb_scenario_free(&g->cfg[c]);
	free(g->cfg);
	g->cfg = NULL;
	g->n = 0;
}

int group_load(struct scn_group *g, const char *path, const struct run_opts *o,
	       struct pcb_topo *topo, char *err, size_t errlen)
{
	struct pcb_scenario base;
	int n, rc = -1;

	memset(g, 0, sizeof(*g));
	memset(&base, 0, sizeof(base));
	if (pcb_scenario_load(&base, path, err, errlen) < 0)
		goto out;
	for (int s = 0; s < o->nsets; s++)
		if (pcb_scenario_set(&base, o->sets[s], err, errlen) < 0)
			goto out;
	options_over_sweep(&base, o);
	n = pcb_sweep_check(&base, err, errlen);
	if (n < 0)
		goto out;
	g->cfg = calloc((size_t)n, sizeof(*g->cfg));
	if (!g->cfg) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	for (int c = 0; c < n; c++) {
		struct pcb_scenario *sc = &g->cfg[c];

		g->n = c + 1;
		if (pcb_scenario_load_text(sc, path, base.text, err, errlen) < 0)
			goto fail;
		for (int s = 0; s < o->nsets; s++)
			if (pcb_scenario_set(sc, o->sets[s], err, errlen) < 0)
				goto fail;
		options_over_sweep(sc, o);
		pcb_sweep_apply(sc, c);
		if (o->runs)
			pcb_scenario_override(sc, K_RUN_RUNS, o->runs, "--runs");
		if (o->events)
			pcb_scenario_override(sc, K_COUNTERS_EVENTS, o->events, "--events");
		if (o->hook)
			o->hook(sc, c, o->hook_arg);
		if (pcb_scenario_finish(sc, topo, err, errlen) < 0)
			goto fail;
		if (o->quick)
			make_quick(sc, o->runs != NULL);
	}
	if (check_names(g, err, errlen) < 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	group_free(g);
out:
	pcb_scenario_free(&base);
	return rc;
}
