/* SPDX-License-Identifier: MIT */
/*
 * calibrate: a model's bare loop of one function, with no harness around
 * it, beside the harness's batch figure for the same call on the same CPU.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../machine/aslr.h"
#include "../run/runner.h"
#include "cli.h"

/* the CPU to calibrate on as text, --cpu or else the last housekeeping CPU; -1 out of memory */
static int cpu_text(const struct pcb_topo *topo, const char *cpu_arg, char *buf, size_t len)
{
	hwloc_bitmap_t hk;

	if (cpu_arg) {
		snprintf(buf, len, "%s", cpu_arg);
		return 0;
	}
	hk = hwloc_bitmap_alloc();
	if (!hk)
		return -1;
	hwloc_bitmap_andnot(hk, topo->all, topo->isolated);
	snprintf(buf, len, "%d", hwloc_bitmap_last(hk));
	hwloc_bitmap_free(hk);
	return 0;
}

/* the CPU text names; exit 2 unless it is one CPU of this machine */
static int parse_cpu(struct pcb_topo *topo, const char *text)
{
	char *end;
	long v = strtol(text, &end, 10);

	/* one CPU: the bare loop and the harness's worker run on the same one */
	if (!*text || *end || v < 0 || v > INT_MAX ||
	    !hwloc_bitmap_isset(topo->all, (unsigned int)v)) {
		pcb_topo_destroy(topo);
		die_usage("calibrate: --cpu %s: not a CPU of this machine (one CPU number)", text);
	}
	return (int)v;
}

/* the model's calibration design in batch timing, runs and CPU as given; exit 2 on a bad one */
static void load_scenario(struct pcb_scenario *sc, const struct pcb_model *m,
			  struct pcb_topo *topo, const char *runs, const char *cpu)
{
	char scn[1024], err[1024];
	int rc;

	snprintf(scn, sizeof(scn), "[scenario]\nname = calibrate\n[run]\nmodel = %s\n"
		 "designs = %s\ntiming = batch\nduration_ms = 500\nwarmup_ms = 100\n",
		 m->name, m->calib->design);
	rc = pcb_scenario_load_text(sc, "calibrate", scn, err, sizeof(err));
	if (rc == 0) {
		/* what the options set, errors name by the option */
		pcb_scenario_override(sc, K_RUN_RUNS, runs, "--runs");
		pcb_scenario_override(sc, K_CPUS_WORKERS, cpu, "--cpu");
		rc = pcb_scenario_finish(sc, topo, err, sizeof(err));
	}
	/* the bare loop's six medians stand beside as many runs: no stopping rule */
	if (rc == 0 && sc->runs_auto) {
		snprintf(err, sizeof(err), "calibrate: --runs auto: a count of runs (1..1000); "
			 "auto is run's stopping rule");
		rc = -1;
	}
	if (rc < 0) {
		pcb_scenario_free(sc);
		pcb_topo_destroy(topo);
		die_usage("%s", err);
	}
}

/* the harness's runs of the calibration design into res: 0, else EXIT_RUNTIME */
static int run_harness(const struct pcb_topo *topo, const struct pcb_clock *clk,
		       struct pcb_scenario *sc, struct pcb_design_result *res)
{
	char err[1024];

