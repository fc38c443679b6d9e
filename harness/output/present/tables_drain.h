/* SPDX-License-Identifier: MIT */
/* The drains', contention's and interruptions' tables of a result (tables.c prints them) */
#ifndef PCB_OUTPUT_PRESENT_TABLES_DRAIN_H
#define PCB_OUTPUT_PRESENT_TABLES_DRAIN_H

#include <stdio.h>

#include <jansson.h>

/* the coordinator's drains; with two designs over several cache counts, seed 000's table */
void pcb_tables_drains(FILE *out, json_t *result);
/* per design, its contended locks, and what its drains hit against a simple model */
void pcb_tables_contention(FILE *out, json_t *result);
/* rt-tests oslat's view: what each worker lost, and how much to drains */
void pcb_tables_interruptions(FILE *out, json_t *result);

#endif
