/* SPDX-License-Identifier: MIT */
/*
 * What a result's model declares for the output (model_output.h), read:
 * the templates of its line blocks, the figures of a design's entry its
 * blocks and plots name, and their check when a result is read back,
 * through the schema's one error path.
 */
#ifndef PCB_OUTPUT_READ_MODEL_H
#define PCB_OUTPUT_READ_MODEL_H

#include <stddef.h>

#include <jansson.h>

#include "../../model_output.h"

/* a part of a model's template: text, then a {path} or {path:decimals}, if any */
struct pcb_template_part {
	const char *text;
	size_t len;
	char path[128];			/* "" after the last field */
	int decimals;			/* PCB_COUNT where none is given, PCB_TEXT for :s */
};

/* the next part of a template at *s: its text up to a {field}, and the field; 0 at the end */
int pcb_template_next(const char **s, struct pcb_template_part *p);
/* a figure of a design's entry as a declaration prints it: a count, decimals, or text */
const char *pcb_model_field_text(json_t *dj, const struct pcb_model_field *f, char *buf,
				 size_t len);
/* the figures a result's model's blocks and plots read: 0, or -1 naming the first at fault */
int pcb_model_check(json_t *result, char *err, size_t errlen);

#endif
