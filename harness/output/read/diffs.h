/* SPDX-License-Identifier: MIT */
/*
 * The differences a result's figures are read for, computed in one place
 * for every output: each design against its baseline at the same
 * configuration (or, for one design over a sweep, each configuration
 * against the sweep's first), a row a function both have, of the means the
 * result is read by (pcb_result_raw()), each tested, marked and given its
 * intervals by interval.h's procedure over all of them together.
 */
#ifndef PCB_OUTPUT_READ_DIFFS_H
#define PCB_OUTPUT_READ_DIFFS_H

#include <stddef.h>

#include <jansson.h>

#include "../../schema/schema.h"
#include "interval.h"

/* a function of a design and the same function of its baseline */
struct pcb_diff_row {
	json_t *fj, *bf;
	struct pcb_diff_fig f;
};

/* a design against its baseline: rows [from, to) */
struct pcb_diff_block {
	json_t *dj, *base;
	size_t from, to;
};

/* a result's differences, in the order of its designs */
struct pcb_diffs {
	struct pcb_diff_row *row;
	size_t n;
	size_t tested;			/* the rows the marks were corrected over */
	struct pcb_diff_block *block;
	size_t nblocks;
	int raw;			/* of raw means (the timer included) */
};

/* every difference of a result: 0, or -1 out of memory (none then) */
int pcb_result_diffs(json_t *result, struct pcb_diffs *d);
void pcb_diffs_free(struct pcb_diffs *d);

/* function row fj against bf, raw or net, tested alone (pcb_diff_family() to mark it) */
void pcb_diff_fn_rows(json_t *fj, json_t *bf, int raw, struct pcb_diff_fig *f);

/* where a difference's figures go in a row of JSON (a result's diff rows, compare's rows) */
struct pcb_diff_fields {
	enum rj_field diff_cycles, diff_pct, level, lo, hi, pct_lo, pct_hi, p, p_holm, significant;
};
extern const struct pcb_diff_fields pcb_diff_row_fields;

/* f's figures set in o, null where it has none: 0, or -1 where jansson refused one */
int pcb_diff_fig_put(json_t *o, const struct pcb_diff_fig *f, const struct pcb_diff_fields *k);
/* a result's differences as rows of the schema's kind diff (a new array), NULL out of memory */
json_t *pcb_result_diffs_json(json_t *result);

/*
 * The configuration a sweep row is compared with: the same design with the
 * first swept key at its first value and the others as they are; NULL for
 * that row itself or where there is none
 */
json_t *pcb_config_baseline(json_t *designs, json_t *dj);

#endif
