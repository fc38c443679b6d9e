/* SPDX-License-Identifier: MIT */
/*
 * What every output asks of a result: its model, its settings, a design's
 * entry, a function's, a counter's, a row's run means and the figures
 * derived from one result alone. The rows are found through rows.h's
 * maps, in time linear in the result.
 */
#ifndef PCB_OUTPUT_READ_QUERY_H
#define PCB_OUTPUT_READ_QUERY_H

#include <stddef.h>

#include <jansson.h>

#include "../../model.h"

/* function rows a design can have in one table */
#define PCB_MAX_ROWS 64
/* run means a Diff compares */
#define PCB_MAX_RUNS 1000

/*
 * The model a result names (scenario.model), NULL for one this pcpbench
 * lacks; a result from before models had names is the model's that says
 * default_for_old_results. Its name: the result's, or that model's.
 */
const struct pcb_model *pcb_result_model(json_t *result);
const char *pcb_result_model_name(json_t *result);
/* the model's drain, by its kernel name ("?" when neither result nor model says) */
const char *pcb_result_drain_name(json_t *result);

/* a scenario key's setting in a result (K_RUN_RUNS), or one by its name; "?" when absent */
const char *pcb_setting(json_t *result, int key);
const char *pcb_setting_named(json_t *result, const char *name);
/* a swept key's values as the [sweep] wrote them ("auto, 2"), NULL where it is not swept */
const char *pcb_swept(json_t *result, int key);
/* the empty region's ticks in timing mode timing ("call", "batch") of a context */
double pcb_timer_overhead(json_t *ctx, const char *timing);
/*
 * The empty regions the workers subtracted, lowest and highest, where the
 * result records them; else base, the machine's figure, for both
 */
void pcb_result_subtracted(json_t *result, double base, double *lo, double *hi);
/*
 * Whether a result's means are read raw, the timer in them: as it says
 * (scenario.means, which run --raw and report --raw set), else where its
 * timer is the kernel's, seed 000's instrument. Every output reads a
 * result's means, STDDEV, Diff and intervals so, and names them so.
 */
int pcb_result_raw(json_t *result);
/* a result to be read raw from now on (scenario.means = "raw") */
void pcb_result_set_raw(json_t *result);
/* "raw" or "net" */
const char *pcb_means_word(int raw);

/* the design entry whose label (design and configuration) is label, NULL if none */
json_t *pcb_design_row(json_t *result, const char *label);
/* the function row of design and fn in functions, NULL if none */
json_t *pcb_function_row(json_t *functions, const char *design, const char *fn);
/* the function rows of one design, in result order, up to max; how many */
size_t pcb_design_function_rows(json_t *functions, const char *design, json_t **out,
				size_t max);
/* an event's counter summed over a design's workers (thread "all"), NULL if none */
json_t *pcb_counter_row(json_t *result, const char *design, const char *event);
/* a design's interruptions summed over its workers: their count and the longest; 0 if none */
int pcb_design_interruptions(json_t *result, const char *design, json_int_t *count,
			     double *max_ns);

/* each run's mean of a function row, raw (timer included) or not, up to max; how many */
int pcb_run_means(json_t *fj, int raw, double *v, int max);
/* a function row's mean and STDDEV, raw (the timer included) or net */
double pcb_fn_mean(json_t *fj, int raw);
double pcb_fn_stddev(json_t *fj, int raw);
/* what one call of a function row can be resolved to: the TSC step over its region's calls */
double pcb_fn_resolution(json_t *fj, double step);

/*
 * A result's rows as function rows: every function, then each design's
 * drains (when it drained) under the drain function's kernel name; a new
 * array (json_decref() it)
 */
json_t *pcb_function_and_drain_rows(json_t *result);

#endif
