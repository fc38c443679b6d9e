/* SPDX-License-Identifier: MIT */
/* kv: LKP-tests' stats format */
#include "format.h"
#include "../write/kv.h"

static int report_kv(FILE *out, json_t *result, const struct pcb_table_opts *opts, char *err,
		     size_t errlen)
{
	(void)opts, (void)err, (void)errlen;
	pcb_kv_print(out, result);
	return 0;
}

const struct pcb_format pcb_format_kv = {
	.name = "kv",
	.report = report_kv,
	.report_help = "LKP-tests' stats format, a \"name: value\" line a figure "
		       "(design.function.avg_cycles, .stddev, .p99, .interrupted, .diff_pct, "
		       "...; design.drain.*; contention; interruptions; "
		       "design.invariant.fail: 1 where broken)",
};
