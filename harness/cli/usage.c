/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "../model.h"
#include "../model_output.h"
#include "cli.h"

/* the model whose bare loop calibrate sets beside the harness (cmd_calibrate.c's) */
static const struct pcb_model *calib_model(void)
{
	return pcb_models[0];
}

static const char main_usage_head[] =
	"usage: pcpbench [--topology SPEC] COMMAND [ARGS]\n"
	"\n"
	"Measures what per-CPU cache lock designs cost: userspace models of the\n"
	"kernel's per-CPU caches run on pinned threads, timed with\n"
	"rdtsc_ordered(), printed as cover-letter tables.\n"
	"\n"
	"commands:\n";

/* after the table of commands */
static const char main_usage_tail[] =
	"\n"
	"options:\n"
	"  --topology SPEC          an hwloc XML file or synthetic description such as\n"
	"                           \"numa:8 core:16 pu:1\" instead of this machine\n"
	"                           (also PCPBENCH_TOPOLOGY); plan and inspect only\n"
	"  -h, --help               this help; COMMAND --help for a command's\n"
	"  -V, --version            the version\n"
	"\n"
	"exit status: 0 success, 1 runtime failure, 2 usage or scenario error\n";

/* a line a command of cli_cmds[], calibrate's with the calibrated row's kernel name */
void main_help(FILE *out)
{
	const struct pcb_model *m = calib_model();

	fputs(main_usage_head, out);
	for (const struct cli_cmd *c = cli_cmds; c->name; c++) {
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "%s%s%s", c->name, *c->args ? " " : "", c->args);
		fprintf(out, "  %-24s ", cmd);
		fprintf(out, c->summary, m->fn_name[m->calib->fn]);
		fputc('\n', out);
	}
	fputs(main_usage_tail, out);
}

const char run_usage[] =
	"usage: pcpbench run [SCENARIO.scn ...] [--runs N] [--quick] [--set SECTION.KEY=VALUE ...]\n"
	"                    [--events LIST] [--out DIR] [--dry-run] [--raw] [--keep-aslr]\n"
	"                    [--each-node | --node N] [--coordinator-node M] [--backend B]\n"
	"\n"
	"Runs each scenario's designs on pinned workers and prints the cover-letter\n"
	"tables to stdout; progress goes to stderr when it is a terminal. Each\n"
	"scenario writes DIR/<scenario>-<UTC timestamp>/ with result.json,\n"
	"functions.csv, runs.csv, histogram.csv, counters.csv, drains.csv,\n"
	"contention.csv and tables.txt.\n"
	"\n"
	"  --runs N        repetitions (overrides run.runs)\n"
	"  --quick         smoke run: 2 runs, a tenth of the duration and warm-up\n"
	"  --set K=V       override a scenario key, e.g. --set run.timing=call\n"
	"  --events LIST   perf events by libpfm4 name (overrides counters.events),\n"
	"                  e.g. --events cycles,instructions,task-clock,context-switches\n"
	"  --out DIR       where results go (default results/)\n"
	"  --dry-run       check the scenarios and print the plan; run nothing\n"
	"  --raw           read the result raw (timer included), in every output\n"
	"  --keep-aslr     keep address randomization: by default run re-executes\n"
	"                  itself once without it (personality ADDR_NO_RANDOMIZE)\n"
	"  --each-node     run each scenario once per NUMA node: workers are\n"
	"                  cpus.workers on that node, less the coordinator's CPU,\n"
	"                  which is on another node; DIR/<scenario>-<UTC timestamp>/\n"
	"                  gets node<N>/ (a result each), nodes.csv and nodes.txt\n"
	"                  (one row per node and function, one column per design).\n"
	"                  On a one-node machine: one ordinary run, with a note\n"
	"  --node N        the same on node N alone\n"
	"  --coordinator-node M\n"
	"                  the coordinator's node (default: node 0, node 1 for\n"
	"                  node 0's own run); on M's own run, another node\n"
	"  --backend B     userspace (default) or kernel (sets run.backend): the\n"
	"                  designs run in pcpbench.ko with the kernel's own locks,\n"
	"                  interrupts and workqueue (root; see docs/kernel.md)\n"
	"\n"
	"Every scenario is checked before anything runs: an error prints\n"
	"FILE:LINE: section.key: what is wrong, and exits 2. Each setting of the\n"
	"machine that makes figures untrustworthy (see pcpbench check) is warned of\n"
	"on stderr and recorded in result.json's context.\n";

