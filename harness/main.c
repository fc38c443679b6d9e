/* SPDX-License-Identifier: MIT */
/*
 * pcpbench: what a per-CPU cache's lock design costs on the hot path.
 * Subcommands: info, list, run, report, calibrate, cpus.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "calib.h"
#include "config.h"
#include "design.h"
#include "counters.h"
#include "result.h"
#include "runner.h"
#include "scenario.h"
#include "topo.h"
#include "tsc.h"

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
#define CALIBRATE_MS 200

static const char *prog = "pcpbench";

static void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(EXIT_USAGE);
}

static const char main_usage[] =
	"usage: pcpbench [--topology SPEC] COMMAND [ARGS]\n"
	"\n"
	"Measures what per-CPU cache lock designs cost: userspace models of the\n"
	"kernel's memcg charge stock run on pinned threads, timed with\n"
	"rdtsc_ordered(), printed as cover-letter tables.\n"
	"\n"
	"commands:\n"
	"  run [SCENARIO.scn ...]   run scenarios (default scenarios/default.scn)\n"
	"  report RESULT.json       print a saved result's tables again\n"
	"  info [--json]            the machine, as a cover letter's Test System\n"
	"  list                     kernels, designs, workloads and scenario keys\n"
	"  calibrate                a bare consume_stock loop beside the harness figure\n"
	"  cpus EXPR ...            resolve CPU-set expressions on this topology\n"
	"\n"
	"options:\n"
	"  --topology SPEC          an hwloc XML file or synthetic description such as\n"
	"                           \"numa:8 core:16 pu:1\" instead of this machine\n"
	"                           (also PCPBENCH_TOPOLOGY); plan and inspect only\n"
	"  -h, --help               this help; COMMAND --help for a command's\n"
	"  -V, --version            the version\n"
	"\n"
	"exit status: 0 success, 1 runtime failure, 2 usage or scenario error\n";

static const char run_usage[] =
	"usage: pcpbench run [SCENARIO.scn ...] [--runs N] [--quick] [--set SECTION.KEY=VALUE ...]\n"
	"                    [--events LIST] [--out DIR] [--dry-run]\n"
	"\n"
	"Runs each scenario's designs on pinned workers and prints the cover-letter\n"
	"tables to stdout; progress goes to stderr when it is a terminal. Each\n"
	"scenario writes DIR/<scenario>-<UTC timestamp>/ with result.json,\n"
	"functions.csv, runs.csv, histogram.csv and tables.txt.\n"
	"\n"
	"  --runs N        repetitions (overrides run.runs)\n"
	"  --quick         smoke run: 2 runs, a tenth of the duration and warm-up\n"
	"  --set K=V       override a scenario key, e.g. --set run.timing=call\n"
	"  --events LIST   perf events by libpfm4 name (overrides counters.events),\n"
	"                  e.g. --events cycles,instructions,task-clock,context-switches\n"
	"  --out DIR       where results go (default results/)\n"
	"  --dry-run       check the scenarios and print the plan; run nothing\n"
	"\n"
	"Every scenario is checked before anything runs: an error prints\n"
	"FILE:LINE: section.key: what is wrong, and exits 2.\n";

static const char report_usage[] =
	"usage: pcpbench report RESULT.json|RESULT-DIR\n"
	"\n"
	"Prints the tables of a saved result, exactly as the run printed them.\n";

static const char info_usage[] =
	"usage: pcpbench info [--json]\n"
	"\n"
	"Prints the machine: CPU model, CPUs, cores, NUMA nodes and their CPUs,\n"
	"isolated and nohz_full CPUs, kernel, TSC frequency (calibrated and the\n"
	"kernel's), TSC step, the overhead of an empty timed region in each timing\n"
	"mode and what is left of it after subtraction, and which perf events open.\n";

static const char list_usage[] =
	"usage: pcpbench list\n"
	"\n"
	"Lists kernels, designs, workloads and scenario keys, one line each.\n";

static const char calibrate_usage[] =
	"usage: pcpbench calibrate [--cpu N] [--runs N]\n"
	"\n"
	"Runs consume_stock()'s work under local_lock as a bare loop with no harness\n"
	"around it, then the harness's batch-mode figure for the same call on the\n"
	"same CPU, and prints both. Default CPU: the last housekeeping CPU.\n";

static const char cpus_usage[] =
	"usage: pcpbench cpus [--isolated LIST] EXPR ...\n"
	"\n"
	"Resolves CPU-set expressions (all, node:N, isolated, housekeeping, N, N-M,\n"
	"!term) on this topology, or on --topology, and prints each CPU list.\n";

static int wants_help(int argc, char **argv, const char *usage)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 1;
		}
	}
	return 0;
}

static void load_topology(struct pcb_topo *topo, const char *spec)
{
	char err[512];

	if (pcb_topo_load(topo, spec, err, sizeof(err)) < 0)
		die_usage("%s", err);
}

/* ---- info ---- */

