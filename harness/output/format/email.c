/* SPDX-License-Identifier: MIT */
/* email: a patch series' cover letter, plain text in 72 columns */
#include <stdlib.h>

#include "format.h"
#include "../present/compare_print.h"
#include "../present/letter.h"

static int report_email(FILE *out, json_t *result, const struct pcb_table_opts *opts, char *err,
			size_t errlen)
{
	(void)opts;
	return pcb_letter_report(out, result, 0, err, errlen);
}

/* the letter made whole, then folded to the letter's width */
static int compare_email(FILE *out, json_t *cmp, json_t **results)
{
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);

	if (!m)
		return -1;
	pcb_compare_print_letter(m, cmp, results, 0);
	fclose(m);
	pcb_fold(out, text, PCB_LETTER_WIDTH);
	free(text);
	return 0;
}

const struct pcb_format pcb_format_email = {
	.name = "email",
	.report = report_email,
	.report_help = "plain text in 72 columns for a patch series' cover letter: the Test "
		       "System block, the method in four lines, the function tables, the "
		       "significance legend and the command that reproduces it",
	.compare = compare_email,
	.compare_help = "72 columns for a cover letter, with the Test System block, the method "
			"and the commands that reproduce them",
};