const char reproduce_usage[] =
	"usage: pcpbench reproduce [--quick] [--dry-run] [--out DIR] [--claims FILE] [--keep-aslr]\n"
	"                          [--backend B] [--with DIR] [--set SECTION.KEY=VALUE ...]\n"
	"\n"
	"Runs the scenario of every claim in the seeds' data file (default\n"
	"scenarios/seeds.ini) once, as run does, and prints one table: the claim,\n"
	"the seed's figure with its seed file, line and machine, this machine's\n"
	"figure from the scenario's result.json, whether its direction agrees, and\n"
	"the result directory. The table is also written to\n"
	"DIR/reproduce-<UTC timestamp>/ (reproduce.txt, reproduce.csv). The time it\n"
	"will take is printed first.\n"
	"\n"
	"  --quick         each scenario's quick mode: 2 runs, a tenth of the duration\n"
	"  --dry-run       check the claims and scenarios, list what would run\n"
	"  --out DIR       where results go (default results/)\n"
	"  --claims FILE   another data file in the format of scenarios/seeds.ini\n"
	"  --keep-aslr     keep address randomization (as run --keep-aslr)\n"
	"  --backend B     userspace (default), kernel or instrumented (as run\n"
	"                  --backend). kernel: each scenario's designs run in\n"
	"                  pcpbench.ko; a design it refuses is not run, and a claim\n"
	"                  naming it, or a scenario it refuses whole, is skipped: n/a,\n"
	"                  with the refusal as run prints it. instrumented: the claims\n"
	"                  of scenarios/seeds-kernel.ini, on the booted kernel's own\n"
	"                  code (docs/kernel.md); a claim naming another kernel's\n"
	"                  design is n/a unless --with brings its result\n"
	"  --set S.K=V     a key set in every scenario, as run --set (run.ops=200,\n"
	"                  say, for the instrumented backend in a TCG guest)\n"
	"  --with DIR      with --backend instrumented: the results of an earlier\n"
	"                  reproduce --out DIR on another kernel (upstream's, say),\n"
	"                  each merged into this kernel's result of the same scenario\n"
	"                  before the claims are judged\n"
	"\n"
	"A bad data file, an unknown scenario or a selector naming a design the\n"
	"scenario does not run prints FILE:LINE: [claim] key: what is wrong, and\n"
	"exits 2 before anything runs.\n";

const char report_usage[] =
	"usage: pcpbench report [--raw] [--format F] RESULT.json|RESULT-DIR [RESULT ...]\n"
	"\n"
	"Prints the tables of a saved result, exactly as the run printed them.\n"
	"Several results of one scenario and its settings, each of designs of\n"
	"its own (the instrumented backend's: one kernel each), are reported as\n"
	"one, the first's design the baseline: upstream's and a series'\n"
	"kernels give the seed's table with its Patched - Upstream block.\n"
	"\n"
	"  --raw       read a net result raw, in every format: the means with the\n"
	"              timer's own empty region included, as in-kernel\n"
	"              instrumentation reports them (seed 000's tables), and the Diff\n"
	"              blocks against those\n"
	"  --format F  one of the formats below (default text)\n"
	"\n"
	"formats:\n";

const char compare_usage[] =
	"usage: pcpbench compare [--format F] A B [C ...]\n"
	"\n"
	"Compares saved results (result directories or result.json files: two\n"
	"kernels, two machines, two builds) of one model. Rows are matched by\n"
	"design, configuration and function; each result's mean is set against the\n"
	"first result's (A), every one read as A is (raw or net), as Diff (cycles)\n"
	"and Diff % with its interval, marked *-1.35%* where that excludes 0: Welch's\n"
	"test on the run means, Holm's step-down over every difference, each\n"
	"interval at the confidence its row was tested at. What differs in the\n"
	"results' machines, means and scenario settings is printed first (context\n"
	"differs: KEY: A | B); a row one result lacks is listed as missing.\n"
	"\n"
	"A path that is not a result, a result.json cut short or of another format,\n"
	"or results of different models: a message naming the file, exit 2, and\n"
	"nothing on stdout.\n"
	"\n"
	"  --format F  one of the formats below (default text)\n"
	"\n"
	"formats:\n";

static const char plot_usage_head[] =
	"usage: pcpbench plot [RESULT ...]\n"
	"       pcpbench plot --compare FILE.csv [--out DIR]\n"
	"\n"
	"Draws the figures of each RESULT (a directory run wrote, its result.json,\n"
	"or a directory holding such directories; default results/) with gnuplot,\n"
	"as SVG and PNG, into RESULT/plots/ with the data files and an index.html;\n"
	"a directory of results gets an index.html over all of them:\n"
	"\n"
	"  functions          cycles per call, a bar a design, error bars the stddev\n"
	"                     of the run means\n"
	"  drains             drain cost against the caches walked, log-log, a line\n"
	"                     a design\n"
	"  contention-KEY     contended acquisitions per drain against a swept\n"
	"                     drain.rate_hz or workload.think_ns\n"
	"  interruptions      the isolated worker's interruptions per latency\n"
	"                     bucket, log-scaled, a line a design\n";

