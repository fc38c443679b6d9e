/* SPDX-License-Identifier: MIT */
/*
 * The cover-letter tables of a result, as run prints them, tables.txt
 * holds them and report prints them again, from result.json alone.
 */
#ifndef PCB_OUTPUT_PRESENT_TABLES_H
#define PCB_OUTPUT_PRESENT_TABLES_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "layout.h"

/* every table of a result; -1 with err when it fails the schema's check */
int pcb_tables_print(FILE *out, json_t *result, char *err, size_t errlen);
int pcb_tables_print_opts(FILE *out, json_t *result, const struct pcb_table_opts *opts,
			  char *err, size_t errlen);

#endif
