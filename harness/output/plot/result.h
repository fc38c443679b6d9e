/* SPDX-License-Identifier: MIT */
/* The figures of one result.json, as data files for the scripts of plots/ */
#ifndef PCB_OUTPUT_PLOT_RESULT_H
#define PCB_OUTPUT_PLOT_RESULT_H

#include <stddef.h>

#include <jansson.h>

#include "plot.h"

/* result.json's figures, data into dir; 0, or -1 with err */
int pcb_plot_result_data(json_t *result, const char *dir, struct pcb_plot_set *set,
			 char *err, size_t errlen);

#endif
