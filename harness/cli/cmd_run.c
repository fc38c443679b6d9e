/* SPDX-License-Identifier: MIT */
/*
 * run: every scenario and every configuration of its [sweep] checked
 * first, then each design run, the tables printed and the result written.
 */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../output/result.h"
#include "../run/runner.h"
#include "../scenario/sweep.h"
#include "cli.h"
#include "config.h"
#include "session.h"

static const char *default_scenario(void)
{
	static char path[PATH_MAX];

	if (access("scenarios/default.scn", R_OK) == 0)
		return "scenarios/default.scn";
	snprintf(path, sizeof(path), "%s/scenarios/default.scn", PCB_SOURCE_DIR);
	return path;
}

static double scenario_seconds(const struct pcb_scenario *sc)
{
	double per_run = (double)(sc->warmup_ms + (sc->ops ? 1000 : sc->duration_ms)) / 1e3 + 0.02;

	return per_run * sc->runs * sc->nr_designs;
}

static void print_plan(const struct pcb_topo *topo, const struct pcb_scenario *sc)
{
	unsigned int cpu;
	char buf[1024];

	printf("scenario %s (%s)%s%s\n", sc->name, sc->file, sc->label[0] ? ": " : "", sc->label);
	for (int d = 0; d < sc->nr_designs; d++)
		printf("  design %-14s %s\n", sc->design[d]->name, sc->design[d]->follows);
	sc->model->describe(sc->config, buf, sizeof(buf));
	printf("  model %s: %s\n", sc->model->name, buf);
	printf("  timing %s, %d runs of %s%s, warm-up %ld ms\n",
	       pcb_timing_name((enum pcb_timing)sc->timing), sc->runs,
	       sc->ops ? "an op count" : sc->value[K_RUN_DURATION_MS], sc->ops ? "" : " ms",
	       sc->warmup_ms);
	pcb_cpuset_format(sc->workers, buf, sizeof(buf));
	printf("  workers: %d on CPUs %s\n", hwloc_bitmap_weight(sc->workers), buf);
	hwloc_bitmap_foreach_begin(cpu, sc->workers) {
		const struct pcb_topo_cpu *c = pcb_topo_cpu(topo, cpu);

		printf("    cpu %-5u node %-3d core %d%s\n", cpu, c ? c->node : -1, c ? c->core : -1,
		       hwloc_bitmap_isset(sc->isolated, cpu) ? "  isolated" : "");
	} hwloc_bitmap_foreach_end();
	pcb_cpuset_format(sc->isolated, buf, sizeof(buf));
	printf("  isolated CPUs: %s (%s)\n", buf, topo->isolated_source);
	printf("  estimated time: %.0f s\n", scenario_seconds(sc));
}

