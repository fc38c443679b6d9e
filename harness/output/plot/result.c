/* SPDX-License-Identifier: MIT */
/*
 * The figures of one result.json, as data blocks for the scripts of
 * plots/: cycles per function (seed 000's 2.2 tables as grouped bars), drain cost against
 * the caches it walks (its drain table), contention per drain against the
 * drain rate and think time (2.3), the isolated worker's interruption
 * histogram (oslat's buckets), scaling efficiency against the worker count
 * (will-it-scale's summary, read/scaling.h), and the figures a model
 * declares against a key it sweeps (model.c). A sweep's values come from
 * each design row: its "sweep" object where there is one, else its
 * "config" string of key=value words.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../scenario/scenario.h"
#include "../../schema/schema.h"
#include "../read/query.h"
#include "../read/rows.h"
#include "../read/scaling.h"
#include "lines.h"
#include "model.h"
#include "plot.h"
#include "result.h"

/* a string field, "" when absent */
static const char *text(json_t *o, enum rj_field f)
{
	return json_string_value(rj_get(o, f)) ?: "";
}

/* the run a figure is of, for its title: "default, host, 2026-01-01T12:00:00Z" */
static const char *run_name(json_t *result, char *buf, size_t len)
{
	json_t *ctx = rj_top_context(result);

	snprintf(buf, len, "%s, %s, %s", text(rj_top_scenario(result), RJ_F_sc_name),
		 text(ctx, RJ_F_ctx_host), text(ctx, RJ_F_ctx_started));
	return buf;
}

/* the values of field f over the design entries, each once, in order: a new array */
static json_t *distinct(json_t *designs, enum rj_field f)
{
	json_t *out = json_array(), *dj, *v, *x;
	size_t i, j;

	json_array_foreach(designs, i, dj) {
		int seen = 0;

		v = rj_get(dj, f);
		if (!v)
			v = json_string("");
		else
			json_incref(v);
		json_array_foreach(out, j, x)
			seen |= json_equal(x, v);
		if (seen)
			json_decref(v);
		else
			json_array_append_new(out, v);
	}
	return out;
}

/* the function row of a design at a configuration, NULL where the result has none */
static json_t *row_at(json_t *result, const char *design, const char *config, const char *fn)
{
	json_t *dj;
	size_t i;

	json_array_foreach(pcb_rows_where(rj_top_designs(result), RJ_F_design_design_name, design),
			   i, dj)
		if (!strcmp(text(dj, RJ_F_design_config), config))
			return pcb_function_row(rj_top_functions(result), rj_design_design(dj), fn);
	return NULL;
}

/*
 * a bar group: one function at one configuration, a bar a design; its
 * label's length, 0 where no design has it
 */
static int bar_group(FILE *f, json_t *result, json_t *names, const char *fn, const char *config)
{
	int raw = pcb_result_raw(result), any = 0;
	char label[400];
	json_t *name;
	size_t k;

	json_array_foreach(names, k, name)
		any |= row_at(result, json_string_value(name), config, fn) != NULL;
	if (!any)
		return 0;
	snprintf(label, sizeof(label), "%s%s%s", fn, *config ? " " : "", config);
	pcb_plot_label(f, label);
	json_array_foreach(names, k, name) {
		json_t *row = row_at(result, json_string_value(name), config, fn);

		if (row)
			fprintf(f, "\t%.10g\t%.10g", pcb_fn_mean(row, raw), pcb_fn_stddev(row, raw));
		else
			fputs("\t?\t?", f);
	}
	fputc('\n', f);
	return (int)strlen(label);
}

/*
 * cycles per call: a group of bars a function (and configuration, in a
 * sweep: a function's configurations side by side), a bar a design in its
 * colour, the run means' spread
 */
