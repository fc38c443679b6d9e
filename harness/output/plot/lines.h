/* SPDX-License-Identifier: MIT */
/* The lines of a figure, written as gnuplot's data blocks, and a sweep's x of a design row */
#ifndef PCB_OUTPUT_PLOT_LINES_H
#define PCB_OUTPUT_PLOT_LINES_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "plot.h"

/* a point of the line s */
struct pcb_point {
	int s;
	double x, y, e;
};

/* the lines of a figure and their points */
struct pcb_lines {
	char (*name)[256];
	int ns, scap;
	struct pcb_point *p;
	int np, pcap;
	json_t *index;			/* name -> its line */
};

/* a figure of lines: its data file's name, its script, what gnuplot is told */
struct pcb_lines_fig {
	char name[64];
	const char *script;
	char title[256];
	char vars[512];
};

/* a point (x, y, error e) on the line called name; -1 out of memory */
int pcb_lines_add(struct pcb_lines *l, const char *name, double x, double y, double e);
void pcb_lines_free(struct pcb_lines *l);
/* the distinct x values over every line */
int pcb_lines_distinct_x(const struct pcb_lines *l);
/*
 * One block a line: its title, then "x y err rank" rows by x, where rank
 * is x's place among every x of the figure (for a categorical axis); how
 * many lines, or -1 out of memory
 */
int pcb_lines_write(FILE *f, struct pcb_lines *l);
/* fig's data from l's lines into dir, its figure added to set; 0, or -1 with err */
int pcb_lines_figure(struct pcb_plot_set *set, const char *dir, const struct pcb_lines_fig *fig,
		     struct pcb_lines *l, char *err, size_t errlen);

/*
 * The value of sweep key `key` (its last name, "rate_hz" for
 * drain.rate_hz) for design row dj, and the row's line name without it:
 * "spinlock think_ns=0" for the row "rate_hz=10 think_ns=0". 0 when absent.
 */
int pcb_sweep_value(json_t *dj, const char *key, double *v, char *line, size_t len);

#endif