	if (pcb_design_result_init(res, sc, sc->design[0], clk) < 0) {
		fprintf(stderr, "%s: calibrate: out of memory\n", prog);
		return EXIT_RUNTIME;
	}
	for (int r = 0; r < sc->runs; r++)
		if (pcb_run_design(topo, clk, res, r, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: calibrate: %s\n", prog, err);
			return EXIT_RUNTIME;
		}
	return 0;
}

/* rounds of the bare loop a region, and regions a median */
#define BARE_ROUNDS	256
#define BARE_REGIONS	171

/*
 * The bare loop's cycles a call: the median of regions of 2^14 calls, so
 * that a preemption or a stolen millisecond, which one region of 2^24
 * calls always straddles on a shared host, moves one region and not the
 * figure. The timer is a few ticks in 16384 calls.
 */
static double bare_median(const struct pcb_model *m, double overhead, bool preempt)
{
	double v[BARE_REGIONS];

	for (int r = 0; r < BARE_REGIONS; r++)
		v[r] = m->calib->bare(BARE_ROUNDS, overhead, preempt);
	qsort(v, BARE_REGIONS, sizeof(v[0]), pcb_cmp_double);
	return v[BARE_REGIONS / 2];
}

/*
 * The bare loop's cycles a call beside the harness's batch figure by
 * differencing and by the empty region subtracted, and what differencing
 * found a region's fixed cost to be beside the empty region.
 */
static void print_calibration(const struct pcb_model *m, const struct pcb_clock *clk, int cpu,
			      const double *bare, const double *nopreempt,
			      const struct pcb_design_result *res)
{
	const struct pcb_fn_result *fr = &res->fn[m->calib->fn];
	double h = pcb_mean(fr->run_mean, res->runs), hs = pcb_stddev(fr->run_mean, res->runs);
	double b = pcb_mean(bare, 6), bs = pcb_stddev(bare, 6);
	double sub = pcb_mean(fr->run_sub_mean, res->runs);
	char text[512];

	printf("calibration on CPU %d, TSC %.1f MHz, step %llu, empty region %.2f cycles\n\n",
	       cpu, clk->tsc_hz / 1e6, (unsigned long long)clk->step,
	       clk->overhead[PCB_TIMING_BATCH]);
	snprintf(text, sizeof(text), "%s, %s", m->fn_name[m->calib->fn], m->calib->design);
	printf("%-44s%-16s%-10s%s\n", text, "cycles/call", "STDDEV", "- bare");
	printf("%-44s%-16.2f%.2f\n", "bare loop (medians of 171 x 2^14 calls):", b, bs);
	if (fr->method == PCB_METHOD_DIFFERENCED) {
		printf("%-44s%-16.2f%-10.2f%+.2f\n", "harness, 64 and 32 calls differenced:", h, hs,
		       h - b);
		printf("%-44s%-16.2f%-10.2f%+.2f\n", "harness, empty region subtracted:", sub,
		       pcb_stddev(fr->run_sub_mean, res->runs), sub - b);
		printf("\nfixed cost of a region, from the differencing: %.2f cycles "
		       "(empty region %.2f)\n", pcb_mean(fr->run_fixed, res->runs),
		       res->overhead);
	} else {
		printf("%-44s%-16.2f%-10.2f%+.2f\n", "harness, empty region subtracted:", h, hs,
		       h - b);
	}
	/* run.irq_model = kernel's stand-in for cli and sti, in the same loop */
	printf("\n%-44s%-16.2f%-10.2f%+.2f\n", "bare loop without the preempt count pair:",
	       pcb_mean(nopreempt, 6), pcb_stddev(nopreempt, 6), pcb_mean(nopreempt, 6) - b);
	printf("the pair (incl, decl; je), run.irq_model = kernel's stand-in for cli and sti, "
	       "costs %.2f cycles a call\n", b - pcb_mean(nopreempt, 6));
}

int cmd_calibrate(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "runs", required_argument, NULL, 'r' },
		{ "keep-aslr", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* the model whose bare loop stands beside the harness */
	const struct pcb_model *m = pcb_models[0];
	const char *cpu_arg = NULL, *runs_arg = "6";
	struct pcb_design_result res;
	struct pcb_scenario sc;
	struct pcb_topo topo;
	struct pcb_clock clk;
	double bare[6], nopreempt[6], overhead;
	char text[512];
	int c, cpu, rc, keep_aslr = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': cpu_arg = optarg; break;
		case 'r': runs_arg = optarg; break;
		case 'A': keep_aslr = 1; break;
		case 'h': calibrate_help(stdout); return 0;
		default: die_usage("calibrate: see pcpbench calibrate --help");
		}
	}
	if (optind < argc)
		die_usage("calibrate: unknown argument '%s'", argv[optind]);
	pcb_aslr_reexec(keep_aslr);
	load_topology(&topo, ctx->topo_spec);
	if (topo.synthetic) {
		pcb_topo_destroy(&topo);
		die_usage("calibrate: the topology is not this machine's; it cannot run");
	}
	if (cpu_text(&topo, cpu_arg, text, sizeof(text)) < 0) {
		pcb_topo_destroy(&topo);
		fprintf(stderr, "%s: calibrate: out of memory\n", prog);
		return EXIT_RUNTIME;
	}
	cpu = parse_cpu(&topo, text);
	load_scenario(&sc, m, &topo, runs_arg, text);
	if (pcb_topo_pin(&topo, (unsigned int)cpu) < 0)
		fprintf(stderr, "%s: note: could not pin the bare loop to CPU %d\n", prog, cpu);
	pcb_clock_calibrate(&clk, CALIBRATE_MS);
	overhead = clk.overhead[PCB_TIMING_BATCH];
	m->calib->bare(1 << 14, overhead, true);	/* warm */
	m->calib->bare(1 << 14, overhead, false);
	/* the two loops in turn, so a change of the machine's speed falls on both */
	for (int i = 0; i < 6; i++) {
		bare[i] = bare_median(m, overhead, true);
		nopreempt[i] = bare_median(m, overhead, false);
	}

	rc = run_harness(&topo, &clk, &sc, &res);
	if (rc == 0)
		print_calibration(m, &clk, cpu, bare, nopreempt, &res);
	pcb_design_result_free(&res);
	pcb_scenario_free(&sc);
	pcb_topo_destroy(&topo);
	return rc;
}