static void print_info(const struct pcb_topo *topo, const struct pcb_clock *clk)
{
	json_t *info = pcb_info_json(topo, clk);
	json_t *perf = json_object_get(info, "perf"), *events = json_object_get(perf, "events");
	const char *name;
	json_t *v;
	char buf[1024];

	printf("Test System\n");
	printf("  host:             %s\n", json_string_value(json_object_get(info, "host")));
	if (topo->synthetic)
		printf("  topology:         synthetic: %s\n", topo->source);
	printf("  CPU model:        %s\n", topo->cpu_model);
	printf("  CPUs:             %d (%d cores)\n", topo->nr_cpus, topo->nr_cores);
	printf("  NUMA nodes:       %d\n", topo->nr_nodes);
	for (int i = 0; i < topo->nr_nodes; i++) {
		pcb_cpuset_format(topo->node[i].cpus, buf, sizeof(buf));
		printf("    node%-3u         %s\n", topo->node[i].os, buf);
	}
	for (int l = 1; l <= 3; l++)
		if (topo->cache[l].size)
			printf("  L%d%s cache:        %llu KiB, %u-byte lines, %d of them, each shared by %d CPU%s\n",
			       l, l == 1 ? "d" : " ", topo->cache[l].size / 1024, topo->cache[l].line,
			       topo->cache[l].count, topo->cache[l].cpus, topo->cache[l].cpus == 1 ? "" : "s");
	pcb_cpuset_format(topo->isolated, buf, sizeof(buf));
	printf("  isolated CPUs:    %s (%s)\n", buf, topo->isolated_source);
	pcb_cpuset_format(topo->nohz_full, buf, sizeof(buf));
	printf("  nohz_full CPUs:   %s\n", buf);
	printf("  kernel:           %s\n", json_string_value(json_object_get(info, "kernel")));
	printf("  TSC frequency:    %.3f MHz calibrated against CLOCK_MONOTONIC_RAW", clk->tsc_hz / 1e6);
	if (clk->kernel_tsc_hz > 0)
		printf("; kernel: %.3f MHz (%s)\n", clk->kernel_tsc_hz / 1e6, clk->kernel_tsc_source);
	else
		printf("; kernel's figure unknown\n");
	printf("  TSC step:         %llu tick(s) (gcd of increments); back-to-back read %llu ticks\n",
	       (unsigned long long)clk->step, (unsigned long long)clk->read_min);
	for (int m = PCB_TIMING_CALL; m <= PCB_TIMING_BATCH; m++)
		printf("  empty region %-5s %.2f ticks (lfence;rdtsc .. rdtscp;lfence, per %s); "
		       "after subtraction %+.2f +/- %.2f\n", pcb_timing_name(m),
		       clk->overhead[m], m == PCB_TIMING_CALL ? "call" : "batch",
		       clk->residual[m], clk->residual_stddev[m]);
	printf("  perf events:      hardware %s (paranoid %d)\n",
	       json_is_true(json_object_get(perf, "hardware_events")) ? "available" : "not available",
	       pcb_perf_paranoid());
	json_object_foreach(events, name, v)
		printf("    %-16s %s\n", name, json_string_value(v));
	json_decref(info);
}

static int cmd_info(int argc, char **argv, const char *topo_spec)
{
	struct pcb_topo topo;
	struct pcb_clock clk;
	int as_json = 0;

	if (wants_help(argc, argv, info_usage))
		return 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			as_json = 1;
		else
			die_usage("info: unknown argument '%s' (see pcpbench info --help)", argv[i]);
	}
	load_topology(&topo, topo_spec);
	pcb_clock_calibrate(&clk, CALIBRATE_MS);
	if (as_json) {
		json_t *info = pcb_info_json(&topo, &clk);

		json_dumpf(info, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		printf("\n");
		json_decref(info);
	} else {
		print_info(&topo, &clk);
	}
	pcb_topo_destroy(&topo);
	return 0;
}

