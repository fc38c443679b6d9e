/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "../../schema/schema.h"
#include "query.h"
#include "rows.h"
#include "scaling.h"

/* the design row's line: its design and its configuration's words but workers= */
static void line_of(json_t *dj, char *buf, size_t len)
{
	const char *cfg = rj_design_has_config(dj) ? rj_design_config(dj) : "";
	size_t at = (size_t)snprintf(buf, len, "%s", rj_design_design_name(dj));

	while (*cfg) {
		size_t w = strcspn(cfg, " ");

		if (strncmp(cfg, "workers=", 8) && at < len)
			at += (size_t)snprintf(buf + at, len - at, " %.*s", (int)w, cfg);
		cfg += w;
		cfg += strspn(cfg, " ");
	}
}

static int workers_of(json_t *dj)
{
	return rj_design_has_workers(dj) ? (int)json_array_size(rj_design_workers(dj)) : 0;
}

/* the design row of a line's rows with the fewest workers; *several: it has rows of other counts */
static json_t *fewest(json_t *rows, int *several)
{
	json_t *best = NULL, *dj;
	size_t i;

	*several = 0;
	json_array_foreach(rows, i, dj) {
		int w = workers_of(dj);

		if (w <= 0)
			continue;
		if (best && w != workers_of(best))
			*several = 1;
		if (!best || w < workers_of(best))
			best = dj;
	}
	return best;
}

static double rate_of(json_t *dj)
{
	double s = rj_design_has_run_seconds(dj) ? rj_design_run_seconds(dj) : 0;
	double runs = rj_design_has_runs(dj) ? (double)rj_design_runs(dj) : 0;

	if (!rj_design_has_ops(dj) || s <= 0 || runs <= 0)
		return 0;
	return (double)rj_design_ops(dj) / (runs * s);
}

static struct pcb_scaling_row *add_row(struct pcb_scaling *s, const char *line, int workers)
{
	struct pcb_scaling_row *r;

	if (s->n == PCB_SCALING_MAX)
		return NULL;
	r = &s->row[s->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->line, sizeof(r->line), "%s", line);
	r->workers = workers;
	return r;
}

/* one design row's figures against its line's fewest workers' */
static void design_rows(struct pcb_scaling *s, json_t *result, json_t *dj, json_t *base,
			const char *line)
{
	json_t *functions = rj_top_functions(result), *fj;
	int w = workers_of(dj), w0 = workers_of(base);
	double rate = rate_of(dj), rate0 = rate_of(base);
	int raw = pcb_result_raw(result);
	struct pcb_scaling_row *r;
	size_t i;

	json_array_foreach(pcb_rows_where(functions, RJ_F_fn_design, rj_design_design(dj)), i, fj) {
		json_t *b = pcb_function_row(functions, rj_design_design(base), rj_fn_function(fj));
		if (!b || pcb_fn_mean(fj, raw) <= 0 || !(r = add_row(s, line, w)))
			continue;
		r->function = rj_fn_function(fj);
		r->value = pcb_fn_mean(fj, raw);
		r->ideal = pcb_fn_mean(b, raw);
		r->efficiency = r->ideal / r->value;
	}
	if (rate > 0 && rate0 > 0 && (r = add_row(s, line, w))) {
		r->value = rate;
		r->ideal = rate0 * w / w0;
		r->efficiency = r->value / r->ideal;
	}
}

/* the lines of designs, each with its design rows in the result's order, in order of first row */
static json_t *lines_of(json_t *designs, json_t **order)
{
	json_t *lines = json_object(), *dj, *rows;
	size_t i;

	*order = json_array();
	json_array_foreach(designs, i, dj) {
		char line[256];

		line_of(dj, line, sizeof(line));
		/* a line cut at 256 bytes may end inside a character: no UTF-8 check */
		rows = json_object_getn(lines, line, strlen(line));
		if (!rows) {
			rows = json_array();
			json_object_setn_new_nocheck(lines, line, strlen(line), rows);
			json_array_append(*order, rows);
		}
		json_array_append(rows, dj);
	}
	return lines;
}

int pcb_scaling_rows(json_t *result, struct pcb_scaling *s)
{
	json_t *order, *lines = lines_of(rj_top_designs(result), &order), *rows, *dj;
	size_t i, k;

	s->n = 0;
	json_array_foreach(order, i, rows) {
		char line[256];
		int several;
		json_t *base = fewest(rows, &several);

		if (!base || !several)
			continue;
		line_of(base, line, sizeof(line));
		/* the line's rows by worker count, in the result's order */
		json_array_foreach(rows, k, dj)
			if (workers_of(dj) > 0)
				design_rows(s, result, dj, base, line);
	}
	json_decref(order);
	json_decref(lines);
	return s->n;
}
