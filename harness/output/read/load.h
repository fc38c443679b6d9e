/* SPDX-License-Identifier: MIT */
/*
 * A result read back: result.json named by its directory or its path,
 * read whole, and checked as untrusted input before any output is made
 * from it (its fields' types through the schema, the figures its model's
 * declarations read, sizes and numbers a run can produce).
 */
#ifndef PCB_OUTPUT_READ_LOAD_H
#define PCB_OUTPUT_READ_LOAD_H

#include <stddef.h>

#include <jansson.h>

#define PCB_RESULT_FORMAT "pcpbench-result-1"

/*
 * a result read back (untrusted), an older form's missing design_name
 * filled in first: shapes and numbers; 0, or -1 with what is wrong
 */
int pcb_result_check(json_t *result, char *err, size_t errlen);
/*
 * A result named by its directory or its result.json, read, its format
 * string and shapes checked: 0 with *out, or -1 with what is wrong, naming
 * the file (and line). path receives the file read.
 */
int pcb_result_load(const char *arg, json_t **out, char *path, size_t pathlen, char *err,
		    size_t errlen);

/*
 * a result's strings on one line, as a run writes and prints them: a line
 * break (a description given with --set) as \n, but in scenario.text, the
 * scenario file as it was written (the text stream escapes other controls)
 */
void pcb_result_one_line(json_t *result);

/* a result whose run was cut short (context.complete false; a result without it ran whole) */
int pcb_result_interrupted(json_t *result);

#endif
