/* SPDX-License-Identifier: MIT */
/* The blocks a result's model declares, as its declarations say (tables.c prints them) */
#ifndef PCB_OUTPUT_PRESENT_TABLES_MODEL_H
#define PCB_OUTPUT_PRESENT_TABLES_MODEL_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "../read/model.h"

/* tmpl printed, each field as value() gives it */
void pcb_template_print(FILE *out, const char *tmpl,
			const char *(*value)(const struct pcb_template_part *p, void *arg,
					     char *buf, size_t len),
			void *arg);
/* the blocks the result's model declares, after the function tables */
void pcb_tables_model(FILE *out, json_t *result);

#endif
