/* SPDX-License-Identifier: MIT */
/*
 * compare's CSV (design,config,function,result,label,avg_cycles,stddev,
 * runs,diff_cycles,diff_pct,significant,test, as write/csv.c writes it):
 * checked, then Diff % a function.
 */
#ifndef PCB_OUTPUT_PLOT_COMPARE_H
#define PCB_OUTPUT_PLOT_COMPARE_H

#include <stddef.h>

#include "csv.h"
#include "plot.h"

/* every figure of the table a number, a result to compare; -1 with the file and line */
int pcb_plot_compare_check(struct pcb_csv *cmp, char *err, size_t errlen);
/* the figure NAME into dir */
int pcb_plot_compare_data(struct pcb_csv *cmp, const char *name, const char *dir,
			  struct pcb_plot_set *set, char *err, size_t errlen);

#endif
