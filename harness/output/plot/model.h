/* SPDX-License-Identifier: MIT */
/* The figures a result's model declares, against a key it sweeps */
#ifndef PCB_OUTPUT_PLOT_MODEL_H
#define PCB_OUTPUT_PLOT_MODEL_H

#include <stddef.h>

#include <jansson.h>

#include "plot.h"

/* the result's model's figures, data into dir; 0, or -1 with err */
int pcb_plot_model_data(json_t *result, const char *dir, struct pcb_plot_set *set,
			char *err, size_t errlen);

#endif
