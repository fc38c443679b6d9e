/* SPDX-License-Identifier: MIT */
/*
 * The figures of one result.json, as data blocks for the scripts of plots/: cycles
 * per function (seed 000's 2.2 tables as grouped bars), drain cost against
 * the caches it walks (its drain table), contention per drain against the
 * drain rate and think time (2.3), the isolated worker's interruption
 * histogram (oslat's buckets), scaling efficiency against the worker count
 * (will-it-scale's summary, scaling.h), and the figures a model declares
 * against a key it sweeps (model_output.h). A sweep's values come from each design
 * row: its "sweep" object where there is one, else its "config" string of
 * key=value words.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../model_output.h"
#include "../schema/schema.h"
#include "plot.h"
#include "result.h"
#include "rows.h"
#include "scaling.h"
#include "tables.h"
#include "textout.h"

struct pt {
	int s;
	double x, y, e;
};

/* the lines of a figure and their points */
struct lines {
	char (*name)[256];
	int ns, scap;
	struct pt *p;
	int np, pcap;
	json_t *index;			/* name -> its line */
};

/* a string field, "" when absent */
static const char *text(json_t *o, enum rj_field f)
{
	return json_string_value(rj_get(o, f)) ?: "";
}

/* a tab would split a label, a line break end its line, a '#' first make it a comment */
void pcb_plot_label(FILE *f, const char *s)
{
	int quote = s[strspn(s, " ")] == '#' || strchr(s, '"');

	if (quote)
		fputc('"', f);
	for (int n; *s; s += n ? n : 1) {
		n = pcb_control_bytes(s);
		fputc(n ? ' ' : *s == '"' ? '\'' : *s, f);
	}
	if (quote)
		fputc('"', f);
}

static int line_of(struct lines *l, const char *name)
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

static int add_pt(struct lines *l, const char *name, double x, double y, double e)
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
	l->p[l->np++] = (struct pt){ s, x, y, e };
	return 0;
}

static void lines_free(struct lines *l)
{
	free(l->name);
	free(l->p);
	json_decref(l->index);
	memset(l, 0, sizeof(*l));
}

static int cmp_x(const void *a, const void *b)
{
	const struct pt *p = a, *q = b;

	if (p->s != q->s)
		return p->s - q->s;
	return (p->x > q->x) - (p->x < q->x);
}

/* the distinct x values of every line, sorted, into xs (l->np long); how many */
static int sorted_x(const struct lines *l, double *xs)
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

static int distinct_x(const struct lines *l)
{
	double *xs = malloc((l->np + 1) * sizeof(*xs));
	int n = xs ? sorted_x(l, xs) : 0;

	free(xs);
	return n;
}

/*
 * One block a line: its title, then "x y err rank" rows by x, where rank
 * is x's place among every x of the figure (for a categorical axis).
 */
static int write_lines(FILE *f, struct lines *l)
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

/* a figure of lines: its data file's name, its script, what gnuplot is told */
struct lines_fig {
	char name[64];
	const char *script;
	char title[256];
	char vars[512];
};

/* fig's data from l's lines into dir, its figure added to set; 0, or -1 with err */
static int lines_figure(struct pcb_plot_set *set, const char *dir, const struct lines_fig *fig,
			struct lines *l, char *err, size_t errlen)
{
	FILE *f = pcb_plot_add(set, dir, fig->name, fig->script, err, errlen);
	struct pcb_plot *p;

	if (!f)
		return -1;
	p = &set->plot[set->n - 1];
	p->series = write_lines(f, l);
	snprintf(p->title, sizeof(p->title), "%s", fig->title);
	snprintf(p->vars, sizeof(p->vars), "%s", fig->vars);
	return pcb_plot_close(set, f, err, errlen);
}

static int key_is(const char *k, size_t len, const char *key)
{
	const char *dot = memchr(k, '.', len);

	if (dot) {
		len -= dot + 1 - k;
		k = dot + 1;
	}
	return len == strlen(key) && !strncmp(k, key, len);
}