/* ---- list ---- */

static int cmd_list(int argc, char **argv)
{
	if (wants_help(argc, argv, list_usage))
		return 0;
	if (argc > 1)
		die_usage("list: unknown argument '%s'", argv[1]);
	printf("kernels:\n");
	printf("  %-22s %s\n", "memcg_stock", "struct memcg_stock_pcp: consume_stock, refill_stock, "
	       "drain_stock, page_counter (mm/memcontrol.c)");
	printf("designs:\n");
	for (int i = 0; pcb_designs[i]; i++)
		printf("  %-22s %s [%s]; drained: %s\n", pcb_designs[i]->name,
		       pcb_designs[i]->summary, pcb_designs[i]->follows, pcb_designs[i]->promise);
	printf("workloads:\n");
	for (int i = 0; i < PCB_WL_NR; i++)
		printf("  %-22s %s\n", pcb_workloads[i].name, pcb_workloads[i].summary);
	printf("scenario keys (default):\n");
	for (int k = 0; k < K_NR; k++) {
		char key[64];

		snprintf(key, sizeof(key), "%s.%s", pcb_keys[k].section, pcb_keys[k].name);
		printf("  %-22s %s (%s)\n", key, pcb_keys[k].help,
		       *pcb_keys[k].def ? pcb_keys[k].def : "none");
	}
	return 0;
}

/* ---- cpus ---- */

static int cmd_cpus(int argc, char **argv, const char *topo_spec)
{
	struct pcb_topo topo;
	hwloc_bitmap_t set;
	const char *isolated = "sysfs";
	char err[512], buf[1024];
	int first = 1, n = 0;

	if (wants_help(argc, argv, cpus_usage))
		return 0;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--isolated")) {
			if (++i >= argc)
				die_usage("cpus: --isolated needs a CPU list");
			isolated = argv[i];
			first = i + 1;
		}
	load_topology(&topo, topo_spec);
	if (pcb_topo_set_isolated(&topo, isolated, err, sizeof(err)) < 0)
		die_usage("cpus: --isolated %s", err);
	set = hwloc_bitmap_alloc();
	for (int i = first; i < argc; i++) {
		if (!strcmp(argv[i], "--isolated")) {
			i++;
			continue;
		}
		if (pcb_cpuset_parse(&topo, argv[i], set, err, sizeof(err)) < 0)
			die_usage("cpus: %s", err);
		pcb_cpuset_format(set, buf, sizeof(buf));
		printf("%s\t%s\t(%d CPUs)\n", argv[i], buf, hwloc_bitmap_weight(set));
		n++;
	}
	if (!n)
		die_usage("cpus: no expression given (see pcpbench cpus --help)");
	hwloc_bitmap_free(set);
	pcb_topo_destroy(&topo);
	return 0;
}

/* ---- report ---- */

static int cmd_report(int argc, char **argv)
{
	char path[PATH_MAX], err[512];
	json_error_t jerr;
	struct stat st;
	json_t *result;

	if (wants_help(argc, argv, report_usage))
		return 0;
	if (argc != 2)
		die_usage("report: give one RESULT.json (see pcpbench report --help)");
	snprintf(path, sizeof(path), "%s", argv[1]);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(path, sizeof(path), "%s/result.json", argv[1]);
	result = json_load_file(path, 0, &jerr);
	if (!result) {
		if (jerr.line > 0)
			die_usage("%s:%d: %s", path, jerr.line, jerr.text);
		die_usage("%s: %s", path, jerr.text);
	}
	if (strcmp(json_string_value(json_object_get(result, "format")) ?: "", PCB_RESULT_FORMAT))
		die_usage("%s: not a %s file", path, PCB_RESULT_FORMAT);
	if (pcb_tables_print(stdout, result, err, sizeof(err)) < 0)
		die_usage("%s: %s", path, err);
	json_decref(result);
	return 0;
}

/* ---- run ---- */

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

