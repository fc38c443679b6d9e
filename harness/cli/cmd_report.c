/* SPDX-License-Identifier: MIT */
/*
 * report: a saved result's tables, printed from its result.json alone, as
 * the run printed them or as a cover letter's section.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../output/format/format.h"
#include "../output/read/load.h"
#include "../output/read/merge.h"
#include "../output/read/query.h"
#include "cli.h"

static const struct pcb_format *report_format(const char *name)
{
	const struct pcb_format *f = pcb_format_find(name, PCB_FORMAT_REPORT);
	char names[256];

	if (!f)
		die_usage("report: --format %s: %s", name,
			  pcb_format_names(PCB_FORMAT_REPORT, names, sizeof(names)));
	return f;
}

int cmd_report(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct pcb_table_opts opts = { 0 };
	char path[PATH_MAX], more_path[PATH_MAX], err[PATH_MAX + 512];
	const char *file = NULL, *more[64];
	const struct pcb_format *format = &pcb_format_text;
	int rc, nr_more = 0;
	json_t *result;

	if (wants_help(argc, argv, report_usage)) {
		pcb_format_help(stdout, PCB_FORMAT_REPORT);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		const char *f = NULL;

		if (!strcmp(argv[i], "--raw"))
			opts.raw = 1;
		else if (!strcmp(argv[i], "--format") && i + 1 < argc)
			f = argv[++i];
		else if (!strncmp(argv[i], "--format=", 9))
			f = argv[i] + 9;
		else if (argv[i][0] == '-')
			die_usage("report: unknown argument '%s' (see pcpbench report --help)",
				  argv[i]);
		else if (!file)
			file = argv[i];
		else if (nr_more < (int)(sizeof(more) / sizeof(more[0])))
			more[nr_more++] = argv[i];
		else
			die_usage("report: more than %zu results", sizeof(more) / sizeof(more[0]) + 1);
		if (f)
			format = report_format(f);
	}
	if (!file)
		die_usage("report: give one RESULT.json (see pcpbench report --help)");
	if (pcb_result_load(file, &result, path, sizeof(path), err, sizeof(err)) < 0)
		die_usage("%s", err);
	for (int m = 0; m < nr_more; m++) {
		json_t *other;

		if (pcb_result_load(more[m], &other, more_path, sizeof(more_path), err,
				    sizeof(err)) < 0)
			die_usage("%s", err);
		rc = pcb_result_merge(result, other, more_path, err, sizeof(err));
		json_decref(other);
		if (rc < 0)
			die_usage("report: %s", err);
	}
	/* every format then reads it raw, as a run --raw's is */
	if (opts.raw)
		pcb_result_set_raw(result);
	rc = format->report(stdout, result, &opts, err, sizeof(err));
	json_decref(result);
	if (rc < 0)
		die_usage("%s: %s", path, err);
	return 0;
}