/*
 * The value of sweep key `key` (its last name, "rate_hz" for
 * drain.rate_hz) for design row dj, and the row's line name without it:
 * "spinlock think_ns=0" for the row "rate_hz=10 think_ns=0". 0 when absent.
 */
static int sweep_value(json_t *dj, const char *key, double *v, char *line, size_t len)
{
	json_t *sw = rj_design_sweep(dj), *x;
	const char *cfg = text(dj, RJ_F_design_config), *k;
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

/* cycles per call: functions on the axis, a bar a design, the run means' spread */
static int functions_data(json_t *result, const char *dir, struct pcb_plot_set *set,
			  char *err, size_t errlen)
{
	json_t *designs = rj_top_designs(result);
	json_t *functions = rj_top_functions(result), *x, *dj;
	size_t i, k;
	FILE *f;

	if (!json_array_size(functions))
		return 0;
	f = pcb_plot_add(set, dir, "functions", "functions", err, errlen);
	if (!f)
		return -1;
	fputs("function", f);
	json_array_foreach(designs, k, dj) {
		fputc('\t', f);
		pcb_plot_label(f, rj_design_design(dj));
		fputs("\t-", f);
	}
	fputc('\n', f);
	json_array_foreach(functions, i, x) {
		if (pcb_row_where(functions, RJ_F_fn_function, rj_fn_function(x)) != x)
			continue;
		pcb_plot_label(f, rj_fn_function(x));
		json_array_foreach(designs, k, dj) {
			json_t *rows = pcb_rows_where2(functions, RJ_F_fn_function, rj_fn_function(x),
						       RJ_F_fn_design, rj_design_design(dj));
			json_t *row = json_array_get(rows, json_array_size(rows) - 1);

			if (row)
				fprintf(f, "\t%.10g\t%.10g", rj_fn_avg_cycles(row), rj_fn_stddev(row));
			else
				fputs("\t?\t?", f);
		}
		fputc('\n', f);
	}
	set->plot[set->n - 1].series = json_array_size(designs);
	snprintf(set->plot[set->n - 1].title, sizeof(set->plot[0].title),
		 "%s: cycles per call (mean of the run means, error bar their stddev)",
		 text(rj_top_scenario(result), RJ_F_sc_name));
	return pcb_plot_close(set, f, err, errlen);
}

/* drain cost against the caches walked, a line a design (seed 000's drain table) */
static int drains_data(json_t *result, const char *dir, struct pcb_plot_set *set,
		       char *err, size_t errlen)
{
	const char *fn = text(rj_top_scenario(result), RJ_F_sc_drain_function);
	const struct pcb_model *m = pcb_result_model(result);
	struct lines l = { 0 };
	json_t *x;
	size_t i;
	int rc = 0;

	json_array_foreach(rj_top_drains(result), i, x) {
		json_t *dj = find_design(result, rj_drain_design(x));
		double caches = (double)rj_drain_caches(x), v;
		char line[256];

		if (!dj || rj_drain_count(x) <= 0 || rj_drain_avg_cycles(x) <= 0 || caches <= 0)
			continue;
		/* a line: the design and every swept key but the caches', on the axis */
		sweep_value(dj, pcb_key_get(K_DRAIN_CACHES)->name, &v, line, sizeof(line));
		if (add_pt(&l, line, caches, rj_drain_avg_cycles(x), rj_drain_stddev(x)) < 0)
			rc = -1;
	}
	if (!rc && distinct_x(&l) >= 2) {
		const char *caches = m && m->caches_name ? m->caches_name : "caches";
		struct lines_fig fig = { .name = "drains", .script = "drains" };

		snprintf(fig.title, sizeof(fig.title), "%s(): cycles per drain against %s",
			 *fn ? fn : "drain", caches);
		snprintf(fig.vars, sizeof(fig.vars), "xname='%s'", caches);
		rc = lines_figure(set, dir, &fig, &l, err, errlen);
	} else if (rc) {
		snprintf(err, errlen, "out of memory");
	}
	lines_free(&l);
	return rc;
}

/* a figure's x axis: a swept key (its last name) and what the axis says */
struct sweep_axis {
	const char *key, *name;
};

/* contentions per drain, each side, against a swept drain rate or think time */
static int contention_data(json_t *result, const struct sweep_axis *ax, const char *dir,
			   struct pcb_plot_set *set, char *err, size_t errlen)
{
	const char *key = ax->key, *axis = ax->name;
	json_t *cont = rj_top_contention(result), *dj, *x;
	struct lines l = { 0 };
	double xmin = INFINITY;
	size_t i, j;
	int rc = 0;

	if (!json_is_array(cont))
		return 0;
	json_array_foreach(rj_top_designs(result), i, dj) {
		double v, drains = (double)rj_design_drains(dj), worker = 0, drainer = 0;
		char line[256], name[300];

		if (!sweep_value(dj, key, &v, line, sizeof(line)) || drains <= 0)
			continue;
		json_array_foreach(pcb_rows_where(cont, RJ_F_cont_design, rj_design_design(dj)), j, x) {
			if (!strcmp(text(x, RJ_F_cont_side), "coordinator"))
				drainer += (double)rj_cont_contended(x);
			else
				worker += (double)rj_cont_contended(x);
		}
		snprintf(name, sizeof(name), "%s, on the workers", line);
		rc |= add_pt(&l, name, v, worker / drains, 0);
		snprintf(name, sizeof(name), "%s, on the drainer", line);
		rc |= add_pt(&l, name, v, drainer / drains, 0);
		if (v < xmin)
			xmin = v;
	}
	if (!rc && distinct_x(&l) >= 2) {
		struct lines_fig fig = { .script = "contention" };

		snprintf(fig.name, sizeof(fig.name), "contention-%s", key);
		snprintf(fig.title, sizeof(fig.title),
			 "contended lock acquisitions per drain against %s", axis);
		snprintf(fig.vars, sizeof(fig.vars), "logx=%d; xname='%s'", xmin > 0, axis);
		rc = lines_figure(set, dir, &fig, &l, err, errlen);
	} else if (rc) {
		snprintf(err, errlen, "out of memory");
	}
	lines_free(&l);
	return rc;
}

/* whether cpu is in the CPU list s ("1,4-7") */
static int in_cpulist(const char *s, long cpu)
{
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return 0;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (cpu >= a && cpu <= b)
			return 1;
		s = end + strspn(end, ", ");
	}
	return 0;
}