static void progress_line(void *ctx, const struct pcb_design *d, int run, int runs)
{
	struct progress *p = ctx;
	double el = now_s() - p->start;

	if (!p->tty)
		return;
	fprintf(stderr, "\r\033[K[%s] %s%s%s run %d/%d  elapsed %.0fs, about %.0fs left",
		p->scenario, d->name, *p->config ? " " : "", p->config, run + 1, runs, el,
		fmax(0, p->estimate - el));
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
	printf("  workload %s, timing %s, %d runs of %s, warm-up %ld ms, memcg depth %d\n",
	       pcb_workloads[sc->workload].name, pcb_timing_name(sc->timing), sc->runs,
	       sc->ops ? "an op count" : sc->value[K_RUN_DURATION_MS], sc->warmup_ms, sc->memcg_depth);
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

static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	for (int i = 0; s && i < argc; i++) {
		strcat(s, argv[i]);
		if (i + 1 < argc)
			strcat(s, " ");
	}
	return s;
}

static int cmd_run(int argc, char **argv, const char *topo_spec, const char *command)
{
	static const struct option opts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "quick", no_argument, NULL, 'q' },
		{ "set", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "events", required_argument, NULL, 'e' },
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
		grp[i].n = pcb_scenario_combos(&base);
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
			pcb_scenario_apply_combo(sc, c);
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
		struct pcb_scenario *first = &grp[i].cfg[0];
		int total = 0, done = 0, broken = 0;
		struct pcb_design_result *res;
		char started[32], path[PATH_MAX];
		json_t *context, *result;

		for (int c = 0; c < grp[i].n; c++)
			total += grp[i].cfg[c].nr_designs;
		res = calloc((size_t)total, sizeof(*res));
		pcb_utc_timestamp(started, sizeof(started), 0);
		context = pcb_result_context(&topo, &clk, command, started);
		pg.scenario = first->name;
		for (int c = 0; c < grp[i].n && rc == 0; c++) {
			struct pcb_scenario *sc = &grp[i].cfg[c];

			pg.config = sc->label;
			for (int d = 0; d < sc->nr_designs; d++) {
				if (pcb_run_design(&topo, sc, sc->design[d], &clk, &res[done],
						   progress_line, &pg, err, sizeof(err)) < 0) {
					if (pg.tty)
						fprintf(stderr, "\n");
					fprintf(stderr, "%s: %s%s%s: %s\n", pg.scenario, sc->design[d]->name,
						sc->label[0] ? " " : "", sc->label, err);
					rc = EXIT_RUNTIME;
					break;
				}
				broken |= res[done].check_failed;
				done++;
			}
		}
		if (rc) {
			for (int e = 0; e < done; e++)
				pcb_design_result_free(&res[e]);
			free(res);
			json_decref(context);
			goto out;
		}
		if (pg.tty)
			fprintf(stderr, "\r\033[K");
		json_object_set_new(context, "complete", json_true());
		result = pcb_result_build(context, first, res, total);
		if (pcb_tables_print(stdout, result, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", pg.scenario, err);
			rc = EXIT_RUNTIME;
		}
		fflush(stdout);
		if (pcb_result_write(result, out, path, sizeof(path), err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", pg.scenario, err);
			rc = EXIT_RUNTIME;
		} else {
			fprintf(stderr, "%s: result in %s\n", first->name, path);
		}
		if (broken) {
			fprintf(stderr, "%s: the charge invariant was broken (see the notes)\n",
				first->name);
			rc = EXIT_RUNTIME;
		}
		for (int d = 0; d < total; d++)
			pcb_design_result_free(&res[d]);
		free(res);
		json_decref(result);
		json_decref(context);
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

/* ---- calibrate ---- */

static int cmd_calibrate(int argc, char **argv, const char *topo_spec, const char *command)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "runs", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cpu_arg = NULL, *runs_arg = "6";
	struct pcb_design_result res;
	struct pcb_scenario sc;
	struct pcb_topo topo;
	struct pcb_clock clk;
	char err[1024], text[512];
	double bare[6], overhead;
	int c, cpu;

	(void)command;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': cpu_arg = optarg; break;
		case 'r': runs_arg = optarg; break;
		case 'h': fputs(calibrate_usage, stdout); return 0;
		default: die_usage("calibrate: see pcpbench calibrate --help");
		}
	}
	if (optind < argc)
		die_usage("calibrate: unknown argument '%s'", argv[optind]);
	load_topology(&topo, topo_spec);
	if (topo.synthetic)
		die_usage("calibrate: the topology is synthetic; it cannot run");
	if (cpu_arg) {
		snprintf(text, sizeof(text), "%s", cpu_arg);
	} else {
		hwloc_bitmap_t hk = hwloc_bitmap_alloc();

		hwloc_bitmap_andnot(hk, topo.all, topo.isolated);
		snprintf(text, sizeof(text), "%d", hwloc_bitmap_last(hk));
		hwloc_bitmap_free(hk);
	}
	cpu = atoi(text);
	{
		char scn[1024];

		snprintf(scn, sizeof(scn), "[scenario]\nname = calibrate\n[run]\ndesigns = local_lock\n"
			 "timing = batch\nruns = %s\nduration_ms = 500\nwarmup_ms = 100\n"
			 "[cpus]\nworkers = %s\n", runs_arg, text);
		if (pcb_scenario_load_text(&sc, "calibrate", scn, err, sizeof(err)) < 0 ||
		    pcb_scenario_finish(&sc, &topo, err, sizeof(err)) < 0)
			die_usage("%s", err);
	}
	if (pcb_topo_pin(&topo, (unsigned int)cpu) < 0)
		fprintf(stderr, "%s: note: could not pin the bare loop to CPU %d\n", prog, cpu);
	pcb_clock_calibrate(&clk, CALIBRATE_MS);
	overhead = clk.overhead[PCB_TIMING_BATCH];
	pcb_bare_consume_loop(1 << 14, overhead);	/* warm */
	for (int i = 0; i < 6; i++)
		bare[i] = pcb_bare_consume_loop(1 << 18, overhead);

	if (pcb_run_design(&topo, &sc, sc.design[0], &clk, &res, NULL, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: calibrate: %s\n", prog, err);
		return EXIT_RUNTIME;
	}
	double h = pcb_mean(res.fn[PCB_FN_CONSUME_STOCK].run_mean, res.runs);
	double hs = pcb_stddev(res.fn[PCB_FN_CONSUME_STOCK].run_mean, res.runs);
	double b = pcb_mean(bare, 6), bs = pcb_stddev(bare, 6);

	printf("calibration on CPU %d, TSC %.1f MHz, step %llu, empty region %.2f ticks\n\n",
	       cpu, clk.tsc_hz / 1e6, (unsigned long long)clk.step, overhead);
	printf("%-40s%-16s%s\n", "consume_stock, local_lock", "cycles/call", "STDDEV");
	printf("%-40s%-16.2f%.2f\n", "bare loop (one region, 2^24 calls):", b, bs);
	printf("%-40s%-16.2f%.2f\n", "harness, batch mode (64 calls a region):", h, hs);
	printf("%-40s%.2f\n", "harness - bare:", h - b);
	pcb_design_result_free(&res);
	pcb_scenario_free(&sc);
	pcb_topo_destroy(&topo);
	return 0;
}

