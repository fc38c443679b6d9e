/* SPDX-License-Identifier: MIT */
/*
 * report's and compare's output formats, one table (formats.def): each
 * format says what it prints of a result for report and of a comparison
 * for compare, either of which it may lack.
 */
#ifndef PCB_OUTPUT_FORMAT_H
#define PCB_OUTPUT_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "../present/tables.h"

struct pcb_format {
	const char *name;
	/*
	 * report --format name: result (merged, --raw applied) on out; < 0
	 * with err set where it cannot be printed. NULL: report has none.
	 */
	int (*report)(FILE *out, json_t *result, const struct pcb_table_opts *opts, char *err,
		      size_t errlen);
	/* report --help's paragraph: what report prints in it */
	const char *report_help;
	/*
	 * compare --format name: cmp (pcb_compare_build()) of results, on a
	 * stream that makes every byte printable (pcb_text_stream()) unless
	 * escapes; < 0 where it ran out of memory. NULL: compare has none.
	 */
	int (*compare)(FILE *out, json_t *cmp, json_t **results);
	const char *compare_help;
	/* the format escapes control characters itself (JSON) */
	int escapes;
};

#define PCB_FORMAT(name) extern const struct pcb_format pcb_format_##name;
#include "formats.def"
#undef PCB_FORMAT

enum pcb_format_use { PCB_FORMAT_REPORT, PCB_FORMAT_COMPARE };

/* the format called name that use prints; NULL where there is none */
const struct pcb_format *pcb_format_find(const char *name, enum pcb_format_use use);
/* use's formats as "text, email, markdown, kv or mmtests", in buf */
const char *pcb_format_names(enum pcb_format_use use, char *buf, size_t len);
/* use's formats for --help: the name, then its paragraph indented */
void pcb_format_help(FILE *out, enum pcb_format_use use);
/* compare --format f: cmp printed on out; < 0 where the format ran out of memory */
int pcb_format_compare(const struct pcb_format *f, FILE *out, json_t *cmp, json_t **results);

#endif
