/* SPDX-License-Identifier: MIT */
/*
 * plot: the figures of a result, drawn by gnuplot from small data files.
 * plot_data.c turns result.json into tab-separated data blocks, one block
 * a line of the figure with its title on the first row (gnuplot's
 * columnheader); plot_tables.c does the same for the per-node nodes.csv and
 * compare's CSV; plot_run.c runs the scripts of plots/ on them and writes
 * the index pages. Nothing here reads tables.txt.
 */
#ifndef PCB_PLOT_H
#define PCB_PLOT_H

#include <jansson.h>
#include <stdio.h>

#define PCB_PLOT_MAX 64

/* where gnuplot and the scripts are, checked before anything is written */
struct pcb_plot_env {
	char gnuplot[4096];
	char scripts[4096];
	/* when set and true, render stops before the next gnuplot run */
	int (*interrupted)(void);
};

/* one figure: NAME.svg and NAME.png from SCRIPT.gp on NAME.dat */
struct pcb_plot {
	char name[128];
	char script[32];
	char title[256];
	char vars[512];			/* more gnuplot assignments, "k=v; ..." */
	int series;			/* data blocks in NAME.dat */
};

struct pcb_plot_set {
	struct pcb_plot plot[PCB_PLOT_MAX];
	int n;
};

/*
 * a label as one field of a data file's line: control characters as
 * blanks; in double quotes where gnuplot would read a comment or a quote
 */
void pcb_plot_label(FILE *f, const char *s);
/* index.html's text: markup characters as references, C0, DEL and C1 as blanks */
void pcb_plot_html(FILE *f, const char *s);
/* a new figure in set whose data go to DIR/NAME.dat; NULL with err when full or unwritable */
FILE *pcb_plot_add(struct pcb_plot_set *set, const char *dir, const char *name,
		   const char *script, char *err, size_t errlen);
/* close a figure's data file; drops the figure when it has no series */
int pcb_plot_close(struct pcb_plot_set *set, FILE *f, char *err, size_t errlen);

/* result.json's figures, data into dir */
int pcb_plot_result_data(json_t *result, const char *dir, struct pcb_plot_set *set,
			 char *err, size_t errlen);

/*
 * nodes.csv of a per-node run (node,design,config,function,timing,
 * avg_cycles,stddev,calls): checked into a table first, then a heat map a
 * function. compare's CSV (design,config,function,result,label,avg_cycles,
 * stddev,runs,diff_cycles,diff_pct,significant,test): Diff % a function.
 */
struct pcb_csv;
struct pcb_csv *pcb_csv_load(const char *path, const char *header, char *err, size_t errlen);
void pcb_csv_free(struct pcb_csv *csv);
/* every figure of the table a number; -1 with the file and line */
int pcb_plot_nodes_check(struct pcb_csv *nodes, char *err, size_t errlen);
int pcb_plot_compare_check(struct pcb_csv *cmp, char *err, size_t errlen);
int pcb_plot_nodes_data(struct pcb_csv *nodes, const char *dir, struct pcb_plot_set *set,
			char *err, size_t errlen);
int pcb_plot_compare_data(struct pcb_csv *cmp, const char *name, const char *dir,
			  struct pcb_plot_set *set, char *err, size_t errlen);

/* the CSVs plot reads: PCB_NODES_HEADER (summary.h), PCB_COMPARE_HEADER (compare.h) */
#include "compare.h"
#include "summary.h"

/* gnuplot and plots/ (PCPBENCH_GNUPLOT, PCPBENCH_PLOTS override); -1 with err */
int pcb_plot_env_find(struct pcb_plot_env *env, char *err, size_t errlen);
/* every figure of set as dir/NAME.svg and dir/NAME.png, and dir/index.html */
int pcb_plot_render(const struct pcb_plot_env *env, const struct pcb_plot_set *set,
		    const char *dir, const char *heading, char *err, size_t errlen);

#endif