/*
 * Interruptions of the isolated workers (the machine's isolated CPUs where
 * a worker ran on one, else every worker), a line a design: count per
 * latency bucket as oslat prints them, both axes log-scaled.
 */
static int interruptions_data(json_t *result, const char *dir, struct pcb_plot_set *set,
			      char *err, size_t errlen)
{
	json_t *rows = rj_top_interruptions(result), *x, *b;
	const char *iso = text(rj_top_context(result), RJ_F_ctx_isolated);
	struct lines l = { 0 };
	int only_isolated = 0, rc = 0;
	size_t i, k;

	json_array_foreach(rows, i, x)
		only_isolated |= in_cpulist(iso, (long)rj_irq_cpu(x));
	json_array_foreach(rows, i, x) {
		long cpu = (long)rj_irq_cpu(x);
		char name[300];

		if (only_isolated && !in_cpulist(iso, cpu))
			continue;
		snprintf(name, sizeof(name), "%s, CPU %ld%s", rj_irq_design(x), cpu,
			 only_isolated ? " (isolated)" : "");
		json_array_foreach(rj_irq_histogram(x), k, b) {
			double lo = json_number_value(json_array_get(b, 0));
			double n = json_number_value(json_array_get(b, 1));

			if (lo > 0 && n > 0)
				rc |= add_pt(&l, name, lo / 1000, n, 0);
		}
	}
	if (!rc && l.ns) {
		struct lines_fig fig = { .name = "interruptions", .script = "interruptions" };

		snprintf(fig.title, sizeof(fig.title),
			 "interruptions of %s worker: count per latency bucket",
			 only_isolated ? "the isolated" : "each");
		rc = lines_figure(set, dir, &fig, &l, err, errlen);
	} else if (rc) {
		snprintf(err, errlen, "out of memory");
	}
	lines_free(&l);
	return rc;
}

