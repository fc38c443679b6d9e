/* SPDX-License-Identifier: MIT */
/* text: report's tables as the run printed them; compare's blocks of means and Diff blocks */
#include "format.h"
#include "../present/compare_print.h"

static int compare_text(FILE *out, json_t *cmp, json_t **results)
{
	pcb_compare_print_text(out, cmp, results);
	return 0;
}

const struct pcb_format pcb_format_text = {
	.name = "text",
	.report = pcb_tables_print_opts,
	.report_help = "the default: the tables as the run printed them",
	.compare = compare_text,
	.compare_help = "the default: what differs in the results' context, the cover "
			"letter's blocks of means, then the Diff blocks",
};
