/* SPDX-License-Identifier: MIT */
/*
 * plot: the figures of a result, drawn by gnuplot from small data files.
 * result.c turns result.json into tab-separated data blocks, one block a
 * line of the figure with its title on the first row (gnuplot's
 * columnheader), through lines.c (and model.c for the model's figures);
 * nodes.c and compare.c do the same for the per-node nodes.csv and
 * compare's CSV (csv.c reads them); plot.c runs the scripts of plots/ on
 * them and writes the index pages. Everything is read through read/;
 * nothing here reads tables.txt or asks the text tables.
 */
#ifndef PCB_OUTPUT_PLOT_PLOT_H
#define PCB_OUTPUT_PLOT_PLOT_H

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

/* gnuplot and plots/ (PCPBENCH_GNUPLOT, PCPBENCH_PLOTS override); -1 with err */
int pcb_plot_env_find(struct pcb_plot_env *env, char *err, size_t errlen);
/* every figure of set as dir/NAME.svg and dir/NAME.png, and dir/index.html */
int pcb_plot_render(const struct pcb_plot_env *env, const struct pcb_plot_set *set,
		    const char *dir, const char *heading, char *err, size_t errlen);

#endif