static int functions_data(json_t *result, const char *dir, struct pcb_plot_set *set,
			  char *err, size_t errlen)
{
	json_t *functions = rj_top_functions(result), *designs = rj_top_designs(result), *x, *c;
	json_t *names = distinct(designs, RJ_F_design_design_name);
	json_t *configs = distinct(designs, RJ_F_design_config);
	int raw = pcb_result_raw(result), groups = 0, longest = 0;
	char run[512];
	size_t i, j, k;
	FILE *f;

	if (!json_array_size(functions)) {
		json_decref(names);
		json_decref(configs);
		return 0;
	}
	f = pcb_plot_add(set, dir, "functions", "functions", err, errlen);
	if (f) {
		fputs("function", f);
		json_array_foreach(names, k, x) {
			fputc('\t', f);
			pcb_plot_label(f, json_string_value(x));
			fputs("\t-", f);
		}
		fputc('\n', f);
		json_array_foreach(functions, i, x) {
			if (pcb_row_where(functions, RJ_F_fn_function, rj_fn_function(x)) != x)
				continue;
			/* a sweep's functions apart: an empty group between them */
			if (groups && json_array_size(configs) > 1) {
				fputs("\"\"", f);
				for (k = 0; k < json_array_size(names); k++)
					fputs("\t?\t?", f);
				fputc('\n', f);
			}
			json_array_foreach(configs, j, c) {
				int len = bar_group(f, result, names, rj_fn_function(x),
						    json_string_value(c));

				groups += len > 0;
				longest = len > longest ? len : longest;
			}
		}
		set->plot[set->n - 1].series = (int)json_array_size(names);
		snprintf(set->plot[set->n - 1].title, sizeof(set->plot[0].title),
			 "%s: %s cycles per call (mean of the run means, error bar their STDDEV)",
			 run_name(result, run, sizeof(run)), pcb_means_word(raw));
		snprintf(set->plot[set->n - 1].vars, sizeof(set->plot[0].vars),
			 "means='%s'; labw=%d", pcb_means_word(raw), longest);
	}
	json_decref(names);
	json_decref(configs);
	return f ? pcb_plot_close(set, f, err, errlen) : -1;
}

