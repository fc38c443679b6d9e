/* SPDX-License-Identifier: MIT */
/*
 * Scenario files (INI, read with inih) and --set overrides.
 *
 * The keys are the harness's (scenario/keys.c) and each model's, declared
 * once with type and range; a scenario's values are kept as written (with
 * where they came from, for errors) and converted once by
 * pcb_scenario_finish() into the fields below and the chosen model's
 * settings. Any error stops before a run starts: exit 2 and
 * FILE:LINE: section.key: why.
 */
#ifndef PCB_SCENARIO_H
#define PCB_SCENARIO_H

#include <limits.h>
#include <stdio.h>

#include <hwloc.h>

#include "../machine/instrument.h"
#include "../machine/topo.h"
#include "../measure/counters.h"
#include "../measure/tsc.h"
#include "pcb/keys.h"
#include "pcb/model.h"
#include "pcb/registry.h"

#define PCB_MAX_DESIGNS 16
/* every key of the harness and of all models */
#define PCB_MAX_KEYS 96
/* a scenario's label, "slots=7 memcgs=12" */
#define PCB_LABEL_LEN 512
/* configurations a [sweep] may make */
#define PCB_MAX_CONFIGS 1000
/* the slowest drain rate: one in the longest run */
#define PCB_DRAIN_MIN_RATE_HZ 0.001
/* the runs run.runs = auto starts with, the Phoronix Test Suite's default count */
#define PCB_AUTO_MIN_RUNS 3

/* the harness's keys; models' keys follow from K_NR on (pcb_key_get()) */
enum pcb_key_id {
	K_SCENARIO_NAME,
	K_SCENARIO_DESCRIPTION,
	K_RUN_MODEL,
	K_RUN_DESIGNS,
	K_RUN_BASELINE,
	K_RUN_ORDER,
	K_RUN_TIMING,
	K_RUN_TIMER,
	K_RUN_RUNS,
	K_RUN_MAX_RUNS,
	K_RUN_CI_TARGET,
	K_RUN_MAX_CV,
	K_RUN_DURATION_MS,
	K_RUN_OPS,
	K_RUN_WARMUP_MS,
	K_RUN_WORK_DELIVERY,
	K_RUN_BACKEND,
	K_RUN_MODULE,
	K_CPUS_WORKERS,
	K_CPUS_ISOLATED,
	K_WORKLOAD_SEED,
	K_DRAIN_RATE_HZ,
	K_DRAIN_ARRIVALS,
	K_DRAIN_BURST,
	K_DRAIN_COUNT,
	K_DRAIN_CPU,
	K_DRAIN_CACHES,
	K_DRAIN_ONLINE,
	K_DRAIN_ISOLATED,
	K_INTERRUPTS_THRESHOLD_NS,
	K_COUNTERS_EVENTS,
	K_COUNTERS_KERNEL,
	K_COUNTERS_PER_CALL,
	K_NR,
};

/* where a scenario's designs run (run.backend) */
enum pcb_backend {
	PCB_BACKEND_USERSPACE,		/* pinned threads and the models' stand-ins */
	PCB_BACKEND_KERNEL,		/* the kernel's own primitives, in a module (kmod/) */
	PCB_BACKEND_INSTRUMENTED,	/* the kernel's own functions, timed by its instrument */
};
extern const char *const pcb_backend_name[];

/* the order of a scenario's runs (run.order) */
enum pcb_order {
	PCB_ORDER_INTERLEAVED,		/* each round of runs over every design in turn */
	PCB_ORDER_BLOCKED,		/* every run of a design before the next */
	PCB_ORDER_SHUFFLED,		/* each round in an order drawn from workload.seed */
};
extern const char *const pcb_order_name[];

/* the harness's own keys, [K_NR] */
extern const struct pcb_key pcb_harness_keys[K_NR];

/* every key name once: the harness's, then the models' (which may share one) */
int pcb_nr_keys(void);
const struct pcb_key *pcb_key_get(int id);
/* model m's declaration of key id, NULL where m has no such key */
const struct pcb_key *pcb_model_key(const struct pcb_model *m, int id);
/* "1..1000" or "kworker, signal, poll": what a key accepts, for help and errors */
void pcb_key_accepts(const struct pcb_key *k, char *buf, size_t len);
/* whether s[0..len) is wholly a finite number (1e3, 1000, 01000), *v its value */
int pcb_value_number(const char *s, size_t len, double *v);
/*
 * whether a[0..na) and b[0..nb) are one number: as integers where both
 * are (workload.seed's 9007199254740992 is not ...993), else as doubles
 */
int pcb_value_same_number(const char *a, size_t na, const char *b, size_t nb);
/*
 * Two spellings of one value of key k: the same text, or for a key read as
 * a number (an integer, a rate, run.runs, drain.cpu, a CPU of cpus.workers)
 * the same number
 */
