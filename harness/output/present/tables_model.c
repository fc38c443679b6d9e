/* SPDX-License-Identifier: MIT */
/*
 * The blocks a result's model declares (model_output.h), printed after the
 * function tables as its declarations say: a table of a figure a column,
 * or a line a design from a template.
 */
#include <stdio.h>

#include "../../schema/schema.h"
#include "../read/model.h"
#include "../read/query.h"
#include "layout.h"
#include "tables_model.h"

void pcb_template_print(FILE *out, const char *tmpl,
			const char *(*value)(const struct pcb_template_part *p, void *arg,
					     char *buf, size_t len),
			void *arg)
{
	struct pcb_template_part p;
	char buf[128];

	while (pcb_template_next(&tmpl, &p)) {
		fprintf(out, "%.*s", (int)p.len, p.text);
		if (p.path[0])
			fputs(value(&p, arg, buf, sizeof(buf)), out);
	}
}

/* a template's field, from the design entry dj */
static const char *entry_value(const struct pcb_template_part *p, void *dj, char *buf,
			       size_t len)
{
	struct pcb_model_field f = { .path = p->path, .decimals = p->decimals };

	return pcb_model_field_text(dj, &f, buf, len);
}

/* a table block: a row for each design with the first column's figure */
static void print_table(FILE *out, json_t *designs, const struct pcb_model_block *b)
{
	const struct pcb_model_column *col = b->columns;
	int shown = 0;
	json_t *dj;
	size_t i;

	json_array_foreach(designs, i, dj) {
		const char *d = rj_design_design(dj);
		char buf[64];

		if (!rj_path(dj, col[0].field.path))
			continue;
		if (!shown++) {
			fprintf(out, "%-24s", b->title);
			for (int c = 0; col[c].head; c++)
				fprintf(out, "%-*s", col[c + 1].head ? col[c].width : 0, col[c].head);
			fprintf(out, "\n");
		}
		fprintf(out, "%-*s", pcb_first_col(d), d);
		for (int c = 0; col[c].head; c++)
			fprintf(out, "%-*s", col[c + 1].head ? col[c].width : 0,
				pcb_model_field_text(dj, &col[c].field, buf, sizeof(buf)));
		fprintf(out, "\n");
	}
	if (shown)
		fprintf(out, "\n");
}

void pcb_tables_model(FILE *out, json_t *result)
{
	const struct pcb_model *m = pcb_result_model(result);
	json_t *designs = rj_top_designs(result), *dj;
	size_t i;

	for (const struct pcb_model_block *b = pcb_model_output(m).blocks;
	     b && (b->title || b->line); b++) {
		if (b->title) {
			print_table(out, designs, b);
			continue;
		}
		json_array_foreach(designs, i, dj) {
			if (!rj_path(dj, b->when))
				continue;
			fprintf(out, "%s: ", rj_design_design(dj));
			pcb_template_print(out, b->line, entry_value, dj);
			fprintf(out, "\n");
		}
	}
}
