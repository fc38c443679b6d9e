/* SPDX-License-Identifier: MIT */
/*
 * report: a saved result's tables, printed from its result.json alone.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../output/result.h"
#include "cli.h"


int cmd_report(int argc, char **argv)
{
	char path[PATH_MAX], err[512];
	json_error_t jerr;
	struct stat st;
	json_t *result;

	if (wants_help(argc, argv, report_usage))
		return 0;
	if (argc != 2)
		die_usage("report: give one RESULT.json (see pcpbench report --help)");
	snprintf(path, sizeof(path), "%s", argv[1]);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(path, sizeof(path), "%s/result.json", argv[1]);
	result = json_load_file(path, 0, &jerr);
	if (!result) {
		if (jerr.line > 0)
			die_usage("%s:%d: %s", path, jerr.line, jerr.text);
		die_usage("%s: %s", path, jerr.text);
	}
	if (strcmp(json_string_value(json_object_get(result, "format")) ?: "", PCB_RESULT_FORMAT))
		die_usage("%s: not a %s file", path, PCB_RESULT_FORMAT);
	if (pcb_tables_print(stdout, result, err, sizeof(err)) < 0)
		die_usage("%s: %s", path, err);
	json_decref(result);
	return 0;
}

