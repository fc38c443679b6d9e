/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

static const char *const timings[] = { "call", "batch", NULL };
/* enum pcb_timer */
static const char *const timers[] = { "harness", "kernel", NULL };
/* run.work_delivery: enum pcb_delivery up to PCB_DELIVER_POLL (idle is the virtual CPUs') */
static const char *const deliveries[] = { "kworker", "signal", "poll", NULL };
static const char *const arrivals[] = { "periodic", "poisson", NULL };
const char *const pcb_order_name[] = { "interleaved", "blocked", "shuffled", NULL };
const char *const pcb_backend_name[] = { "userspace", "kernel", "instrumented", NULL };
static const char *const yesno[] = { "no", "yes", NULL };
static const char *const offon[] = { "off", "on", NULL };

#define SC struct pcb_scenario

const struct pcb_key pcb_harness_keys[K_NR] = {
	[K_SCENARIO_NAME] = { .section = "scenario", .name = "name", .def = "",
		.help = "name of the result directory and the tables (default: the file name)",
		.type = PCB_KEY_SPECIAL, .no_sweep = true },
	[K_SCENARIO_DESCRIPTION] = { .section = "scenario", .name = "description", .def = "",
		.help = "one line saying what the scenario shows", .type = PCB_KEY_STRING,
		.no_sweep = true },
	[K_RUN_MODEL] = { .section = "run", .name = "model", .def = "memcg",
		.help = "the kernel model the designs belong to (`pcpbench list` names them)",
		.type = PCB_KEY_SPECIAL, .no_sweep = true },
	[K_RUN_DESIGNS] = PCB_KEY_SPECIAL_KEY("run", "designs", "local_lock, spinlock",
		"designs to compare, the first is the baseline of the Diff block"),
	[K_RUN_BASELINE] = { .section = "run", .name = "baseline", .def = "",
		.help = "the design every other is compared with, at the same configuration "
		"(default: the first of run.designs)", .type = PCB_KEY_SPECIAL, .no_sweep = true },
	[K_RUN_ORDER] = { .section = "run", .name = "order", .def = "interleaved",
		.help = "the order of the runs: each round over every design and configuration "
		"in turn, every run of one before the next, or each round shuffled by "
		"workload.seed", .type = PCB_KEY_CHOICE, .choices = pcb_order_name,
		PCB_FIELD(SC, order), .no_sweep = true },
	[K_RUN_TIMING] = PCB_KEY_CHOICE_FIELD("run", "timing", "batch", timings, SC, timing,
		"call: every call timed; batch: many calls between two reads"),
	/* not swept: a result's means are raw (timer kernel) or net as a whole */
	[K_RUN_TIMER] = { .section = "run", .name = "timer", .def = "harness",
		.help = "the timed region's reads: harness (lfence; rdtsc ... rdtscp; lfence) or "
		"kernel (rdtsc_ordered() at both ends, as the kernel picks it on this CPU; seed "
		"000's)", .type = PCB_KEY_CHOICE, .choices = timers, PCB_FIELD(SC, timer),
		.no_sweep = true },
	[K_RUN_RUNS] = PCB_KEY_SPECIAL_KEY("run", "runs", "6",
		"repetitions, 1..1000, or auto: runs added until every row's 95% interval is "
		"within run.ci_target, as the Phoronix Test Suite does; a row is the mean of the "
		"run means"),
	[K_RUN_MAX_RUNS] = { .section = "run", .name = "max_runs", .def = "30",
		.help = "run.runs = auto: at most this many runs of a design and configuration",
		.type = PCB_KEY_INT, .min = PCB_AUTO_MIN_RUNS, .max = 1000,
		PCB_FIELD(SC, max_runs), .no_sweep = true },
	[K_RUN_CI_TARGET] = { .section = "run", .name = "ci_target", .def = "1",
		.help = "run.runs = auto: the 95% confidence half-width (Student's t) every row "
		"must reach, percent of its mean", .type = PCB_KEY_DOUBLE, .dmin = 0.01,
		.dmax = 100, PCB_FIELD(SC, ci_target), .no_sweep = true },
	[K_RUN_MAX_CV] = { .section = "run", .name = "max_cv", .def = "3",
		.help = "a row whose run means' coefficient of variation is above this percent "
		"is marked unstable (0: none is)", .type = PCB_KEY_DOUBLE, .dmin = 0,
		.dmax = 1000, PCB_FIELD(SC, max_cv), .no_sweep = true },
	[K_RUN_DURATION_MS] = PCB_KEY_INT_FIELD("run", "duration_ms", "2000", 1, 3600000, SC,
		duration_ms, "length of each measured run in ms"),
	[K_RUN_OPS] = PCB_KEY_INT_FIELD("run", "ops", "0", 0, 1L << 40, SC, ops,
		"if > 0, each worker stops after this many workload operations instead"),
	[K_RUN_WARMUP_MS] = PCB_KEY_INT_FIELD("run", "warmup_ms", "200", 0, 60000, SC, warmup_ms,
		"unmeasured warm-up before each run, ms"),
	[K_RUN_WORK_DELIVERY] = PCB_KEY_CHOICE_FIELD("run", "work_delivery", "kworker", deliveries,
		SC, delivery, "how drain work reaches its CPU in work-based designs"),
	[K_RUN_BACKEND] = { .section = "run", .name = "backend", .def = "userspace",
		.help = "where the designs run: userspace (threads and the models' stand-ins), "
		"kernel (a module with the kernel's own locks, interrupts and work queue; root) or "
		"instrumented (the booted kernel's own functions, timed by the instrument "
		"scripts/kernel.sh builds in; root)",
		.type = PCB_KEY_CHOICE, .choices = pcb_backend_name, PCB_FIELD(SC, backend),
		.no_sweep = true },
	[K_RUN_MODULE] = { .section = "run", .name = "module", .def = "auto",
		.help = "run.backend = kernel: the pcpbench.ko to load, or auto (one built for "
		"this kernel beside the program or in /lib/modules, else built with its headers)",
		.type = PCB_KEY_STRING, .no_sweep = true },
	[K_CPUS_WORKERS] = PCB_KEY_SPECIAL_KEY("cpus", "workers", "all,!0",
		"CPU set of the workers: all, node:N, isolated, housekeeping, N, N-M, !term"),
	[K_CPUS_ISOLATED] = PCB_KEY_SPECIAL_KEY("cpus", "isolated", "sysfs",
		"what cpu_is_isolated() says: sysfs, none, or a CPU list"),
	[K_WORKLOAD_SEED] = PCB_KEY_INT_FIELD("workload", "seed", "1", 0, LONG_MAX, SC, seed,
		"seed of each worker's operation sequence (mixed with its CPU)"),
	[K_DRAIN_RATE_HZ] = PCB_KEY_DOUBLE_FIELD("drain", "rate_hz", "0", 0, 1e6, SC,
		drain_rate_hz, "drains a second from the coordinator (0: none)"),
	[K_DRAIN_ARRIVALS] = PCB_KEY_CHOICE_FIELD("drain", "arrivals", "periodic", arrivals, SC,
		drain_poisson, "when they come"),
	[K_DRAIN_BURST] = PCB_KEY_INT_FIELD("drain", "burst", "1", 1, 1000, SC, drain_burst,
		"drains back to back at each arrival"),
	[K_DRAIN_COUNT] = PCB_KEY_INT_FIELD("drain", "count", "0", 0, 100000000, SC, drain_count,
		"if > 0, exactly this many drains a run, evenly spread (overrides rate_hz)"),
	[K_DRAIN_CPU] = PCB_KEY_SPECIAL_KEY("drain", "cpu", "auto",
		"the coordinator's CPU: auto (a housekeeping CPU without a worker, if any) or N"),
	[K_DRAIN_CACHES] = PCB_KEY_INT_FIELD("drain", "stocks", "0", 0, 1024, SC, drain_stocks,
		"caches holding charges at a drain, exactly: fewer than the workers runs the "
		"first this many of them, more adds charged idle virtual CPUs, and the "
		"drainer's own at drain.online (0: the workers')"),
	[K_DRAIN_ONLINE] = PCB_KEY_INT_FIELD("drain", "online", "128", 0, 1024, SC, drain_online,
		"caches a drain walks, as for_each_online_cpu(), the drainer's own included: "
		"at least the workers' and one, and drain.stocks; those beyond are idle and "
		"empty (default seed 000's 128 CPUs)"),
	[K_DRAIN_ISOLATED] = PCB_KEY_INT_FIELD("drain", "isolated", "12", 0, 100, SC,
		drain_isolated_pct, "percent of the virtual CPUs that are isolated, spread evenly "
		"(default seed 000's 16 of 128)"),
	[K_INTERRUPTS_THRESHOLD_NS] = PCB_KEY_INT_FIELD("interrupts", "threshold_ns", "0", 0,
		1000000000L, SC, gap_threshold_ns,
		"a gap between operations longer than this is an interruption "
		"(0: 2 us or 20 operations, whichever is longer)"),
	[K_COUNTERS_EVENTS] = PCB_KEY_SPECIAL_KEY("counters", "events", "",
		"perf events by libpfm4 name, read per thread at the start and end of each run"),
	[K_COUNTERS_KERNEL] = PCB_KEY_CHOICE_FIELD("counters", "kernel", "no", yesno, SC,
		counters_kernel, "count hardware events in kernel mode too, where permitted"),
	[K_COUNTERS_PER_CALL] = PCB_KEY_CHOICE_FIELD("counters", "per_call", "off", offon, SC,
		counters_per_call,
		"call timing: read the counters around every timed call, by rdpmc where possible"),
};

