/* SPDX-License-Identifier: MIT */
/* will-it-scale's summary of a sweep over the worker count, from read/scaling.h's rows */
#include <stdio.h>
#include <string.h>

#include "../read/query.h"
#include "../read/scaling.h"
#include "layout.h"
#include "tables_scaling.h"

void pcb_tables_scaling(FILE *out, json_t *result)
{
	static struct pcb_scaling s;
	const char *last = "";
	int w = 24;

	if (!pcb_scaling_rows(result, &s))
		return;
	for (int i = 0; i < s.n; i++) {
		const struct pcb_scaling_row *r = &s.row[i];
		char label[128];

		if (strcmp(r->line, last)) {
			char title[300];

			snprintf(title, sizeof(title), "%s scaling", r->line);
			w = pcb_first_col(title);
			fprintf(out, "%s%-*s%-10s%-14s%-14s%s\n", i ? "\n" : "", w, title, "workers",
				r->function ? pcb_mean_head(pcb_result_raw(result)) : "value", "ideal",
				"efficiency");
			last = r->line;
		}
		snprintf(label, sizeof(label), "%s:", r->function ? r->function : "operations/s");
		fprintf(out, r->function ? "%-*s%-10d%-14.2f%-14.2f%.1f%%\n" :
			"%-*s%-10d%-14.4g%-14.4g%.1f%%\n", w, label, r->workers, r->value, r->ideal,
			100 * r->efficiency);
	}
	fprintf(out, "\n");
	pcb_paragraph(out, 0, "scaling: a function's ideal is the fewest workers' cycles a call "
		      "(linear scaling keeps a call's cost), its efficiency ideal over measured; "
		      "operations/s against the fewest workers' rate times the workers "
		      "(will-it-scale's linear)");
	fprintf(out, "\n");
}
