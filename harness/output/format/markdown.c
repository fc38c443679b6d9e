/* SPDX-License-Identifier: MIT */
/* markdown: the cover letter's parts for a web page */
#include "format.h"
#include "../present/compare_print.h"
#include "../present/letter.h"

static int report_markdown(FILE *out, json_t *result, const struct pcb_table_opts *opts,
			   char *err, size_t errlen)
{
	(void)opts;
	return pcb_letter_report(out, result, 1, err, errlen);
}

static int compare_markdown(FILE *out, json_t *cmp, json_t **results)
{
	pcb_compare_print_letter(out, cmp, results, 1);
	return 0;
}

const struct pcb_format pcb_format_markdown = {
	.name = "markdown",
	.report = report_markdown,
	.report_help = "email's parts for a web page",
	.compare = compare_markdown,
	.compare_help = "email's parts, the tables as markdown tables, for a web page",
};
