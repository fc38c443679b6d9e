/* SPDX-License-Identifier: MIT */
/*
 * compare: results of the same model set side by side (two kernels, two
 * machines, two builds), each row against the first result, with a
 * significance mark as mmtests' compare-kernels.sh prints it.
 *
 * compare.c matches rows by (design, config, function) and builds one
 * JSON object, the --format json output itself:
 *   format               "pcpbench-compare-1"
 *   results[]            result (0-based), label, path
 *   context_differences[] key, values[] (one a result)
 *   rows[]               design, config, function, result, label,
 *                        avg_cycles, stddev, runs, diff_cycles, diff_pct,
 *                        significant, test (null for result 0, and for a
 *                        row the first result does not have)
 *   missing[]            design, config, function, result, label
 * compare_print.c prints it as text, markdown or email (write/csv.c as
 * csv).
 */
#ifndef PCB_OUTPUT_PRESENT_COMPARE_H
#define PCB_OUTPUT_PRESENT_COMPARE_H

#include <stddef.h>

#include <jansson.h>

#define PCB_COMPARE_FORMAT "pcpbench-compare-1"
/* results one compare takes */
#define PCB_COMPARE_MAX 26

/*
 * results[i] was read from paths[i] (the argument, named labels[i]); NULL
 * with what is wrong when they cannot be compared (another model)
 */
json_t *pcb_compare_build(json_t **results, const char **labels, const char **paths, int n,
			  char *err, size_t errlen);
/* the letter a result goes by in tables: A, B, ... */
char pcb_compare_letter(int i);

#endif
