/* SPDX-License-Identifier: MIT */
/* csv: compare's rows for a spreadsheet or plot compare */
#include "format.h"
#include "../write/csv.h"

static int compare_csv(FILE *out, json_t *cmp, json_t **results)
{
	(void)results;
	pcb_compare_csv(out, cmp);
	return 0;
}

const struct pcb_format pcb_format_csv = {
	.name = "csv",
	.compare = compare_csv,
	.compare_help = "design,config,function,result,label,avg_cycles,stddev,runs,"
			"diff_cycles,diff_pct,significant,test,ci_level,ci_low_pct,ci_high_pct "
			"(raw_ means in a raw one), one row a design x config x function x "
			"result (result 0, the baseline, has no diff)",
};