int main(int argc, char **argv)
{
	const char *topo_spec = NULL;
	char *command = join_args(argc, argv);
	int i = 1, rc;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(main_usage, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			printf("pcpbench %s\n", PCB_VERSION);
			return 0;
		}
		if (!strcmp(argv[i], "--topology")) {
			if (i + 1 >= argc)
				die_usage("--topology needs an hwloc XML file or synthetic description");
			topo_spec = argv[i + 1];
			i += 2;
			continue;
		}
		if (!strncmp(argv[i], "--topology=", 11)) {
			topo_spec = argv[i] + 11;
			i++;
			continue;
		}
		die_usage("unknown option '%s' (see pcpbench --help)", argv[i]);
	}
	if (i >= argc) {
		fputs(main_usage, stderr);
		return EXIT_USAGE;
	}
	argc -= i;
	argv += i;
	if (!strcmp(argv[0], "run"))
		rc = cmd_run(argc, argv, topo_spec, command);
	else if (!strcmp(argv[0], "report"))
		rc = cmd_report(argc, argv);
	else if (!strcmp(argv[0], "info"))
		rc = cmd_info(argc, argv, topo_spec);
	else if (!strcmp(argv[0], "list"))
		rc = cmd_list(argc, argv);
	else if (!strcmp(argv[0], "calibrate"))
		rc = cmd_calibrate(argc, argv, topo_spec, command);
	else if (!strcmp(argv[0], "cpus"))
		rc = cmd_cpus(argc, argv, topo_spec);
	else
		die_usage("unknown command '%s' (see pcpbench --help)", argv[0]);
	free(command);
	return rc;
}
