/* SPDX-License-Identifier: MIT */
/* json: compare's object, whole */
#include "format.h"

static int compare_json(FILE *out, json_t *cmp, json_t **results)
{
	(void)results;
	json_dumpf(cmp, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fprintf(out, "\n");
	return 0;
}

const struct pcb_format pcb_format_json = {
	.name = "json",
	.compare = compare_json,
	.compare_help = "csv's rows with the context differences and the missing rows",
	.escapes = 1,
};