/* after the figures the models declare */
static const char plot_usage_tail[] =
	"  heatmap-FUNCTION   node x design, cycles per call (a directory with a\n"
	"                     nodes.csv; its node<N>/ results are plotted too)\n"
	"\n"
	"A figure a result has no data for is left out.\n"
	"\n"
	"  --compare FILE.csv  compare's CSV: Diff % a function, a bar a design and\n"
	"                      result, * on the significant ones, as DIR/NAME.svg\n"
	"                      and .png (data in NAME.dat) for FILE NAME.csv\n"
	"  --out DIR           where --compare writes (default FILE's directory)\n"
	"\n"
	"Needs gnuplot (PCPBENCH_GNUPLOT names another) and the scripts of plots/\n"
	"(PCPBENCH_PLOTS names the directory). Every input is checked before\n"
	"anything is written: a missing or broken result exits 2.\n";

void plot_help(FILE *out)
{
	fputs(plot_usage_head, out);
	for (int i = 0; pcb_models[i]; i++)
		for (const struct pcb_model_plot *p = pcb_model_output(pcb_models[i]).plots;
		     p && p->name; p++) {
			const char *h = p->help;

			fprintf(out, "  %-19s", p->name);
			while (*h) {
				size_t n = strcspn(h, "\n");

				fprintf(out, "%*s%.*s\n", h == p->help ? 0 : 21, "", (int)n, h);
				h += n + (h[n] == '\n');
			}
		}
	fputs(plot_usage_tail, out);
}

const char info_usage[] =
	"usage: pcpbench info [--json]\n"
	"\n"
	"Prints the machine: CPU model, CPUs, cores, NUMA nodes and their CPUs,\n"
	"isolated and nohz_full CPUs, kernel, TSC frequency (calibrated and the\n"
	"kernel's), TSC step, the overhead of an empty timed region in each timing\n"
	"mode and what is left of it after subtraction, and which perf events open.\n";

const char list_usage[] =
	"usage: pcpbench list\n"
	"\n"
	"Lists models with their designs, workloads and keys, and the harness's keys.\n";

static const char calibrate_usage[] =
	"usage: pcpbench calibrate [--cpu N] [--runs N] [--keep-aslr]\n"
	"\n"
	"Runs %s()'s work under %s (the %s model) as a bare\n"
	"loop with no harness around it, then the harness's batch-mode figure for\n"
	"the same call on the same CPU, differenced (regions of 64 and 32 calls)\n"
	"and with the empty region subtracted, and prints the three with each\n"
	"one's distance from the bare loop. Default CPU: the last housekeeping CPU.\n"
	"--keep-aslr keeps address randomization (as run does).\n";

void calibrate_help(FILE *out)
{
	const struct pcb_model *m = calib_model();

	fprintf(out, calibrate_usage, m->fn_name[m->calib->fn], m->calib->design, m->name);
}

const char cpus_usage[] =
	"usage: pcpbench cpus [--isolated LIST] EXPR ...\n"
	"\n"
	"Resolves CPU-set expressions (all, node:N, isolated, housekeeping, N, N-M,\n"
	"!term) on this topology, or on --topology, and prints each CPU list.\n";

const char check_usage[] =
	"usage: pcpbench check [--cpus EXPR]\n"
	"\n"
	"Reads the machine's state that moves figures and prints each setting, its\n"
	"value, a verdict (ok, note, unknown, bad) and what it does to a figure:\n"
	"the hypervisor (CPUID), each worker's cpufreq driver, governor and\n"
	"frequency range, boost, each worker's SMT siblings and whether one is a\n"
	"worker or busy (/proc/stat over 200 ms), isolcpus, nohz_full and rcu_nocbs\n"
	"of the workers, ASLR, transparent huge pages, perf_event_paranoid and the\n"
	"TSC step. A file that is absent (a VM has no cpufreq) makes its setting\n"
	"unknown, with a note naming the file.\n"
	"\n"
	"  --cpus EXPR     the worker CPUs, a CPU-set expression as cpus.workers\n"
	"                  takes (default all,!0, its default)\n"
	"\n"
	"PCPBENCH_SYSROOT names a directory read in place of / (a fixture tree);\n"
	"PCPBENCH_HYPERVISOR (none, or a vendor such as KVMKVMKVM) stands in for\n"
	"CPUID, which is not under it.\n"
	"\n"
	"exit status: 1 where a setting makes figures untrustworthy: a governor\n"
	"other than performance with min != max, boost on, an SMT sibling of a\n"
	"worker that is a worker or busy, ASLR that run cannot turn off; 0\n"
	"otherwise; 2 on a usage error or a PCPBENCH_SYSROOT that is no directory.\n";
