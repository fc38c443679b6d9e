/* SPDX-License-Identifier: MIT */
/*
 * How the text tables are laid out, shared by every block: the columns'
 * width, the first column's, a title too wide for a cover letter's line
 * put on a line of its own, and the texts several blocks print (a STDDEV
 * with the noise gate's mark and its legend, the empty region subtracted,
 * run.runs).
 */
#ifndef PCB_OUTPUT_PRESENT_LAYOUT_H
#define PCB_OUTPUT_PRESENT_LAYOUT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* a figure's column */
#define PCB_TABLE_COL 16

/* how the tables show a result */
struct pcb_table_opts {
	int raw;			/* means with the timer included, as the seeds' instrumentation */
	int width;			/* 0, or the columns a line may take (a cover letter's 72) */
};

/* the first column for a label s: its width and two, at least 24 */
int pcb_first_col(const char *s);
/*
 * A block's first column: the title's width, or, where the block would pass
 * opts->width (rest: the columns after the first), 24 with the title on a
 * line of its own; *head is what the header row's first column shows.
 */
int pcb_title_col(FILE *out, const char *title, int rest, const struct pcb_table_opts *opts,
		  const char **head);

/* the empty regions the workers subtracted, "lo-hi" ticks (or one figure), else base */
void pcb_subtracted_text(json_t *result, double base, char *buf, size_t len);
/* run.runs as the tables say it: the count, or what auto did */
const char *pcb_runs_setting(json_t *result, char *buf, size_t len);

/* the noise gate's mark, beside a STDDEV whose row is unstable */
#define PCB_UNSTABLE_MARK "!"
/* sd as a STDDEV column shows it, marked where unstable is true; *noisy set then */
void pcb_stddev_text(char *buf, size_t len, double sd, json_t *unstable, int *noisy);
/* the noise gate's legend, under the blocks it marked */
void pcb_unstable_legend(FILE *out, json_t *result);

#endif
