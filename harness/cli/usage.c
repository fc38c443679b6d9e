/* SPDX-License-Identifier: MIT */
#include "cli.h"

const char main_usage[] =
	"usage: pcpbench [--topology SPEC] COMMAND [ARGS]\n"
	"\n"
	"Measures what per-CPU cache lock designs cost: userspace models of the\n"
	"kernel's per-CPU caches run on pinned threads, timed with\n"
	"rdtsc_ordered(), printed as cover-letter tables.\n"
	"\n"
	"commands:\n"
	"  run [SCENARIO.scn ...]   run scenarios (default scenarios/default.scn)\n"
	"  report RESULT.json       print a saved result's tables again\n"
	"  plot [RESULT ...]        draw every result's figures with gnuplot\n"
	"  info [--json]            the machine, as a cover letter's Test System\n"
	"  list                     models, designs, workloads and scenario keys\n"
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

const char run_usage[] =
	"usage: pcpbench run [SCENARIO.scn ...] [--runs N] [--quick] [--set SECTION.KEY=VALUE ...]\n"
	"                    [--events LIST] [--out DIR] [--dry-run] [--raw]\n"
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
	"  --raw           print raw means (timer included); result.json has both\n"
	"\n"
	"Every scenario is checked before anything runs: an error prints\n"
	"FILE:LINE: section.key: what is wrong, and exits 2.\n";

const char report_usage[] =
	"usage: pcpbench report [--raw] RESULT.json|RESULT-DIR\n"
	"\n"
	"Prints the tables of a saved result, exactly as the run printed them.\n"
	"\n"
	"  --raw   means with the timer's own empty region included, as in-kernel\n"
	"          instrumentation reports them (seed 000's tables), and the Diff\n"
	"          blocks against those\n";

const char plot_usage[] =
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
	"  drains             drain cost against stocks, log-log, a line a design\n"
	"  contention-KEY     contended acquisitions per drain against a swept\n"
	"                     drain.rate_hz or workload.think_ns\n"
	"  interruptions      the isolated worker's interruptions per latency\n"
	"                     bucket, log-scaled, a line a design\n"
	"  multi-memcg        Diff % against the baseline configuration, stock hit\n"
	"                     rate and page_counter atomics per charge, against a\n"
	"                     swept workload.memcgs\n"
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

const char calibrate_usage[] =
	"usage: pcpbench calibrate [--cpu N] [--runs N]\n"
	"\n"
	"Runs consume_stock()'s work under local_lock (the memcg model) as a bare\n"
	"loop with no harness around it, then the harness's batch-mode figure for\n"
	"the same call on the same CPU, and prints both. Default CPU: the last\n"
	"housekeeping CPU.\n";

const char cpus_usage[] =
	"usage: pcpbench cpus [--isolated LIST] EXPR ...\n"
	"\n"
	"Resolves CPU-set expressions (all, node:N, isolated, housekeeping, N, N-M,\n"
	"!term) on this topology, or on --topology, and prints each CPU list.\n";