/*
 * Every key name once: the harness's, then each model's that no earlier
 * table declared. Models may declare the same key (run.workload): it is one
 * key with one value, which each model converts by its own declaration.
 */
static const struct pcb_key *all_keys[PCB_MAX_KEYS];
static int nr_all;

static void build_keys(void)
{
	if (nr_all)
		return;
	for (int k = 0; k < K_NR; k++)
		all_keys[nr_all++] = &pcb_harness_keys[k];
	for (int m = 0; pcb_models[m]; m++)
		for (int k = 0; k < pcb_models[m]->config.nr_keys; k++) {
			const struct pcb_key *key = &pcb_models[m]->config.keys[k];
			int seen = 0;

			for (int i = 0; i < nr_all && !seen; i++)
				seen = !strcmp(all_keys[i]->section, key->section) &&
				       !strcmp(all_keys[i]->name, key->name);
			if (!seen && nr_all < PCB_MAX_KEYS)
				all_keys[nr_all++] = key;
		}
}

int pcb_nr_keys(void)
{
	build_keys();
	return nr_all;
}

const struct pcb_key *pcb_key_get(int id)
{
	build_keys();
	return id >= 0 && id < nr_all ? all_keys[id] : NULL;
}

const struct pcb_key *pcb_model_key(const struct pcb_model *m, int id)
{
	const struct pcb_key *key = pcb_key_get(id);
	const struct pcb_model_config *c = &m->config;

	for (int k = 0; key && k < c->nr_keys; k++)
		if (!strcmp(c->keys[k].section, key->section) &&
		    !strcmp(c->keys[k].name, key->name))
			return &c->keys[k];
	return NULL;
}