/* drain cost against the caches walked, a line a design (seed 000's drain table) */
static int drains_data(json_t *result, const char *dir, struct pcb_plot_set *set,
		       char *err, size_t errlen)
{
	const char *fn = text(rj_top_scenario(result), RJ_F_sc_drain_function);
	const struct pcb_model *m = pcb_result_model(result);
	struct pcb_lines l = { 0 };
	json_t *x;
	size_t i;
	int rc = 0;

	json_array_foreach(rj_top_drains(result), i, x) {
		json_t *dj = pcb_design_row(result, rj_drain_design(x));
		double caches = (double)rj_drain_caches(x), v;
		char line[256];

		if (!dj || rj_drain_count(x) <= 0 || rj_drain_avg_cycles(x) <= 0 || caches <= 0)
			continue;
		/* a line: the design and every swept key but the caches', on the axis */
		pcb_sweep_value(dj, pcb_key_get(K_DRAIN_CACHES)->name, &v, line, sizeof(line));
		if (pcb_lines_add(&l, line, caches, rj_drain_avg_cycles(x), rj_drain_stddev(x)) < 0)
			rc = -1;
	}
	if (!rc && pcb_lines_distinct_x(&l) >= 2) {
		const char *caches = pcb_model_output(m).caches_name;
		struct pcb_lines_fig fig = { .name = "drains", .script = "drains" };

		char run[512];

		snprintf(fig.title, sizeof(fig.title), "%s: %s(), net cycles per drain against %s",
			 run_name(result, run, sizeof(run)), *fn ? fn : "drain", caches);
		snprintf(fig.vars, sizeof(fig.vars), "xname='%s'", caches);
		rc = pcb_lines_figure(set, dir, &fig, &l, err, errlen);
	} else if (rc) {
		snprintf(err, errlen, "out of memory");
	}
	pcb_lines_free(&l);
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
	struct pcb_lines l = { 0 };
	double xmin = INFINITY;
	size_t i, j;
	int rc = 0;

	if (!json_is_array(cont))
		return 0;
	json_array_foreach(rj_top_designs(result), i, dj) {
		double v, drains = (double)rj_design_drains(dj), worker = 0, drainer = 0;
		char line[256], name[300];

		if (!pcb_sweep_value(dj, key, &v, line, sizeof(line)) || drains <= 0)
			continue;
		json_array_foreach(pcb_rows_where(cont, RJ_F_cont_design, rj_design_design(dj)), j, x) {
			if (!strcmp(text(x, RJ_F_cont_side), "coordinator"))
				drainer += (double)rj_cont_contended(x);
			else
				worker += (double)rj_cont_contended(x);
		}
		snprintf(name, sizeof(name), "%s, on the workers", line);
		rc |= pcb_lines_add(&l, name, v, worker / drains, 0);
		snprintf(name, sizeof(name), "%s, on the drainer", line);
		rc |= pcb_lines_add(&l, name, v, drainer / drains, 0);
		if (v < xmin)
			xmin = v;
	}
	if (!rc && pcb_lines_distinct_x(&l) >= 2) {
		struct pcb_lines_fig fig = { .script = "contention" };

		snprintf(fig.name, sizeof(fig.name), "contention-%s", key);
		char run[512];

		snprintf(fig.title, sizeof(fig.title),
			 "%s: contended lock acquisitions per drain against %s",
			 run_name(result, run, sizeof(run)), axis);
		snprintf(fig.vars, sizeof(fig.vars), "logx=%d; xname='%s'", xmin > 0, axis);
		rc = pcb_lines_figure(set, dir, &fig, &l, err, errlen);
	} else if (rc) {
		snprintf(err, errlen, "out of memory");
	}
	pcb_lines_free(&l);
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
	struct pcb_lines l = { 0 };
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
				rc |= pcb_lines_add(&l, name, lo / 1000, n, 0);
		}
	}
	if (!rc && l.ns) {
		struct pcb_lines_fig fig = { .name = "interruptions", .script = "interruptions" };

		char run[512];

		snprintf(fig.title, sizeof(fig.title),
			 "%s: interruptions of %s worker, count per latency bucket",
			 run_name(result, run, sizeof(run)), only_isolated ? "the isolated" : "each");
		rc = pcb_lines_figure(set, dir, &fig, &l, err, errlen);
	} else if (rc) {
		snprintf(err, errlen, "out of memory");
	}
	pcb_lines_free(&l);
	return rc;
}

/* efficiency against the worker count, a line a design and function (scaling.h) */
static int scaling_data(json_t *result, const char *dir, struct pcb_plot_set *set,
			char *err, size_t errlen)
{
	struct pcb_lines_fig fig = { .name = "scaling", .script = "scaling" };
	static struct pcb_scaling s;
	struct pcb_lines l = { 0 };
	int rc = 0;

	if (!pcb_scaling_rows(result, &s))
		return 0;
	for (int i = 0; i < s.n && !rc; i++) {
		char line[400];

		snprintf(line, sizeof(line), "%s %s", s.row[i].line,
			 s.row[i].function ? s.row[i].function : "operations/s");
		rc = pcb_lines_add(&l, line, s.row[i].workers, 100 * s.row[i].efficiency, 0);
	}
	if (rc) {
		snprintf(err, errlen, "out of memory");
	} else {
		char run[512];

		snprintf(fig.title, sizeof(fig.title),
			 "%s: scaling efficiency of %s cycles against the workers (100%%: linear)",
			 run_name(result, run, sizeof(run)), pcb_means_word(pcb_result_raw(result)));
		rc = pcb_lines_figure(set, dir, &fig, &l, err, errlen);
	}
	pcb_lines_free(&l);
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
	    pcb_plot_model_data(result, dir, set, err, errlen) < 0)
		return -1;
	return 0;
}