int pcb_key_same_value(const struct pcb_key *k, const char *a, const char *b);

struct pcb_scenario {
	char file[PATH_MAX];
	char *text;			/* the file as read */
	/* each key's value as given, and where: line > 0, 0 default, -1 --set, -2 option */
	char *value[PCB_MAX_KEYS];
	int line[PCB_MAX_KEYS];
	const char *opt[PCB_MAX_KEYS];	/* the option that set it, line -2 */

	/* the checked values */
	char name[64];
	const struct pcb_model *model;
	void *config;			/* the model's settings (model->config_size) */
	const struct pcb_design *design[PCB_MAX_DESIGNS];
	int nr_designs;
	const struct pcb_design *baseline;	/* what the Diff blocks compare with */
	int order;			/* enum pcb_order */
	int timing;			/* enum pcb_timing */
	int timer;			/* enum pcb_timer */
	int runs;			/* with runs_auto: the runs before the rule is asked */
	int runs_auto;			/* run.runs = auto: more runs until ci_target */
	int max_runs;			/* run.runs = auto: the bound */
	double ci_target;		/* percent of a row's mean: its 95% half-width */
	double max_cv;			/* percent: a row whose run means spread more is unstable */
	long duration_ms;
	long ops;			/* per worker and run; 0: bounded by time */
	long warmup_ms;
	hwloc_bitmap_t workers;
	hwloc_bitmap_t workers_asked;	/* cpus.workers, before drain.stocks left some idle */
	hwloc_bitmap_t isolated;	/* cpu_is_isolated() of this configuration (cpus.isolated) */
	int delivery;			/* enum pcb_delivery */
	int backend;			/* enum pcb_backend */
	/* the kernel backend: what it changed of the configuration, for the result's notes */
	char backend_note[1024];
	/*
	 * set before pcb_scenario_finish(): the designs the kernel backend
	 * refuses are taken out of design[] into backend_skipped[], and said
	 * in backend_note, instead of refusing the configuration (reproduce)
	 */
	int backend_skip_refused;
	/* run.backend = instrumented: what the booted kernel says it was built as */
	struct pcb_instr_build instr;
	const struct pcb_design *backend_skipped[PCB_MAX_DESIGNS];
	int nr_backend_skipped;
	long seed;
	struct pcb_counters_cfg counters;
	int counters_kernel, counters_per_call;

	/* the coordinator */
	double drain_rate_hz;
	int drain_poisson;
	int drain_burst;
	long drain_count;
	int drain_cpu;			/* -1: chosen */
	int drain_stocks;		/* charged at a drain, workers' included; 0: the workers' */
	int drain_online;		/* caches walked; 0: as drain_stocks */
	int drain_isolated_pct;		/* of the virtual CPUs */
	long gap_threshold_ns;		/* 0: derived */

	/* [sweep] section.key = v1, v2, ...: one configuration per combination */
	char *sweep[PCB_MAX_KEYS];
	int sweep_line[PCB_MAX_KEYS];
	char label[PCB_LABEL_LEN];	/* this configuration's settings, "slots=7 memcgs=12" */
};

/*
 * Load a scenario file. On error returns -1 with "FILE:LINE: section.key:
 * message" in err.
 */
int pcb_scenario_load(struct pcb_scenario *sc, const char *path, char *err, size_t errlen);
/* the same from text; file names it in errors */
int pcb_scenario_load_text(struct pcb_scenario *sc, const char *file, const char *text,
			   char *err, size_t errlen);
/* one "section.key=value" override */
int pcb_scenario_set(struct pcb_scenario *sc, const char *assignment, char *err, size_t errlen);
/* an override from a command-line option, which errors then name */
void pcb_scenario_override(struct pcb_scenario *sc, int key, const char *value,
			   const char *option);
/* a value as given, trimmed; line as in struct pcb_scenario */
void pcb_scenario_set_value(struct pcb_scenario *sc, int key, const char *value, int line,
			    const char *opt);
/*
 * run.backend = kernel: what the kernel backend cannot run refused (a
 * design with no kernel meaning, per-call counters), what has no meaning
 * there changed and said in sc->backend_note; -1 with err. run.backend = instrumented: the booted kernel's instrument
 * found (sc->instr) and its own design made the scenario's one, the same
 * said (backend.c)
 */
int pcb_scenario_backend(struct pcb_scenario *sc, char *err, size_t errlen);
/* check and convert every value against the topology; -1 with err */
int pcb_scenario_finish(struct pcb_scenario *sc, struct pcb_topo *topo, char *err, size_t errlen);
/* of workers, those that run under drain.stocks: the first drain.stocks, when it is fewer */
void pcb_scenario_charged_workers(const struct pcb_scenario *sc, hwloc_bitmap_t workers);
void pcb_scenario_free(struct pcb_scenario *sc);

#endif
