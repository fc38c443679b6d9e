/* SPDX-License-Identifier: MIT */
/*
 * The model interface's output half (model.h): what a model adds to the
 * tables and figures of its results, declared as data in a struct
 * pcb_model_output, which its struct pcb_model points to. The harness
 * prints them from a design's entry in result.json, reading each figure by
 * the path the model gives, and checks those figures when it reads a
 * result back. Registration, read in userspace alone.
 */
#ifndef PCB_SEAM_MODEL_OUTPUT_H
#define PCB_SEAM_MODEL_OUTPUT_H

#include <jansson.h>

#include "pcb/base.h"
#include "pcb/model.h"

struct pcb_stat;

/* decimals of a count: an integer, printed as one */
#define PCB_COUNT (-1)
/* ... of a text: a string, printed as it is ({path:s} in a line) */
#define PCB_TEXT (-2)

/* a figure of a design's entry in result.json */
struct pcb_model_field {
	const char *path;		/* dot-separated from the entry: "events.hit_rate" */
	int decimals;			/* PCB_COUNT for a count, PCB_TEXT for a string */
	double scale;			/* 0: as it is; 100: a fraction, in per cent */
};

/* a column of a model's table block */
struct pcb_model_column {
	const char *head;
	int width;			/* 0 for the last column */
	struct pcb_model_field field;
};

/*
 * A block of the tables after the function blocks. A table: the header
 * row (title in a 24-column first column, then each column's head) and a
 * row for each design whose entry has the first column's field. Or a line
 * for each design whose entry has `when`: "<design>: " then line, where
 * {path} is a count of the entry, {path:N} a figure with N decimals and
 * {path:s} a string.
 */
struct pcb_model_block {
	const char *title;		/* a table's; NULL for a line */
	const struct pcb_model_column *columns;	/* ended by a NULL head */
	const char *when;		/* a line's */
	const char *line;
};

#define PCB_MODEL_PLOT_SERIES 4

/* a group of a figure's lines: one a configuration, the field against the swept key */
struct pcb_model_series {
	struct pcb_model_field field;
	const char *var;		/* gnuplot's variable for the lines in the group, or NULL */
};

/*
 * A figure against a swept scenario key: for each configuration (a line
 * a design and the other swept keys), each function's Diff % against the
 * configuration with the first swept key at its first value, then each
 * series' field. Drawn by plots/NAME.gp.
 */
struct pcb_model_plot {
	const char *name;		/* NAME.svg, NAME.dat, plots/NAME.gp */
	const char *title;
	const char *help;		/* plot --help's words, broken into lines as printed */
	const char *sweep;		/* the swept key on the x axis: "section.key" */
	const char *gain_var;		/* gnuplot's variable for the Diff % lines, NULL: none */
	struct pcb_model_series series[PCB_MODEL_PLOT_SERIES];	/* ended by a NULL path */
};

/* what a model may add to its design's entry in result.json */
struct pcb_model_figures {
	const struct pcb_model *model;
	const void *config;		/* the model's settings of this configuration */
	const struct pcb_design *design;
	const struct pcb_variant *variant;
	const uint64_t *ev;		/* the model's per-CPU events, summed */
	const struct pcb_stat *fn_total;	/* each row's statistics, all runs */
	double overhead;		/* mean empty-region ticks subtracted */
	double tsc_hz;
	const char *note;		/* what setup() said of its implementation */
};

/* a model's output: struct pcb_model's `output`; every member optional */
struct pcb_model_output {
	/* the model's figures in a design's result.json entry; NULL: "events", each counted */
	void (*result_json)(json_t *design, const struct pcb_model_figures *f);
	const char *note_key;		/* result.json key of setup()'s note; NULL: none */
	const struct pcb_model_block *blocks;	/* ended by a NULL title and line */
	const struct pcb_model_plot *plots;	/* ended by a NULL name */
	const char *caches_name;	/* its caches in the plural on a figure; NULL: caches */
	/*
	 * For results that predate scenario.configuration: the words of the
	 * workers line before and after its runs, {section.key} a setting
	 */
	const char *old_header[2];
	/* results that name no model (written when there was one) are this model's */
	bool default_for_old_results;
};

#endif
