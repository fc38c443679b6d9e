/* SPDX-License-Identifier: MIT */
/*
 * run: every scenario and every configuration of its [sweep] checked
 * first, then each design run, the tables printed and the result written.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../machine/aslr.h"
#include "../machine/kmod.h"
#include "../output/result.h"
#include "../run/runner.h"
#include "cli.h"
#include "../session/groups.h"
#include "../session/nodes.h"
#include "../session/session.h"

/* one configuration's plan; a step of a [sweep] (swept) says its time is the step's */
static void print_plan(const struct pcb_topo *topo, const struct pcb_scenario *sc, int swept)
{
	unsigned int cpu;
	char buf[1024];

	printf("scenario %s (%s)%s%s\n", sc->name, sc->file, sc->label[0] ? ": " : "", sc->label);
	for (int d = 0; d < sc->nr_designs; d++) {
		buf[0] = 0;
		if (sc->backend == PCB_BACKEND_INSTRUMENTED) {
			printf("  design %-14s the booted kernel's own mm/memcontrol.c: %s (%s), "
			       "%s a %s\n", sc->design[d]->name, sc->instr.variant,
			       sc->instr.release, pcb_instr_lock_field(&sc->instr), sc->instr.stock_lock);
			continue;
		}
		if (sc->model->config.describe_design)
			sc->model->config.describe_design(sc->config, sc->design[d], buf,
							  sizeof(buf));
		printf("  design %-14s %s%s%s\n", sc->design[d]->name, sc->design[d]->follows,
		       buf[0] ? "; " : "", buf);
	}
	pcb_model_describe(sc->model, sc->config, buf, sizeof(buf));
	if (sc->backend == PCB_BACKEND_INSTRUMENTED)
		printf("  workload: seed 000's, cat /proc/interrupts in a loop on each worker CPU, "
		       "in a memory cgroup\n");
	else
		printf("  model %s: %s\n", sc->model->name, buf);
	printf("  timing %s, %d runs of %s%s, warm-up %ld ms\n",
	       pcb_timing_name((enum pcb_timing)sc->timing), sc->runs,
	       sc->ops ? "an op count" : sc->value[K_RUN_DURATION_MS], sc->ops ? "" : " ms",
	       sc->warmup_ms);
	if (sc->runs_auto)
		printf("  runs auto: up to %d, until every row's 95%% interval is within %g%% of "
		       "its mean\n", sc->max_runs, sc->ci_target);
	pcb_cpuset_format(sc->workers, buf, sizeof(buf));
	printf("  workers: %d on CPUs %s\n", hwloc_bitmap_weight(sc->workers), buf);
	hwloc_bitmap_foreach_begin(cpu, sc->workers) {
		const struct pcb_topo_cpu *c = pcb_topo_cpu(topo, cpu);

		printf("    cpu %-5u node %-3d core %d%s\n", cpu, c ? c->node : -1, c ? c->core : -1,
		       hwloc_bitmap_isset(sc->isolated, cpu) ? "  isolated" : "");
	} hwloc_bitmap_foreach_end();
	pcb_cpuset_format(sc->isolated, buf, sizeof(buf));
	printf("  isolated CPUs: %s (%s)\n", buf, topo->isolated_source);
	printf("  estimated time: %.0f s%s\n", scenario_seconds(sc), swept ? " (this step)" : "");
}

/* a node number on the command line: a non-negative integer */
static int parse_node(const char *opt, const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (!*v || *end || errno || n < 0 || n > INT_MAX)
		die_usage("run: %s '%s': not a node number", opt, v);
	return (int)n;
}

/* --node and --coordinator-node name nodes with CPUs here */
static void check_nodes(const struct pcb_topo *topo, const struct node_opts *no)
{
	const int want[2] = { no->node, no->coord_node };
	const char *const opt[2] = { "--node", "--coordinator-node" };
	char nodes[512] = "";

	if (no->coord_node >= 0 && !no->each && no->node < 0)
		die_usage("run: --coordinator-node needs --each-node or --node");
	if (no->each && no->node >= 0)
		die_usage("run: --each-node and --node: choose one");
	for (int i = 0; i < topo->nr_nodes; i++)
		if (!hwloc_bitmap_iszero(topo->node[i].cpus))
			snprintf(nodes + strlen(nodes), sizeof(nodes) - strlen(nodes), "%s%u",
				 nodes[0] ? "," : "", topo->node[i].os);
	for (int k = 0; k < 2; k++) {
		int found = want[k] < 0;

		for (int i = 0; i < topo->nr_nodes && !found; i++)
			found = (int)topo->node[i].os == want[k] &&
				!hwloc_bitmap_iszero(topo->node[i].cpus);
		if (!found)
			die_usage("run: %s %d: no such node with CPUs on %s (nodes %s)", opt[k],
				  want[k], topo->source, nodes);
	}
}

