/* SPDX-License-Identifier: MIT */
/*
 * A run's output files: DIR/<scenario>-<UTC timestamp>/ with result.json
 * (write/json.h), the CSV files (write/csv.h) and tables.txt
 * (present/tables.h), written into a temporary directory and renamed into
 * place when complete, so that a crash never leaves half a result.
 */
#ifndef PCB_OUTPUT_RESULT_H
#define PCB_OUTPUT_RESULT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/*
 * The result as result.json gives it back (a new reference, NULL out of
 * memory), its strings on one line (pcb_result_one_line()): what a run
 * prints and writes, so that report, reading the file, prints exactly what
 * the run printed
 */
json_t *pcb_result_settled(json_t *result);

/*
 * Write DIR/<scenario>-<UTC timestamp>/ with result.json, functions.csv,
 * runs.csv, histogram.csv, counters.csv, drains.csv, contention.csv,
 * diffs.csv and tables.txt (from a settled result, pcb_result_settled(),
 * exactly what report prints). path receives the directory.
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

/* the time now, UTC: 20260101T120000Z (compact) or 2026-01-01T12:00:00Z */
void pcb_utc_timestamp(char *buf, size_t len, int compact);

#endif
