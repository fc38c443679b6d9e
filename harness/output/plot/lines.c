/* SPDX-License-Identifier: MIT */
/*
 * A figure's lines: points added to a line by its name, written as one data
 * block a line (its title, then "x y err rank" rows by x) for the scripts
 * of plots/; and a sweep's value of a design row, the x of its point.
 */
#include <stdlib.h>
#include <string.h>

#include "../../measure/stats.h"
#include "../../schema/schema.h"
#include "lines.h"
#include "plot.h"

/* the line called name, made if new; -1 out of memory */
static int line_of(struct pcb_lines *l, const char *name)
{
	size_t len = strnlen(name, sizeof(l->name[0]) - 1);
	json_t *at;

	if (!l->index && !(l->index = json_object()))
		return -1;
	/* a name cut at 256 bytes may end inside a character: no UTF-8 check */
	at = json_object_getn(l->index, name, len);
	if (at)
		return (int)json_integer_value(at);
	if (json_object_setn_new_nocheck(l->index, name, len, json_integer(l->ns)) < 0)
		return -1;
	if (l->ns == l->scap) {
		int cap = l->scap ? 2 * l->scap : 16;
		void *n = realloc(l->name, cap * sizeof(*l->name));

		if (!n)
			return -1;
		l->name = n;
		l->scap = cap;
	}
	snprintf(l->name[l->ns], sizeof(l->name[0]), "%s", name);
	return l->ns++;
}

int pcb_lines_add(struct pcb_lines *l, const char *name, double x, double y, double e)
{
	int s = line_of(l, name);

	if (s < 0)
		return -1;
	if (l->np == l->pcap) {
		int cap = l->pcap ? 2 * l->pcap : 64;
		void *n = realloc(l->p, cap * sizeof(*l->p));

		if (!n)
			return -1;
		l->p = n;
		l->pcap = cap;
	}
	l->p[l->np++] = (struct pcb_point){ s, x, y, e };
	return 0;
}

void pcb_lines_free(struct pcb_lines *l)
{
	free(l->name);
	free(l->p);
	json_decref(l->index);
	memset(l, 0, sizeof(*l));
}

static int cmp_x(const void *a, const void *b)
{
	const struct pcb_point *p = a, *q = b;

	if (p->s != q->s)
		return p->s - q->s;
	return (p->x > q->x) - (p->x < q->x);
}

/* the distinct x values of every line, sorted, into xs (l->np long); how many */
static int sorted_x(const struct pcb_lines *l, double *xs)
{
	int n = 0;

	for (int i = 0; i < l->np; i++)
		xs[i] = l->p[i].x;
	qsort(xs, l->np, sizeof(*xs), pcb_cmp_double);
	for (int i = 0; i < l->np; i++)
		if (!n || xs[n - 1] != xs[i])
			xs[n++] = xs[i];
	return n;
}

int pcb_lines_distinct_x(const struct pcb_lines *l)
{
	double *xs = malloc((l->np + 1) * sizeof(*xs));
	int n = xs ? sorted_x(l, xs) : 0;

	free(xs);
	return n;
}

int pcb_lines_write(FILE *f, struct pcb_lines *l)
{
	double *xs = malloc((l->np + 1) * sizeof(*xs));
	int nx;

	if (!xs)
		return -1;
	nx = sorted_x(l, xs);
	/* by line, then by x: each line's points are the next ones */
	qsort(l->p, l->np, sizeof(*l->p), cmp_x);
	for (int s = 0, i = 0; s < l->ns; s++) {
		pcb_plot_label(f, l->name[s]);
		fputc('\n', f);
		for (; i < l->np && l->p[i].s == s; i++) {
			double *at = bsearch(&l->p[i].x, xs, nx, sizeof(*xs), pcb_cmp_double);

			fprintf(f, "%.10g\t%.10g\t%.10g\t%d\n", l->p[i].x, l->p[i].y, l->p[i].e,
				(int)(at - xs));
		}
		fputs("\n\n", f);
	}
	free(xs);
	return l->ns;
}

int pcb_lines_figure(struct pcb_plot_set *set, const char *dir, const struct pcb_lines_fig *fig,
		     struct pcb_lines *l, char *err, size_t errlen)
{
	FILE *f = pcb_plot_add(set, dir, fig->name, fig->script, err, errlen);
	struct pcb_plot *p;

	if (!f)
		return -1;
	p = &set->plot[set->n - 1];
	p->series = pcb_lines_write(f, l);
	snprintf(p->title, sizeof(p->title), "%s", fig->title);
	snprintf(p->vars, sizeof(p->vars), "%s", fig->vars);
	return pcb_plot_close(set, f, err, errlen);
}

/* whether k (len bytes) is key, or SECTION.key */
static int key_is(const char *k, size_t len, const char *key)
{
	const char *dot = memchr(k, '.', len);

	if (dot) {
		len -= dot + 1 - k;
		k = dot + 1;
	}
	return len == strlen(key) && !strncmp(k, key, len);
}

int pcb_sweep_value(json_t *dj, const char *key, double *v, char *line, size_t len)
{
	json_t *sw = rj_design_sweep(dj), *x;
	const char *cfg = json_string_value(rj_get(dj, RJ_F_design_config)) ?: "", *k;
	size_t at;
	int found = 0;

	at = snprintf(line, len, "%s", rj_design_design_name(dj));
	if (json_is_object(sw)) {
		json_object_foreach(sw, k, x) {
			char val[128];

			if (json_is_string(x))
				snprintf(val, sizeof(val), "%s", json_string_value(x));
			else
				snprintf(val, sizeof(val), "%g", json_number_value(x));
			if (key_is(k, strlen(k), key)) {
				char *end;

				*v = strtod(val, &end);
				found = end != val && !*end;
			} else if (at < len) {
				const char *dot = strrchr(k, '.');

				at += snprintf(line + at, len - at, " %s=%s", dot ? dot + 1 : k, val);
			}
		}
		return found;
	}
	while (*cfg) {
		size_t w = strcspn(cfg, " "), klen = strcspn(cfg, "=");

		if (klen < w && key_is(cfg, klen, key)) {
			char val[128], *end;

			snprintf(val, sizeof(val), "%.*s", (int)(w - klen - 1), cfg + klen + 1);
			*v = strtod(val, &end);
			found = end != val && !*end;
		} else if (w && at < len) {
			at += snprintf(line + at, len - at, " %.*s", (int)w, cfg);
		}
		cfg += w;
		cfg += strspn(cfg, " ");
	}
	return found;
}
