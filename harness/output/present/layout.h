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
/* the columns a paragraph takes where the output sets no width (a terminal's text) */
#define PCB_TEXT_WIDTH 100

/* how the tables show a result */
struct pcb_table_opts {
	/*
	 * run --raw, report --raw: the result is marked to be read raw
	 * (pcb_result_set_raw()) before anything prints or writes it; the
	 * tables read the result's own (pcb_result_raw())
	 */
	int raw;
	int width;			/* 0, or the columns a line may take (a cover letter's 72) */
};

/* the head of a Diff %'s interval column (read/interval.h) */
#define PCB_DIFF_CI_HEAD "CI (Holm)"

/* what a legend of Diff blocks says */
struct pcb_diff_legend {
	int width;			/* filled to it (0: PCB_TEXT_WIDTH) */
	const char *star;		/* the mark as written ("*", markdown's "\\*") */
	int any_sig;			/* a row is marked */
	size_t n;			/* the differences tested together */
	double lo, hi;			/* their intervals' lowest and highest confidence */
	const char *whom;		/* what they are of ("above", "from A") */
	const char *more;		/* the blocks' own words (the geometric mean's), or NULL */
};

void pcb_diff_legend(FILE *out, const struct pcb_diff_legend *l);
/* the confidences of intervals from lo to hi: "99.17% to 99.38%", or one where they agree */
const char *pcb_levels_text(char *buf, size_t len, double lo, double hi);

/*
 * The unit and the means, said once at the top of every text: "cycles:
 * TSC cycles at 2394.5 MHz (step 1); means net, ..." or raw
 */
const char *pcb_cycles_text(json_t *result, char *buf, size_t len);

/*
 * a Diff row's last two cells, its Diff % at column at and its interval: the
 * interval beside it, or, where that would pass opts->width, on a line of
 * its own under the Diff %
 */
void pcb_pct_ci_cells(FILE *out, const char *pct, const char *ci, int at,
		      const struct pcb_table_opts *opts);

/* a mean's column as the tables head it: the result's means, raw or net */
const char *pcb_mean_head(int raw);

/*
 * A paragraph of prose, filled to width columns (0: PCB_TEXT_WIDTH), its
 * first line indented as its text begins, the others two more: filled as a
 * whole, so that no folding later breaks a line inside it
 */
void pcb_paragraph(FILE *out, int width, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* the first column for a label s: its width and two, at least 24 */
int pcb_first_col(const char *s);
/*
 * s as Markdown text, in prose or a table's cell: HTML's <, > and & as
 * entities, |, `, \, [ and ] escaped, a line break a blank; so that a
 * result's names and descriptions are shown, never rendered as HTML,
 * cells or links
 */
void pcb_md_put(FILE *out, const char *s);
/*
 * A block's first column: the title's width, or, where the block would pass
 * opts->width (rest: the columns after the first), 24 with the title on a
 * line of its own; *head is what the header row's first column shows.
 */
int pcb_title_col(FILE *out, const char *title, int rest, const struct pcb_table_opts *opts,
		  const char **head);

/* the empty regions the workers subtracted, "lo-hi" cycles (or one figure), else base */
void pcb_subtracted_text(json_t *result, double base, char *buf, size_t len);
/*
 * a setting's value as the tables say it: value, or where key is swept
 * "each configuration's (section.key = v1, v2)" in buf (result.json's
 * settings are the first configuration's)
 */
const char *pcb_swept_text(json_t *result, int key, const char *value, char *buf, size_t len);
/* run.runs as the tables say it: the count, what auto did, or a sweep's values */
const char *pcb_runs_setting(json_t *result, char *buf, size_t len);

/* the noise gate's mark, beside a STDDEV whose row is unstable */
#define PCB_UNSTABLE_MARK "!"
/* sd as a STDDEV column shows it, marked where unstable is true; *noisy set then */
void pcb_stddev_text(char *buf, size_t len, double sd, json_t *unstable, int *noisy);
/* the noise gate's legend, under the blocks it marked, filled to width (0: PCB_TEXT_WIDTH) */
void pcb_unstable_legend(FILE *out, json_t *result, int width);

#endif
