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
	struct pcb_table_opts opts = { 0 };
	char path[PATH_MAX], err[512];
	const char *file = NULL;
	json_error_t jerr;
	struct stat st;
	json_t *result;

	if (wants_help(argc, argv, report_usage))
		return 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--raw"))
			opts.raw = 1;
		else if (argv[i][0] == '-' || file)
			die_usage("report: unknown argument '%s' (see pcpbench report --help)",
				  argv[i]);
		else
			file = argv[i];
	}
	if (!file)
		die_usage("report: give one RESULT.json (see pcpbench report --help)");
	snprintf(path, sizeof(path), "%s", file);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(path, sizeof(path), "%s/result.json", file);
	result = json_load_file(path, 0, &jerr);
	if (!result) {
		if (jerr.line > 0)
			die_usage("%s:%d: %s", path, jerr.line, jerr.text);
		die_usage("%s: %s", path, jerr.text);
	}
	if (strcmp(json_string_value(json_object_get(result, "format")) ?: "", PCB_RESULT_FORMAT)) {
		json_decref(result);
		die_usage("%s: not a %s file", path, PCB_RESULT_FORMAT);
	}
	if (pcb_result_check(result, err, sizeof(err)) < 0 ||
	    pcb_tables_print_opts(stdout, result, &opts, err, sizeof(err)) < 0) {
		json_decref(result);
		die_usage("%s: %s", path, err);
	}
	json_decref(result);
	return 0;
}
