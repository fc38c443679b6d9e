/* SPDX-License-Identifier: MIT */
/*
 * The function tables of seed 000's cover letter: one block per design
 * (the mean over run means, their standard deviation, the call count), the
 * differences against each design's baseline (read/diffs.h) and the
 * percentiles of the per-call figure.
 */
#ifndef PCB_OUTPUT_PRESENT_TABLES_FN_H
#define PCB_OUTPUT_PRESENT_TABLES_FN_H

#include <stdio.h>

#include <jansson.h>

#include "layout.h"

void pcb_tables_functions(FILE *out, json_t *result, const struct pcb_table_opts *opts);

#endif
