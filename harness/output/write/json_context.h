/* SPDX-License-Identifier: MIT */
/* result.json's context (the machine, the clock, the command) and its scenario */
#ifndef PCB_OUTPUT_WRITE_JSON_CONTEXT_H
#define PCB_OUTPUT_WRITE_JSON_CONTEXT_H

#include <jansson.h>

#include "../../machine/state.h"
#include "../../machine/topo.h"
#include "../../measure/tsc.h"
#include "../../scenario/scenario.h"

/* the context of a run started (UTC) by command, not yet complete */
json_t *pcb_result_context(const struct pcb_topo *topo, const struct pcb_clock *clk,
			   const char *command, const char *started);
/* the machine's state as context.machine_state's rows */
json_t *pcb_state_json(const struct pcb_state *st);
/* where the kernel ran: context.platform */
json_t *pcb_platform_json(const struct pcb_platform *p);
/* the machine as info prints it */
json_t *pcb_info_json(const struct pcb_topo *topo, const struct pcb_clock *clk);
/* the scenario as the run read it: its file, settings, model and configuration */
json_t *pcb_scenario_json(const struct pcb_scenario *sc);

#endif
