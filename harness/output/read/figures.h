/* SPDX-License-Identifier: MIT */
/*
 * One figure of a result.json, named by a selector (scenario/claims.h):
 * functions:DESIGN:FUNCTION[:FIELD] (avg_cycles by default),
 * drains:DESIGN[:FIELD] (avg_cycles), contention:DESIGN:FUNCTION[:FIELD]
 * (contended, summed over both sides; FUNCTION * sums every function).
 */
#ifndef PCB_OUTPUT_READ_FIGURES_H
#define PCB_OUTPUT_READ_FIGURES_H

#include <stddef.h>

#include <jansson.h>

/* 0 with the figure in v; -1 with why in err when the result has no such row */
int pcb_figure_get(json_t *result, const char *sel, double *v, char *err, size_t errlen);
/* a functions selector's run means, up to max; how many (0: not a functions row) */
int pcb_figure_runs(json_t *result, const char *sel, double *runs, int max);

#endif
