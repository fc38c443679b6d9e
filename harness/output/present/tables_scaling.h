/* SPDX-License-Identifier: MIT */
/* A sweep over the worker count as will-it-scale sums one up (tables.c prints it) */
#ifndef PCB_OUTPUT_PRESENT_TABLES_SCALING_H
#define PCB_OUTPUT_PRESENT_TABLES_SCALING_H

#include <stdio.h>

#include <jansson.h>

/* per line and worker count, each function's cycles and operations/s against the ideal */
void pcb_tables_scaling(FILE *out, json_t *result);

#endif
