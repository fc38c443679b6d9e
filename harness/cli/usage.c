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
	"  reproduce [--quick]      every seed's claim on this machine, in one table\n"
	"  report RESULT.json       print a saved result's tables again\n"
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
	"                    [--each-node | --node N] [--coordinator-node M]\n"
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
	"\n"
	"Every scenario is checked before anything runs: an error prints\n"
	"FILE:LINE: section.key: what is wrong, and exits 2.\n";

const char reproduce_usage[] =
	"usage: pcpbench reproduce [--quick] [--dry-run] [--out DIR] [--claims FILE]\n"
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
	"\n"
	"A bad data file, an unknown scenario or a selector naming a design the\n"
	"scenario does not run prints FILE:LINE: [claim] key: what is wrong, and\n"
	"exits 2 before anything runs.\n";

const char report_usage[] =
	"usage: pcpbench report [--raw] RESULT.json|RESULT-DIR\n"
	"\n"
	"Prints the tables of a saved result, exactly as the run printed them.\n"
	"\n"
	"  --raw   means with the timer's own empty region included, as in-kernel\n"
	"          instrumentation reports them (seed 000's tables), and the Diff\n"
	"          blocks against those\n";

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
