/* SPDX-License-Identifier: MIT */
/*
 * A sweep over the worker count as will-it-scale sums one up: per design
 * (and every other swept key), per worker count, the cycles a call of each
 * function against the ideal, the fewest workers' figure held at every
 * count (linear scaling keeps a call's cost), and the efficiency, ideal
 * over measured; and the operations a second against will-it-scale's
 * linear column, the fewest workers' rate times the workers.
 */
#ifndef PCB_OUTPUT_READ_SCALING_H
#define PCB_OUTPUT_READ_SCALING_H

#include <jansson.h>

#define PCB_SCALING_MAX 256

struct pcb_scaling_row {
	char line[256];			/* the design and every swept key but the workers */
	const char *function;		/* NULL: the design's operations a second */
	int workers;
	double value;			/* cycles a call, or operations a second */
	double ideal;			/* the fewest workers' cycles, or their rate scaled */
	double efficiency;		/* ideal / value for cycles, value / ideal for a rate */
};

struct pcb_scaling {
	struct pcb_scaling_row row[PCB_SCALING_MAX];
	int n;
};

/* the rows of a result whose designs run at two or more worker counts; 0 rows else */
int pcb_scaling_rows(json_t *result, struct pcb_scaling *s);

#endif