static void calibrate(struct pcb_clock *clk)
{
	pcb_clock_calibrate(clk, CALIBRATE_MS);
	if (clk->kernel_tsc_hz > 0 && fabs(clk->tsc_hz / clk->kernel_tsc_hz - 1) > 0.01)
		fprintf(stderr, "%s: note: calibrated TSC %.1f MHz differs from the kernel's %.1f MHz "
			"by more than 1%%\n", prog, clk->tsc_hz / 1e6, clk->kernel_tsc_hz / 1e6);
}

/* run's command line: what every scenario is asked, and how they are run */
struct run_args {
	struct run_opts o;
	struct node_opts no;
	struct pcb_table_opts tables;
	const char *out;
	int dry, keep_aslr;
	char backend[64];		/* --backend's, as a --set */
};

/* run's options into a, the scenarios left from optind on; 1 if it printed --help */
static int parse_args(int argc, char **argv, struct run_args *a)
{
	static const struct option opts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "quick", no_argument, NULL, 'q' },
		{ "set", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "events", required_argument, NULL, 'e' },
		{ "raw", no_argument, NULL, 'R' },
		{ "each-node", no_argument, NULL, 'E' },
		{ "node", required_argument, NULL, 'N' },
		{ "coordinator-node", required_argument, NULL, 'C' },
		{ "keep-aslr", no_argument, NULL, 'A' },
		{ "backend", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': a->o.runs = optarg; break;
		case 'q': a->o.quick = 1; break;
		case 's': a->o.sets[a->o.nsets++] = optarg; break;
		case 'o': a->out = optarg; break;
		case 'n': a->dry = 1; break;
		case 'e': a->o.events = optarg; break;
		case 'R': a->tables.raw = 1; break;
		case 'E': a->no.each = 1; break;
		case 'N': a->no.node = parse_node("--node", optarg); break;
		case 'C': a->no.coord_node = parse_node("--coordinator-node", optarg); break;
		case 'A': a->keep_aslr = 1; break;
		case 'B':
			snprintf(a->backend, sizeof(a->backend), "run.backend=%.40s", optarg);
			a->o.sets[a->o.nsets++] = a->backend;
			break;
		case 'h': fputs(run_usage, stdout); return 1;
		default: die_usage("run: see pcpbench run --help");
		}
	}
	return 0;
}

/* the nsc scenarios named, else the default one, each with every configuration of its [sweep] */
static struct scn_group *load_groups(char **names, int nsc, const struct run_opts *o,
				     struct pcb_topo *topo)
{
	struct scn_group *grp = calloc((size_t)(nsc ? nsc : 1), sizeof(*grp));
	char err[1024], path[PATH_MAX];

	for (int i = 0; i < (nsc ? nsc : 1); i++) {
		const char *file = nsc ? names[i] : scenario_path("default", path, sizeof(path));

		if (group_load(&grp[i], file, o, topo, err, sizeof(err)) < 0)
			die_usage("%s", err);
	}
	return grp;
}

/* each scenario once a node: every node's configurations checked, then the runs */
static int run_by_node(const struct session *ss, const struct run_args *a,
		       struct scn_group *grp, int nsc)
{
	struct session run = *ss;
	struct pcb_clock clk;
	double estimate = 0;
	char err[1024];
	int rc = 0;

