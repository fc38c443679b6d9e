/* SPDX-License-Identifier: MIT */
/* result.json's rows of one design's result: functions, counters, contention, interruptions */
#ifndef PCB_OUTPUT_WRITE_JSON_ROWS_H
#define PCB_OUTPUT_WRITE_JSON_ROWS_H

#include <jansson.h>

#include "../../run/runner.h"
#include "../../schema/schema.h"

/* a histogram's non-empty buckets, [lower, count] each */
json_t *pcb_histogram_json(const struct pcb_hist *h);
/*
 * A row's noise gate, as the Phoronix Test Suite judges a result by the
 * spread of its runs: the coefficient of variation of its run means, in
 * percent, into cv_field, and whether it passes run.max_cv, into unstable_field
 */
void pcb_noise_json(json_t *o, enum rj_field cv_field, enum rj_field unstable_field,
		    const double *run_mean, const struct pcb_design_result *r);

/* each event's counters of r (each worker's, all, the coordinator's), per call, and notes */
void pcb_counters_json(json_t *counters, json_t *per_call, json_t *notes,
		       const struct pcb_scenario *sc, const struct pcb_design_result *r);
/* every contended (or timed) acquisition of r, per function and side */
void pcb_contention_json(json_t *contention, const struct pcb_design_result *r);
/* what each worker of r lost to interruptions */
void pcb_interruptions_json(json_t *interruptions, const struct pcb_design_result *r,
			    double tsc_hz);
/* one row a function r timed, with its run means and histogram */
void pcb_functions_json(json_t *functions, const struct pcb_design_result *r);

#endif
