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

struct progress {
	const char *scenario;
	const char *config;		/* the [sweep] configuration, "" if none */
	double start;
	double estimate;		/* seconds for everything */
	int tty;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_line(struct progress *p, const struct pcb_design *d, int run, int runs,
			  int done, int total)
{
	double el = now_s() - p->start;

	if (!p->tty)
		return;
	fprintf(stderr, "\r\033[K[%s] %s%s%s run %d/%d (%d of %d)  elapsed %.0fs, about %.0fs left",
		p->scenario, d->name, *p->config ? " " : "", p->config, run + 1, runs, done + 1,
		total, el, fmax(0, p->estimate - el));
	fflush(stderr);
}

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
		       hwloc_bitmap_isset(topo->isolated, cpu) ? "  isolated" : "");
	} hwloc_bitmap_foreach_end();
	pcb_cpuset_format(topo->isolated, buf, sizeof(buf));
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

/* one design of one configuration, and the runs it has */
struct slot {
	struct pcb_scenario *sc;
	const struct pcb_design *d;
};

/*
 * The order of a scenario's runs, as (slot, run) pairs: every run of a design
 * before the next (blocked), each round of runs over every design and
 * configuration in turn (interleaved), or each round in an order drawn from
 * the scenario's seed (shuffled). Interleaved and shuffled orders spread a
 * drifting host over every design alike.
 */
static int make_order(const struct slot *slots, int n, int mode, unsigned long seed, int *order)
{
	int max_runs = 0, k = 0;
	uint64_t rng = (seed + 1) * 0x9E3779B97F4A7C15ULL;

	for (int i = 0; i < n; i++)
		max_runs = slots[i].sc->runs > max_runs ? slots[i].sc->runs : max_runs;
	if (mode == PCB_ORDER_BLOCKED) {
		for (int i = 0; i < n; i++)
			for (int r = 0; r < slots[i].sc->runs; r++) {
				order[k++] = i;
				order[k++] = r;
			}
		return k / 2;
	}
	for (int r = 0; r < max_runs; r++) {
		int perm[n];

		for (int i = 0; i < n; i++)
			perm[i] = i;
		for (int i = n - 1; mode == PCB_ORDER_SHUFFLED && i > 0; i--) {
			int j, t;

			rng ^= rng >> 12;
			rng ^= rng << 25;
			rng ^= rng >> 27;
			j = (int)((rng * 0x2545F4914F6CDD1DULL >> 33) % (uint64_t)(i + 1));
			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		for (int i = 0; i < n; i++)
			if (r < slots[perm[i]].sc->runs) {
				order[k++] = perm[i];
				order[k++] = r;
			}
	}
	return k / 2;
}

/* every configuration of one scenario: runs in order, tables, result; exit status */
static int run_scenario(const struct pcb_topo *topo, const struct pcb_clock *clk,
			struct pcb_scenario *cfg, int ncfg, const char *command, const char *out,
			const struct pcb_table_opts *tables, struct progress *pg)
{
	struct pcb_scenario *first = &cfg[0];
	int total = 0, nruns = 0, broken = 0, rc = 0, *order;
	struct pcb_design_result *res;
	struct slot *slots;
	char started[32], path[PATH_MAX], err[1024];
	json_t *context, *result, *oj;

	for (int c = 0; c < ncfg; c++) {
		total += cfg[c].nr_designs;
		nruns += cfg[c].nr_designs * cfg[c].runs;
	}
	res = calloc((size_t)total, sizeof(*res));
	slots = calloc((size_t)total, sizeof(*slots));
	order = calloc((size_t)nruns * 2, sizeof(*order));
	if (!res || !slots || !order) {
		fprintf(stderr, "%s: out of memory\n", first->name);
		free(res);
		free(slots);
		free(order);
		return EXIT_RUNTIME;
	}
	total = 0;
	for (int c = 0; c < ncfg; c++)
		for (int d = 0; d < cfg[c].nr_designs; d++) {
			slots[total].sc = &cfg[c];
			slots[total].d = cfg[c].design[d];
			if (pcb_design_result_init(&res[total], &cfg[c], cfg[c].design[d], clk) < 0)
				rc = EXIT_RUNTIME;
			total++;
		}
	nruns = make_order(slots, total, first->order, (unsigned long)first->seed, order);
	pcb_utc_timestamp(started, sizeof(started), 0);
	context = pcb_result_context(topo, clk, command, started);
	oj = json_array();
	pg->scenario = first->name;
	for (int k = 0; k < nruns && rc == 0; k++) {
		struct slot *sl = &slots[order[2 * k]];
		int run = order[2 * k + 1];

		pg->config = sl->sc->label;
		progress_line(pg, sl->d, run, sl->sc->runs, k, nruns);
		if (pcb_run_design(topo, sl->sc, sl->d, clk, &res[order[2 * k]], run, err,
				   sizeof(err)) < 0) {
			if (pg->tty)
				fprintf(stderr, "\n");
			fprintf(stderr, "%s: %s: %s\n", pg->scenario, res[order[2 * k]].label, err);
			rc = EXIT_RUNTIME;
		}
		json_array_append_new(oj, json_pack("{s:s,s:i}", "design", res[order[2 * k]].label,
						    "run", run + 1));
	}
	if (pg->tty)
		fprintf(stderr, "\r\033[K");
	if (rc == 0) {
		for (int d = 0; d < total; d++)
			broken |= res[d].check_failed;
		json_object_set_new(context, "complete", json_true());
		result = pcb_result_build(context, first, res, total);
		json_object_set_new(result, "run_order", json_pack("{s:s,s:I,s:o}",
			"mode", pcb_order_name[first->order], "seed", (json_int_t)first->seed,
			"runs", oj));
		oj = NULL;
		if (pcb_tables_print_opts(stdout, result, tables, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", pg->scenario, err);
			rc = EXIT_RUNTIME;
		}
		fflush(stdout);
		if (pcb_result_write(result, out, path, sizeof(path), err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", pg->scenario, err);
			rc = EXIT_RUNTIME;
		} else {
			fprintf(stderr, "%s: result in %s\n", first->name, path);
		}
		if (broken) {
			fprintf(stderr, "%s: the charge invariant was broken (see the notes)\n",
				first->name);
			rc = EXIT_RUNTIME;
		}
		json_decref(result);
	}
	json_decref(oj);
	for (int d = 0; d < total; d++)
		pcb_design_result_free(&res[d]);
	free(res);
	free(slots);
	free(order);
	json_decref(context);
	return rc;
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
		grp[i].n = pcb_sweep_combos(&base);
		if (grp[i].n > 1000)
			die_usage("%s: [sweep] makes %d configurations (at most 1000)", path, grp[i].n);
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
		die_usage("run: the topology is synthetic (%s): workers cannot be pinned to its "
			  "CPUs; use --dry-run to see the plan", topo.source);

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
		if (i + 1 < nsc)
			printf("\n");
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