/*
 * The configuration a sweep row is compared with, as the tables do: the
 * first swept key at its first value, the others as they are.
 */
static json_t *sweep_baseline(json_t *designs, json_t *dj)
{
	const char *first = text(json_array_get(designs, 0), RJ_F_design_config);
	const char *cfg = text(dj, RJ_F_design_config), *rest = strchr(cfg, ' ');
	char want[1024];
	json_t *x;

	snprintf(want, sizeof(want), "%.*s%s", (int)strcspn(first, " "), first, rest ?: "");
	x = pcb_row_where2(designs, RJ_F_design_config, want, RJ_F_design_design_name,
			   rj_design_design_name(dj));
	return x == dj ? NULL : x;
}

/* a swept figure's lines: the Diff % lines, then each series' */
struct sweep_lines {
	struct lines gain, series[PCB_MODEL_PLOT_SERIES];
	int nseries;
};

/* each function of dj against the same function of base, Diff %, a line a function */
static int gain_points(json_t *functions, json_t *dj, json_t *base, const char *line, double v,
		       struct lines *gain)
{
	char name[400];
	json_t *x, *y;
	size_t j, k;
	int rc = 0;

	json_array_foreach(pcb_rows_where(functions, RJ_F_fn_design, rj_design_design(dj)), j, x) {
		json_array_foreach(pcb_rows_where2(functions, RJ_F_fn_design, rj_design_design(base),
						   RJ_F_fn_function, rj_fn_function(x)), k, y) {
			double b = rj_fn_avg_cycles(y);

			if (b == 0)
				continue;
			snprintf(name, sizeof(name), "%s %s", line, rj_fn_function(x));
			rc |= add_pt(gain, name, v, 100 * (rj_fn_avg_cycles(x) - b) / fabs(b), 0);
		}
	}
	return rc;
}

/* every design row's points against the swept key of p */
static int sweep_points(json_t *result, const struct pcb_model_plot *p, struct sweep_lines *sl)
{
	json_t *designs = rj_top_designs(result), *dj;
	const char *key = strrchr(p->sweep, '.') ? strrchr(p->sweep, '.') + 1 : p->sweep;
	size_t i;
	int rc = 0;

	json_array_foreach(designs, i, dj) {
		json_t *base = sweep_baseline(designs, dj);
		char line[256];
		double v;

		if (!sweep_value(dj, key, &v, line, sizeof(line)))
			continue;
		for (int k = 0; k < sl->nseries; k++) {
			const struct pcb_model_field *f = &p->series[k].field;
			json_t *x = rj_path(dj, f->path);

			if (x)
				rc |= add_pt(&sl->series[k], line, v,
					     (f->scale ? f->scale : 1) * json_number_value(x), 0);
		}
		if (p->gain_var && base)
			rc |= gain_points(rj_top_functions(result), dj, base, line, v, &sl->gain);
	}
	return rc;
}

/* its lines into f, the gnuplot variables of their counts into plot->vars */
static int write_sweep(FILE *f, struct sweep_lines *sl, const struct pcb_model_plot *p,
		       struct pcb_plot *plot)
{
	int ns = write_lines(f, &sl->gain), total = ns;
	size_t at = 0;

	if (p->gain_var)
		at += snprintf(plot->vars + at, sizeof(plot->vars) - at, "%s=%d", p->gain_var, ns);
	/* the groups in one file: gnuplot's index counts blocks across them */
	for (int k = 0; k < sl->nseries; k++) {
		int n = write_lines(f, &sl->series[k]);

		/* -1 (out of memory) in any makes pcb_plot_close() fail */
		total = total < 0 || n < 0 ? -1 : total + n;
		if (p->series[k].var && at < sizeof(plot->vars))
			at += snprintf(plot->vars + at, sizeof(plot->vars) - at, "%s%s=%d",
				       at ? "; " : "", p->series[k].var, sl->series[k].ns);
	}
	return total;
}

