/* SPDX-License-Identifier: MIT */
/* mmtests: a tab-separated row a run mean */
#include "format.h"
#include "../write/kv.h"

static int report_mmtests(FILE *out, json_t *result, const struct pcb_table_opts *opts,
			  char *err, size_t errlen)
{
	(void)opts, (void)err, (void)errlen;
	pcb_mmtests_print(out, result);
	return 0;
}

const struct pcb_format pcb_format_mmtests = {
	.name = "mmtests",
	.report = report_mmtests,
	.report_help = "a tab-separated row a run mean (function, design, config, run, cycles)",
};
