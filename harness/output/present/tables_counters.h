/* SPDX-License-Identifier: MIT */
/* A design's perf counters, as perf stat prints them (tables.c prints them) */
#ifndef PCB_OUTPUT_PRESENT_TABLES_COUNTERS_H
#define PCB_OUTPUT_PRESENT_TABLES_COUNTERS_H

#include <stdio.h>

#include <jansson.h>

/* design entry dj's counters summed over its workers, the coordinator's, and per call */
void pcb_tables_counters(FILE *out, json_t *result, json_t *dj);

#endif
