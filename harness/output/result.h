/* SPDX-License-Identifier: MIT */
/*
 * A run's output: result.json (jansson, result_json.c), the CSV files and
 * tables.txt (result_write.c), written into a temporary directory and
 * renamed into place when complete, and the cover-letter tables
 * (tables.c), printed from result.json alone.
 */
#ifndef PCB_RESULT_H
#define PCB_RESULT_H

#include <jansson.h>

#include "../machine/state.h"
#include "../machine/topo.h"
#include "../measure/tsc.h"
#include "../run/runner.h"
#include "../scenario/scenario.h"

#define PCB_RESULT_FORMAT "pcpbench-result-1"

json_t *pcb_result_context(const struct pcb_topo *topo, const struct pcb_clock *clk,
			   const char *command, const char *started);
json_t *pcb_result_build(json_t *context, const struct pcb_scenario *sc,
			 const struct pcb_design_result *res, int nr_designs);
/* the machine's state as context.machine_state's rows */
json_t *pcb_state_json(const struct pcb_state *st);
/* the machine as info prints it */
json_t *pcb_info_json(const struct pcb_topo *topo, const struct pcb_clock *clk);

/*
 * Write DIR/<scenario>-<UTC timestamp>/ with result.json, functions.csv,
 * runs.csv, histogram.csv and tables.txt. path receives the directory.
 */
int pcb_result_write(json_t *result, const char *dir, char *path, size_t pathlen,
		     char *err, size_t errlen);

/* the same files written exactly at path (built beside it, renamed into place) */
int pcb_result_write_at(json_t *result, const char *path, char *err, size_t errlen);

/*
 * A temporary directory pcpbench writes a result in before renaming it
 * into place (.NAME-TS.tmp.PID), marked inside as pcpbench's, so that a
 * later run cleans up only what a run that died left: made (0, or -1 with
 * errno), unmarked before its rename, and whether path is one of them
 * (a directory, not a link, of this user, with the mark).
 */
#define PCB_TMPDIR_MARK ".pcpbench-partial"
int pcb_tmpdir_make(const char *path);
void pcb_tmpdir_seal(const char *path);
bool pcb_tmpdir_ours(const char *path);

/* a result read back (untrusted): shapes and numbers; 0, or -1 with what is wrong */
int pcb_result_check(json_t *result, char *err, size_t errlen);
/*
 * A result named by its directory or its result.json, read, its format
 * string and shapes checked: 0 with *out, or -1 with what is wrong, naming
 * the file (and line). path receives the file read.
 */
int pcb_result_load(const char *arg, json_t **out, char *path, size_t pathlen, char *err,
		    size_t errlen);

/*
 * The model a result names (scenario.model), NULL for one this pcpbench
 * lacks; a result from before models had names is the model's that says
 * default_for_old_results. Its name: the result's, or that model's.
 */
const struct pcb_model *pcb_result_model(json_t *result);
const char *pcb_result_model_name(json_t *result);

/* a result whose run was cut short (context.complete false; a result without it ran whole) */
int pcb_result_interrupted(json_t *result);

/* how the tables show a result */
struct pcb_table_opts {
	int raw;			/* means with the timer included, as the seeds' instrumentation */
	int width;			/* 0, or the columns a line may take (a cover letter's 72) */
};

/* the cover-letter tables of a result, as run and report print them */
int pcb_tables_print(FILE *out, json_t *result, char *err, size_t errlen);
int pcb_tables_print_opts(FILE *out, json_t *result, const struct pcb_table_opts *opts,
			  char *err, size_t errlen);

void pcb_utc_timestamp(char *buf, size_t len, int compact);

#endif