/* a model's figure against a swept key (model_output.h) */
static int model_plot_data(json_t *result, const struct pcb_model_plot *p, const char *dir,
			   struct pcb_plot_set *set, char *err, size_t errlen)
{
	struct sweep_lines sl = { 0 };
	int rc, dx = 0, any;

	while (sl.nseries < PCB_MODEL_PLOT_SERIES && p->series[sl.nseries].field.path)
		sl.nseries++;
	rc = sweep_points(result, p, &sl);
	any = sl.gain.ns;
	for (int k = 0; k < sl.nseries; k++) {
		int n = distinct_x(&sl.series[k]);

		dx = n > dx ? n : dx;
		any |= sl.series[k].ns;
	}
	if (!rc && distinct_x(&sl.gain) + dx >= 2 && any) {
		FILE *f = pcb_plot_add(set, dir, p->name, p->name, err, errlen);

		if (f) {
			set->plot[set->n - 1].series = write_sweep(f, &sl, p, &set->plot[set->n - 1]);
			snprintf(set->plot[set->n - 1].title, sizeof(set->plot[0].title), "%s",
				 p->title);
			rc = pcb_plot_close(set, f, err, errlen);
		} else {
			rc = -1;
		}
	} else if (rc) {
		snprintf(err, errlen, "out of memory");
	}
	lines_free(&sl.gain);
	for (int k = 0; k < sl.nseries; k++)
		lines_free(&sl.series[k]);
	return rc;
}

/* the figures the result's model declares */
static int model_plots_data(json_t *result, const char *dir, struct pcb_plot_set *set,
			    char *err, size_t errlen)
{
	const struct pcb_model *m = pcb_result_model(result);

	for (const struct pcb_model_plot *p = m ? m->plots : NULL; p && p->name; p++)
		if (model_plot_data(result, p, dir, set, err, errlen) < 0)
			return -1;
	return 0;
}

/* efficiency against the worker count, a line a design and function (scaling.h) */
static int scaling_data(json_t *result, const char *dir, struct pcb_plot_set *set,
			char *err, size_t errlen)
{
	struct lines_fig fig = { .name = "scaling", .script = "scaling" };
	static struct pcb_scaling s;
	struct lines l = { 0 };
	int rc = 0;

	if (!pcb_scaling_rows(result, &s))
		return 0;
	for (int i = 0; i < s.n && !rc; i++) {
		char line[400];

		snprintf(line, sizeof(line), "%s %s", s.row[i].line,
			 s.row[i].function ? s.row[i].function : "operations/s");
		rc = add_pt(&l, line, s.row[i].workers, 100 * s.row[i].efficiency, 0);
	}
	if (rc) {
		snprintf(err, errlen, "out of memory");
	} else {
		snprintf(fig.title, sizeof(fig.title),
			 "%s: scaling efficiency against the workers (100%%: linear)",
			 text(rj_top_scenario(result), RJ_F_sc_name));
		rc = lines_figure(set, dir, &fig, &l, err, errlen);
	}
	lines_free(&l);
	return rc;
}

int pcb_plot_result_data(json_t *result, const char *dir, struct pcb_plot_set *set,
			 char *err, size_t errlen)
{
	const struct sweep_axis rate = { "rate_hz", "drain rate (Hz)" };
	const struct sweep_axis think = { "think_ns", "think time (ns)" };

	if (functions_data(result, dir, set, err, errlen) < 0 ||
	    drains_data(result, dir, set, err, errlen) < 0 ||
	    contention_data(result, &rate, dir, set, err, errlen) < 0 ||
	    contention_data(result, &think, dir, set, err, errlen) < 0 ||
	    interruptions_data(result, dir, set, err, errlen) < 0 ||
	    scaling_data(result, dir, set, err, errlen) < 0 ||
	    model_plots_data(result, dir, set, err, errlen) < 0)
		return -1;
	return 0;
}
