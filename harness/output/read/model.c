/* SPDX-License-Identifier: MIT */
/*
 * What a result's model declares for the output (model_output.h): the
 * templates of its lines, the figures its blocks and plots read, checked
 * through the schema's one error path when a result is read back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../schema/schema.h"
#include "model.h"
#include "query.h"

int pcb_template_next(const char **s, struct pcb_template_part *p)
{
	const char *open = strchr(*s, '{'), *close = open ? strchr(open, '}') : NULL;
	const char *colon;

	if (!**s)
		return 0;
	p->text = *s;
	p->path[0] = 0;
	p->decimals = PCB_COUNT;
	if (!open || !close) {
		p->len = strlen(*s);
		*s += p->len;
		return 1;
	}
	p->len = (size_t)(open - *s);
	colon = memchr(open, ':', (size_t)(close - open));
	snprintf(p->path, sizeof(p->path), "%.*s", (int)((colon ? colon : close) - open - 1),
		 open + 1);
	if (colon && colon[1] == 's')
		p->decimals = PCB_TEXT;
	else if (colon)
		p->decimals = (int)strtol(colon + 1, NULL, 10);
	*s = close + 1;
	return 1;
}

const char *pcb_model_field_text(json_t *dj, const struct pcb_model_field *f, char *buf,
				 size_t len)
{
	json_t *v = rj_path(dj, f->path);

	if (f->decimals == PCB_TEXT)
		snprintf(buf, len, "%s", json_is_string(v) ? json_string_value(v) : "?");
	else if (f->decimals == PCB_COUNT)
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else
		snprintf(buf, len, "%.*f", f->decimals,
			 json_number_value(v) * (f->scale ? f->scale : 1));
	return buf;
}

/* a figure a declaration reads: there (when required), and a count, a number or a text */
static int check_field(json_t *dj, const char *at, const struct pcb_model_field *f,
		       int required, char *err, size_t errlen)
{
	enum rj_type t = f->decimals == PCB_COUNT ? RJ_INT : f->decimals == PCB_TEXT ? RJ_STR :
			 RJ_NUM;
	char where[1024];

	snprintf(where, sizeof(where), "%s.%s", at, f->path);
	return rj_check_value(rj_path(dj, f->path), t, required, where, err, errlen);
}

/* the figures of a design's entry that m's blocks and plots will print */
static int check_entry(const struct pcb_model *m, json_t *dj, const char *at, char *err,
		       size_t errlen)
{
	for (const struct pcb_model_block *b = pcb_model_output(m).blocks;
	     b && (b->title || b->line); b++) {
		struct pcb_template_part p;
		const char *s = b->line;

		if (b->title && rj_path(dj, b->columns[0].field.path))
			for (int c = 0; b->columns[c].head; c++)
				if (check_field(dj, at, &b->columns[c].field, 1, err, errlen) < 0)
					return -1;
		while (!b->title && rj_path(dj, b->when) && pcb_template_next(&s, &p)) {
			struct pcb_model_field f = { .path = p.path, .decimals = p.decimals };

			if (p.path[0] && check_field(dj, at, &f, 1, err, errlen) < 0)
				return -1;
		}
	}
	for (const struct pcb_model_plot *pl = pcb_model_output(m).plots; pl && pl->name; pl++)
		for (int k = 0; k < PCB_MODEL_PLOT_SERIES && pl->series[k].field.path; k++)
			if (check_field(dj, at, &pl->series[k].field, 0, err, errlen) < 0)
				return -1;
	return 0;
}

int pcb_model_check(json_t *result, char *err, size_t errlen)
{
	const struct pcb_model *m = pcb_result_model(result);
	char at[64];
	json_t *dj;
	size_t i;

	if (!m)
		return 0;
	json_array_foreach(rj_top_designs(result), i, dj) {
		snprintf(at, sizeof(at), "designs[%zu]", i);
		if (check_entry(m, dj, at, err, errlen) < 0)
			return -1;
	}
	return 0;
}
