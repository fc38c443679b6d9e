/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: the input as a result.json read back, as `report` reads it:
 * parsed, checked by pcb_result_check(), then printed into /dev/null in
 * every format report has (format/formats.def), net and raw, and as
 * `compare` reads it, against itself, in every format compare has.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "harness/output/format/format.h"
#include "harness/output/present/compare.h"
#include "harness/output/read/load.h"

static const struct pcb_format *const formats[] = {
#define PCB_FORMAT(name) &pcb_format_##name,
#include "harness/output/format/formats.def"
#undef PCB_FORMAT
};

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
	const struct pcb_table_opts net = { 0 }, raw = { .raw = 1 };
	json_error_t jerr;
	char err[512];
	json_t *result = json_loadb((const char *)data, size, 0, &jerr);

	if (!result)
		return 0;
	if (json_is_object(result) && pcb_result_check(result, err, sizeof(err)) == 0) {
		json_t *both[2] = { result, result }, *cmp;
		const char *names[2] = { "a", "b" };

		for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
			if (!formats[f]->report)
				continue;
			formats[f]->report(sink, result, &net, err, sizeof(err));
			formats[f]->report(sink, result, &raw, err, sizeof(err));
		}
		cmp = pcb_compare_build(both, names, names, 2, err, sizeof(err));
		for (size_t f = 0; cmp && f < sizeof(formats) / sizeof(formats[0]); f++)
			if (formats[f]->compare)
				pcb_format_compare(formats[f], sink, cmp, both);
		json_decref(cmp);
	}
	json_decref(result);
	return 0;
}