/* --quick: 2 runs (unless --runs), a tenth of the duration and warm-up */
static void make_quick(struct pcb_scenario *sc, int runs_given)
{
	char v[32];

	if (!runs_given) {
		pcb_scenario_override(sc, K_RUN_RUNS, "2", "--quick");
		sc->runs = 2;
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

int cmd_run(int argc, char **argv, const char *topo_spec, const char *command)
{
	static const struct option opts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "quick", no_argument, NULL, 'q' },
		{ "set", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "events", required_argument, NULL, 'e' },
		{ "raw", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char **sets = calloc((size_t)argc + 1, sizeof(char *));
	const char *runs = NULL, *out = "results", *events = NULL;
	int nsets = 0, quick = 0, dry = 0, c, nsc, rc = 0;
	struct group {
		int n;
		struct pcb_scenario *cfg;
	} *grp;
	struct pcb_topo topo;
	struct pcb_clock clk;
	struct pcb_table_opts tables = { 0 };
	struct progress pg;
	char err[1024];

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': runs = optarg; break;
		case 'q': quick = 1; break;
		case 's': sets[nsets++] = optarg; break;
		case 'o': out = optarg; break;
		case 'n': dry = 1; break;
		case 'e': events = optarg; break;
		case 'R': tables.raw = 1; break;
		case 'h': fputs(run_usage, stdout); free(sets); return 0;
		default: die_usage("run: see pcpbench run --help");
		}
	}
	nsc = argc - optind;
	load_topology(&topo, topo_spec);

	/* every scenario, and every configuration its [sweep] makes, is checked first */
	grp = calloc((size_t)(nsc ? nsc : 1), sizeof(*grp));
	for (int i = 0; i < (nsc ? nsc : 1); i++) {
		const char *path = nsc ? argv[optind + i] : default_scenario();
		struct pcb_scenario base;

		if (pcb_scenario_load(&base, path, err, sizeof(err)) < 0)
			die_usage("%s", err);
		for (int s = 0; s < nsets; s++)
			if (pcb_scenario_set(&base, sets[s], err, sizeof(err)) < 0)
				die_usage("%s", err);
		grp[i].n = pcb_sweep_check(&base, err, sizeof(err));
		if (grp[i].n < 0)
			die_usage("%s", err);
		grp[i].cfg = calloc((size_t)grp[i].n, sizeof(*grp[i].cfg));
		for (int c = 0; c < grp[i].n; c++) {
			struct pcb_scenario *sc = &grp[i].cfg[c];

			if (pcb_scenario_load_text(sc, path, base.text, err, sizeof(err)) < 0)
				die_usage("%s", err);
			for (int s = 0; s < nsets; s++)
				if (pcb_scenario_set(sc, sets[s], err, sizeof(err)) < 0)
					die_usage("%s", err);
			pcb_sweep_apply(sc, c);
			if (runs)
				pcb_scenario_override(sc, K_RUN_RUNS, runs, "--runs");
			if (events)
				pcb_scenario_override(sc, K_COUNTERS_EVENTS, events, "--events");
			if (pcb_scenario_finish(sc, &topo, err, sizeof(err)) < 0)
				die_usage("%s", err);
			if (quick)
				make_quick(sc, runs != NULL);
		}
		pcb_scenario_free(&base);
	}
	if (nsc == 0)
		nsc = 1;

	if (dry) {
		for (int i = 0; i < nsc; i++)
			for (int c = 0; c < grp[i].n; c++)
				print_plan(&topo, &grp[i].cfg[c]);
		goto out;
	}
	if (topo.synthetic)
		die_usage("run: the topology is not this machine's (%s): workers cannot be pinned to its "
			  "CPUs; use --dry-run to see the plan", topo.source);

	if (session_prepare_out(out, err, sizeof(err)) < 0)
		die_usage("%s", err);
	session_catch_signals();
	pcb_clock_calibrate(&clk, CALIBRATE_MS);
	if (clk.kernel_tsc_hz > 0 && fabs(clk.tsc_hz / clk.kernel_tsc_hz - 1) > 0.01)
		fprintf(stderr, "%s: note: calibrated TSC %.1f MHz differs from the kernel's %.1f MHz "
			"by more than 1%%\n", prog, clk.tsc_hz / 1e6, clk.kernel_tsc_hz / 1e6);

	pg.tty = isatty(2);
	pg.start = now_s();
	pg.estimate = 0;
	for (int i = 0; i < nsc; i++)
		for (int c = 0; c < grp[i].n; c++)
			pg.estimate += scenario_seconds(&grp[i].cfg[c]);

	for (int i = 0; i < nsc && rc == 0; i++) {
		rc = run_scenario(&topo, &clk, grp[i].cfg, grp[i].n, command, out, &tables, &pg);
		if (i + 1 < nsc && !session_interrupted())
			printf("\n");
		if (session_interrupted())
			break;
	}
out:
	for (int i = 0; i < nsc; i++) {
		for (int c = 0; c < grp[i].n; c++)
			pcb_scenario_free(&grp[i].cfg[c]);
		free(grp[i].cfg);
	}
	free(grp);
	free(sets);
	pcb_topo_destroy(&topo);
	return rc;
}

