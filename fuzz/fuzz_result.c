/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: the input as a result.json read back, as `report` reads it:
 * parsed, checked by pcb_result_check(), and its tables printed, net and
 * raw, into /dev/null; then as `report --format email|markdown|kv|mmtests`
 * prints it, and as `compare` reads it, against itself, in every format.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "harness/output/present/compare.h"
#include "harness/output/present/compare_print.h"
#include "harness/output/present/letter.h"
#include "harness/output/present/tables.h"
#include "harness/output/read/load.h"
#include "harness/output/write/kv.h"

static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	sink = fopen("/dev/null", "w");
	if (!sink) {
		perror("fuzz_result: /dev/null");
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pcb_table_opts raw = { .raw = 1 };
	json_error_t jerr;
	char err[512];
	json_t *result = json_loadb((const char *)data, size, 0, &jerr);

	if (!result)
		return 0;
	if (json_is_object(result) && pcb_result_check(result, err, sizeof(err)) == 0) {
		pcb_tables_print(sink, result, err, sizeof(err));
		pcb_tables_print_opts(sink, result, &raw, err, sizeof(err));
		pcb_letter_report(sink, result, 0, err, sizeof(err));
		pcb_letter_report(sink, result, 1, err, sizeof(err));
		pcb_kv_print(sink, result);
		pcb_mmtests_print(sink, result);
		{
			json_t *both[2] = { result, result }, *cmp;
			const char *names[2] = { "a", "b" };

			cmp = pcb_compare_build(both, names, names, 2, err, sizeof(err));
			for (int f = PCB_FORMAT_TEXT; cmp && f <= PCB_FORMAT_EMAIL; f++)
				pcb_compare_print(sink, cmp, both, f);
			json_decref(cmp);
		}
	}
	json_decref(result);
	return 0;
}