	if (!a->dry && ss->topo->synthetic)
		die_usage("run: the topology is not this machine's (%s): workers cannot be "
			  "pinned to its CPUs; use --dry-run to see the plan", ss->topo->source);
	/* every node's configurations are checked before the first run */
	for (int i = 0; i < nsc; i++) {
		rc = nodes_run(ss, grp[i].cfg[0].file, &a->o, &a->no, 1, &estimate);
		if (rc)
			return rc;
	}
	if (a->dry)
		return 0;
	if (session_prepare_out(ss->out, err, sizeof(err)) < 0)
		die_usage("%s", err);
	session_catch_signals();
	calibrate(&clk);
	run.clk = &clk;
	fprintf(stderr, "%s: each node: about %.0f s\n", prog, estimate);
	for (int i = 0; i < nsc && rc == 0 && !session_interrupted(); i++) {
		estimate = 0;
		rc = nodes_run(&run, grp[i].cfg[0].file, &a->o, &a->no, 0, &estimate);
	}
	return rc;
}

/* each scenario in turn, until one fails or a stop is asked for */
static int run_groups(const struct session *ss, struct scn_group *grp, int nsc)
{
	struct session run = *ss;
	struct progress pg = { .node = -1 };
	struct pcb_clock clk;
	char err[1024];
	int rc = 0;

	if (ss->topo->synthetic)
		die_usage("run: the topology is not this machine's (%s): workers cannot be "
			  "pinned to its CPUs; use --dry-run to see the plan", ss->topo->source);

	if (session_prepare_out(ss->out, err, sizeof(err)) < 0)
		die_usage("%s", err);
	session_catch_signals();
	calibrate(&clk);
	run.clk = &clk;

	pg.tty = isatty(2);
	pg.start = now_s();
	pg.estimate = 0;
	for (int i = 0; i < nsc; i++)
		pg.estimate += group_seconds(&grp[i]);

	for (int i = 0; i < nsc && rc == 0; i++) {
		rc = run_scenario(&run, grp[i].cfg, grp[i].n, &pg);
		if (i + 1 < nsc && !session_interrupted())
			printf("\n");
		if (session_interrupted())
			break;
	}
	return rc;
}

/* run.backend = kernel in any configuration: pcpbench.ko loaded for the session */
static void load_module(struct scn_group *grp, int nsc, struct pcb_kmod *k)
{
	for (int i = 0; i < nsc; i++)
		for (int c = 0; c < grp[i].n; c++)
			session_load_module(&grp[i].cfg[c], k, "run");
}

int cmd_run(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct pcb_kmod kmod = { .loaded = 0 };
	struct run_args a = { .out = "results", .no = { .node = -1, .coord_node = -1 } };
	struct session_once once = { .held = NULL };
	struct session ss = { .command = ctx->command, .tables = &a.tables, .once = &once };
	int nsc, rc = 0, by_node;
	struct scn_group *grp;
	struct pcb_topo topo;

	a.o.sets = calloc((size_t)argc + 1, sizeof(char *));
	if (parse_args(argc, argv, &a)) {
		free(a.o.sets);
		return 0;
	}
	pcb_aslr_reexec(a.keep_aslr);
	nsc = argc - optind;
	load_topology(&topo, ctx->topo_spec);
	check_nodes(&topo, &a.no);
	by_node = (a.no.each || a.no.node >= 0) && nodes_with_cpus(&topo) > 1;
	if ((a.no.each || a.no.node >= 0) && !by_node)
		fprintf(stderr, "%s: note: %s has one NUMA node: one run, as without %s\n", prog,
			topo.source, a.no.each ? "--each-node" : "--node");

	/* every scenario, and every configuration its [sweep] makes, is checked first */
	grp = load_groups(argv + optind, nsc, &a.o, &topo);
	if (nsc == 0)
		nsc = 1;

	ss.topo = &topo;
	ss.out = a.out;
	if (!a.dry && !topo.synthetic)
		load_module(grp, nsc, &kmod);
	if (by_node) {
		rc = run_by_node(&ss, &a, grp, nsc);
	} else if (a.dry) {
		for (int i = 0; i < nsc; i++) {
			for (int c = 0; c < grp[i].n; c++)
				print_plan(&topo, &grp[i].cfg[c], grp[i].n > 1);
			if (grp[i].n > 1)
				printf("scenario %s: %d sweep steps, estimated time: %.0f s\n",
				       grp[i].cfg[0].name, grp[i].n, group_seconds(&grp[i]));
		}
	} else {
		rc = run_groups(&ss, grp, nsc);
	}
	pcb_kmod_unload(&kmod);
	for (int i = 0; i < nsc; i++)
		group_free(&grp[i]);
	free(grp);
	free(a.o.sets);
	session_once_free(&once);
	pcb_topo_destroy(&topo);
	return rc;
}