int pcb_key_find(const char *section, const char *name)
{
	build_keys();
	for (int k = 0; k < nr_all; k++)
		if (!strcmp(all_keys[k]->section, section) && !strcmp(all_keys[k]->name, name))
			return k;
	return -1;
}

void pcb_key_accepts(const struct pcb_key *k, char *buf, size_t len)
{
	buf[0] = 0;
	switch (k->type) {
	case PCB_KEY_INT:
		snprintf(buf, len, "%ld..%ld", k->min, k->max);
		break;
	case PCB_KEY_DOUBLE:
		snprintf(buf, len, "%.15g..%.15g", k->dmin, k->dmax);
		break;
	case PCB_KEY_CHOICE:
		for (int i = 0; k->choices[i]; i++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "",
				 k->choices[i]);
		break;
	default:
		break;
	}
}

int pcb_value_number(const char *s, size_t len, double *v)
{
	char buf[256], *end;

	if (!len || len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	*v = strtod(buf, &end);
	return !*end && !errno && isfinite(*v);
}

/* whether s[0..len) is wholly a decimal integer that fits a long long, *v its value */
static int value_integer(const char *s, size_t len, long long *v)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return !*end && !errno;
}

int pcb_value_same_number(const char *a, size_t na, const char *b, size_t nb)
{
	long long i, j;
	double x, y;

	/* integers as integers: 2^53 and 2^53 + 1 are one double */
	if (value_integer(a, na, &i) && value_integer(b, nb, &j))
		return i == j;
	return pcb_value_number(a, na, &x) && pcb_value_number(b, nb, &y) && x == y;
}

int pcb_key_same_value(const struct pcb_key *k, const char *a, const char *b)
{
	if (!strcmp(a, b))
		return 1;
	if (k->type == PCB_KEY_STRING || k->type == PCB_KEY_CHOICE)
		return 0;
	return pcb_value_same_number(a, strlen(a), b, strlen(b));
}
