/* SPDX-License-Identifier: MIT */
/* result.json from a run, every field through the schema's setters (schema.def) */
#ifndef PCB_OUTPUT_WRITE_JSON_H
#define PCB_OUTPUT_WRITE_JSON_H

#include <jansson.h>

#include "../../run/runner.h"
#include "../../scenario/scenario.h"

/* the result of nr_designs design results of scenario sc, in the run's context */
json_t *pcb_result_build(json_t *context, const struct pcb_scenario *sc,
			 const struct pcb_design_result *res, int nr_designs);

#endif
