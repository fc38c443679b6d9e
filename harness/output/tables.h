/* SPDX-License-Identifier: MIT */
/*
 * What the table printers share (internal to output/): tables.c prints the
 * header, drains, contention, interruptions and counters; tables_fn.c the
 * function blocks, their differences and percentiles; result_model.c the
 * blocks a result's model declares.
 */
#ifndef PCB_OUTPUT_TABLES_H
#define PCB_OUTPUT_TABLES_H

#include "../schema/schema.h"
#include "result.h"

#define COL 16
/* function rows a design can have in one table */
#define MAX_ROWS 64
/* run means a Diff compares */
#define MAX_RUNS 1000

int first_col(const char *s);
/* a scenario key's setting in a result (K_RUN_RUNS), or one by its name; "?" when absent */
const char *pcb_setting(json_t *result, int key);
const char *pcb_setting_named(json_t *result, const char *name);
/* run.runs as the tables say it: the count, or what auto did */
const char *pcb_runs_setting(json_t *result, char *buf, size_t len);
/* the empty region's ticks in timing mode timing ("call", "batch") of a context */
double pcb_timer_overhead(json_t *ctx, const char *timing);
/* the function rows of one design, in result order */
size_t design_functions(json_t *functions, const char *design, json_t **out, size_t max);
json_t *find_function(json_t *functions, const char *design, const char *fn);
/* the design row of result whose label (design and configuration) is label, NULL if none */
json_t *find_design(json_t *result, const char *label);
/* each run's mean of a function row, raw (timer included) or not */
int run_means(json_t *fj, int raw, double *v, int max);

/*
 * A block's first column: the title's width, or, where the block would pass
 * opts->width (rest: the columns after the first), 24 with the title on a
 * line of its own; *head is what the header row's first column shows.
 */
int title_col(FILE *out, const char *title, int rest, const struct pcb_table_opts *opts,
	      const char **head);
/* the empty regions the workers subtracted, "lo-hi" ticks, else base */
void subtracted_text(json_t *result, double base, char *buf, size_t len);

void pcb_tables_functions(FILE *out, json_t *result, const struct pcb_table_opts *opts);

/* the noise gate's mark, beside a STDDEV whose row is unstable */
#define PCB_UNSTABLE_MARK "!"
/* sd as a STDDEV column shows it, marked where unstable is true; *noisy set then */
void pcb_stddev_text(char *buf, size_t len, double sd, json_t *unstable, int *noisy);
void pcb_unstable_legend(FILE *out, json_t *result);
/* "[lo, hi]": the 95% interval of fj's Diff % over bf's (pcb_ratio_ci95()), else "-" */
void pcb_diff_ci_text(char *buf, size_t len, json_t *fj, json_t *bf, int raw);

/* a part of a model's template: text, then a {path} or {path:decimals}, if any */
struct pcb_template_part {
	const char *text;
	size_t len;
	char path[128];			/* "" after the last field */
	int decimals;			/* PCB_COUNT where none is given, PCB_TEXT for :s */
};

/* tmpl printed, each field as value() gives it */
void pcb_template_print(FILE *out, const char *tmpl,
			const char *(*value)(const struct pcb_template_part *p, void *arg,
					     char *buf, size_t len),
			void *arg);
/* the blocks the result's model declares, after the function tables */
void pcb_model_blocks(FILE *out, json_t *result);
/* the figures those blocks and the model's plots read: 0, or -1 naming the first at fault */
int pcb_model_check(json_t *result, char *err, size_t errlen);

#endif
