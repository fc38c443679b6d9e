/* SPDX-License-Identifier: MIT */
/*
 * Scenario files (INI, read with inih) and --set overrides.
 *
 * Every key is described once in the key table of scenario.c; the parser,
 * `pcpbench list` and the effective settings in result.json all read it.
 * Any error stops before a run starts: exit 2 and FILE:LINE: section.key: why.
 */
#ifndef PCB_SCENARIO_H
#define PCB_SCENARIO_H

#include <limits.h>
#include <stdio.h>

#include <hwloc.h>

#include "counters.h"
#include "design.h"
#include "topo.h"
#include "tsc.h"

#define PCB_MAX_DESIGNS 16

enum pcb_key_id {
	K_SCENARIO_NAME,
	K_SCENARIO_DESCRIPTION,
	K_RUN_DESIGNS,
	K_RUN_WORKLOAD,
	K_RUN_TIMING,
	K_RUN_RUNS,
	K_RUN_DURATION_MS,
	K_RUN_OPS,
	K_RUN_WARMUP_MS,
	K_RUN_WORK_DELIVERY,
	K_RUN_IRQ_MODEL,
	K_RUN_ACCOUNTING,
	K_CPUS_WORKERS,
	K_CPUS_ISOLATED,
	K_MEMCG_DEPTH,
	K_STOCK_SLOTS,
	K_STOCK_EVICTION,
	K_STOCK_NOCACHE,
	K_WORKLOAD_NR_PAGES,
	K_WORKLOAD_HOLD,
	K_WORKLOAD_UNCHARGE_REFILL,
	K_WORKLOAD_OBJECT_SIZE,
	K_WORKLOAD_OBJ_SHARE,
	K_WORKLOAD_MEMCGS,
	K_WORKLOAD_BURST,
	K_WORKLOAD_SEED,
	K_DRAIN_RATE_HZ,
	K_DRAIN_ARRIVALS,
	K_DRAIN_BURST,
	K_DRAIN_COUNT,
	K_DRAIN_TARGET,
	K_DRAIN_CPU,
	K_DRAIN_STOCKS,
	K_INTERRUPTS_THRESHOLD_NS,
	K_COUNTERS_EVENTS,
	K_COUNTERS_KERNEL,
	K_COUNTERS_PER_CALL,
	K_NR,
};

struct pcb_key_info {
	const char *section;
	const char *name;
	const char *def;
	const char *help;
};

extern const struct pcb_key_info pcb_keys[K_NR];

struct pcb_scenario {
	char file[PATH_MAX];
	char *text;			/* the file as read */
	/* each key's value as given, and where: line > 0, 0 default, -1 --set, -2 option */
	char *value[K_NR];
	int line[K_NR];
	const char *opt[K_NR];		/* the option that set it, line -2 */

	/* the checked values */
	char name[64];
	const struct pcb_design *design[PCB_MAX_DESIGNS];
	int nr_designs;
	enum pcb_workload workload;
	enum pcb_timing timing;
	int runs;
	long duration_ms;
	long ops;			/* per worker and run; 0: bounded by time */
	long warmup_ms;
	hwloc_bitmap_t workers;
	int memcg_depth;
	int delivery;			/* enum pcb_delivery */
	int irq_model;			/* 0 none, 1 pushf_popf */
	int accounting;			/* enum pcb_accounting */
	int slots;			/* NR_MEMCG_STOCK, 1..7 */
	int eviction_round_robin;
	int nocache_isolated_only;
	unsigned int nr_pages;
	long hold;
	int uncharge_refill;		/* percent of uncharges through refill_stock() */
	unsigned int object_size;	/* kmalloc() size; obj_full_size() adds a pointer */
	int obj_share;			/* mixed: percent of operations on objects */
	int memcgs;			/* multi_memcg: memcgs each worker charges */
	long burst;			/* batch kmalloc: allocations a burst */
	unsigned long seed;
	struct pcb_counters_cfg counters;

	/* the coordinator */
	double drain_rate_hz;
	int drain_poisson;
	int drain_burst;
	long drain_count;
	int drain_target_leaf;
	int drain_cpu;			/* -1: chosen */
	int drain_stocks;		/* 0: the workers' only */
	long gap_threshold_ns;		/* 0: derived */

	/* [sweep] section.key = v1, v2, ...: one configuration per combination */
	char *sweep[K_NR];
	int sweep_line[K_NR];
	char label[160];		/* this configuration's settings, "slots=7 memcgs=12" */
};

/* configurations the scenario's [sweep] expands to (1 without one) */
int pcb_scenario_combos(const struct pcb_scenario *sc);
/*
 * Apply combination `index` of the sweep to sc (freshly loaded, before
 * finish): its values become overrides named by their [sweep] line, and
 * sc->label says which.
 */
void pcb_scenario_apply_combo(struct pcb_scenario *sc, int index);

/*
 * Load a scenario file. On error returns -1 with "FILE:LINE: section.key:
 * message" in err.
 */
int pcb_scenario_load(struct pcb_scenario *sc, const char *path, char *err, size_t errlen);
/* one "section.key=value" override */
int pcb_scenario_set(struct pcb_scenario *sc, const char *assignment, char *err, size_t errlen);
/* the same from text; file names it in errors */
int pcb_scenario_load_text(struct pcb_scenario *sc, const char *file, const char *text,
			   char *err, size_t errlen);
/* an override from a command-line option, which errors then name */
void pcb_scenario_override(struct pcb_scenario *sc, enum pcb_key_id key, const char *value,
			   const char *option);
/* check and convert every value against the topology; -1 with err */
int pcb_scenario_finish(struct pcb_scenario *sc, struct pcb_topo *topo, char *err, size_t errlen);
void pcb_scenario_free(struct pcb_scenario *sc);

#endif
