/* SPDX-License-Identifier: MIT */
/* result.json's drains of a design, and the notes on what their shape means */
#ifndef PCB_OUTPUT_WRITE_JSON_DRAIN_H
#define PCB_OUTPUT_WRITE_JSON_DRAIN_H

#include <jansson.h>

#include "../../run/runner.h"

/* the coordinator's drains of one design */
json_t *pcb_drain_json(const struct pcb_design_result *r);
/* what r's drains' shape means for its figures: idle virtual CPUs, refills, a shared CPU */
void pcb_drain_notes(json_t *notes, const struct pcb_design_result *r);
/* a line between the same two CPUs that cost twice as much in one run as in another */
void pcb_line_moved_note(json_t *notes, const struct pcb_design_result *res, int nr);

#endif
