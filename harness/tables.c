/* SPDX-License-Identifier: MIT */
/*
 * The cover-letter tables of seed 000, printed from a result's JSON so that
 * `pcpbench run` and `pcpbench report` cannot disagree.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "result.h"
#include "stats.h"

#define COL 16

static int first_col(const char *s)
{
	int n = (int)strlen(s) + 2;

	return n < 24 ? 24 : n;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "?";
}

/* the function rows of one design, in result order */
static size_t design_functions(json_t *functions, const char *design, json_t **out, size_t max)
{
	size_t i, n = 0;
	json_t *fj;

	json_array_foreach(functions, i, fj)
		if (!strcmp(str(fj, "design"), design) && n < max)
			out[n++] = fj;
	return n;
}

static json_t *find_function(json_t *functions, const char *design, const char *fn)
{
	size_t i;
	json_t *fj;

	json_array_foreach(functions, i, fj)
		if (!strcmp(str(fj, "design"), design) && !strcmp(str(fj, "function"), fn))
			return fj;
	return NULL;
}

static int run_means(json_t *fj, double *v, int max)
{
	json_t *runs = json_object_get(fj, "runs"), *r;
	size_t i;
	int n = 0;

	json_array_foreach(runs, i, r)
		if (n < max)
			v[n++] = json_number_value(json_object_get(r, "avg_cycles"));
	return n;
}

static void print_header(FILE *out, json_t *result)
{
	json_t *ctx = json_object_get(result, "context");
	json_t *sc = json_object_get(result, "scenario");
	json_t *settings = json_object_get(sc, "settings");
	json_t *ovh = json_object_get(ctx, "timer_overhead");
	const char *timing = str(sc, "timing");
	const char *desc = str(settings, "scenario.description");
	double hz = json_number_value(json_object_get(ctx, "tsc_hz"));

	fprintf(out, "pcpbench %s: %s\n", str(sc, "name"), *desc && strcmp(desc, "?") ? desc : "");
	fprintf(out, "machine: %s, %" JSON_INTEGER_FORMAT " CPUs, %" JSON_INTEGER_FORMAT
		" NUMA node(s), kernel %s; TSC %.1f MHz, step %" JSON_INTEGER_FORMAT "\n",
		str(ctx, "cpu_model"), json_integer_value(json_object_get(ctx, "cpus")),
		json_integer_value(json_object_get(ctx, "numa_nodes")), str(ctx, "kernel"),
		hz / 1e6, json_integer_value(json_object_get(ctx, "tsc_step")));
	if (!strcmp(timing, "batch"))
		fprintf(out, "timing: batch, MEMCG_CHARGE_BATCH/nr_pages calls between two TSC reads "
			"(%.1f ticks of empty region subtracted per batch)\n",
			json_number_value(json_object_get(ovh, "batch")));
	else
		fprintf(out, "timing: call, each call between two TSC reads (%.1f ticks of empty "
			"region subtracted per call)\n", json_number_value(json_object_get(ovh, "call")));
	fprintf(out, "workers: CPU %s; workload %s, nr_pages %s; %s runs of %s ms; "
		"memcg depth %s\n\n", str(sc, "workers"), str(settings, "run.workload"),
		str(settings, "workload.nr_pages"), str(settings, "run.runs"),
		str(settings, "run.ops")[0] != '0' ? "?" : str(settings, "run.duration_ms"),
		str(settings, "memcg.depth"));
}

/* 1234567 -> "1,234,567" */
static void thousands(char *buf, size_t len, unsigned long long v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", v), o = 0;

	for (int i = 0; i < n && o + 2 < (int)len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = 0;
}

static json_t *find_counter(json_t *counters, const char *design, const char *event)
{
	size_t i;
	json_t *c;

	json_array_foreach(counters, i, c)
		if (!strcmp(str(c, "design"), design) && !strcmp(str(c, "event"), event) &&
		    !strcmp(str(c, "thread"), "all"))
			return c;
	return NULL;
}

/* perf stat's layout: value, event, then what it means per operation */
static void print_counters(FILE *out, json_t *result, json_t *dj)
{
	json_t *counters = json_object_get(result, "counters");
	json_t *per_call = json_object_get(result, "counters_per_call"), *c;
	const char *d = str(dj, "design");
	json_t *cyc = find_counter(counters, d, "cycles");
	size_t i, shown = 0;

	json_array_foreach(counters, i, c) {
		const char *status = str(c, "status"), *ev = str(c, "event");
		unsigned long long v = (unsigned long long)json_integer_value(json_object_get(c, "value"));
		double en = (double)json_integer_value(json_object_get(c, "enabled_ns"));
		double run = (double)json_integer_value(json_object_get(c, "running_ns"));
		char num[48], extra[96] = "";

		if (strcmp(str(c, "design"), d) || strcmp(str(c, "thread"), "all"))
			continue;
		if (!shown++)
			fprintf(out, "%s counters, %zu worker%s summed over %" JSON_INTEGER_FORMAT " runs, "
				"%" JSON_INTEGER_FORMAT " operations\n", d,
				json_array_size(json_object_get(dj, "workers")),
				json_array_size(json_object_get(dj, "workers")) == 1 ? "" : "s",
				json_integer_value(json_object_get(dj, "runs")),
				json_integer_value(json_object_get(dj, "ops")));
		if (strcmp(status, "counted")) {
			fprintf(out, "%20s      %-24s%s%s%s\n", status, ev,
				json_object_get(c, "error") ? "# " : "",
				json_object_get(c, "error") ? str(c, "error") : "", "");
			continue;
		}
		if (!strcmp(ev, "task-clock") || !strcmp(ev, "cpu-clock")) {
			snprintf(num, sizeof(num), "%.2f msec", (double)v / 1e6);
		} else {
			thousands(num, sizeof(num), v);
		}
		if (!strcmp(ev, "instructions") && cyc && !strcmp(str(cyc, "status"), "counted") &&
		    json_integer_value(json_object_get(cyc, "value")))
			snprintf(extra, sizeof(extra), "# %8.2f insn per cycle",
				 (double)v / (double)json_integer_value(json_object_get(cyc, "value")));
		else if ((!strcmp(ev, "context-switches") || strstr(ev, "cache-misses")) &&
			 json_integer_value(json_object_get(dj, "drains")) > 0)
			snprintf(extra, sizeof(extra), "# %8.3f per drain", (double)v /
				 (double)json_integer_value(json_object_get(dj, "drains")));
		else if (json_object_get(c, "per_op"))
			snprintf(extra, sizeof(extra), "# %8.3f %sper op",
				 json_number_value(json_object_get(c, "per_op")),
				 strstr(ev, "-clock") ? "ns " : "");
		fprintf(out, "%20s      %-24s%s", num, ev, extra);
		if (run < en && en > 0)
			fprintf(out, "  (%.2f%%)", 100.0 * run / en);
		fprintf(out, "\n");
	}
	if (shown)
		fprintf(out, "\n");

	shown = 0;
	json_array_foreach(per_call, i, c) {
		if (strcmp(str(c, "design"), d))
			continue;
		if (!shown++)
			fprintf(out, "%-24s%-24s%s\n", "per call", "event", "average");
		{
			char label[80];

			snprintf(label, sizeof(label), "%s:", str(c, "function"));
			fprintf(out, "%-24s%-24s%.2f (%s)\n", label, str(c, "event"),
				json_number_value(json_object_get(c, "per_call")), str(c, "read"));
		}
	}
	if (shown)
		fprintf(out, "\n");
}

int pcb_tables_print(FILE *out, json_t *result, char *err, size_t errlen)
{
	json_t *designs = json_object_get(result, "designs");
	json_t *functions = json_object_get(result, "functions");
	json_t *notes = json_object_get(result, "notes");
	json_t *rows[64], *dj, *base;
	const char *base_name;
	size_t i, j, n;
	int any_sig = 0;

	if (!json_is_array(designs) || !json_is_array(functions) ||
	    !json_is_object(json_object_get(result, "context")) ||
	    !json_is_object(json_object_get(result, "scenario"))) {
		snprintf(err, errlen, "not a pcpbench result (designs, functions, context, "
			 "scenario missing)");
		return -1;
	}
	print_header(out, result);

	/* one block per design */
	json_array_foreach(designs, i, dj) {
		const char *d = str(dj, "design");
		int w = first_col(d);

		fprintf(out, "%-*s%-*s%-*s%s\n", w, d, COL, "Average clk", COL, "STDDEV", "Call Count");
		n = design_functions(functions, d, rows, 64);
		for (j = 0; j < n; j++) {
			char label[80];

			snprintf(label, sizeof(label), "%s:", str(rows[j], "function"));
			fprintf(out, "%-*s%-*.2f%-*.2f%" JSON_INTEGER_FORMAT "\n", w, label,
				COL, json_number_value(json_object_get(rows[j], "avg_cycles")),
				COL, json_number_value(json_object_get(rows[j], "stddev")),
				json_integer_value(json_object_get(rows[j], "calls")));
		}
		fprintf(out, "\n");
	}

	/* every other design against the first */
	base = json_array_get(designs, 0);
	base_name = str(base, "design");
	json_array_foreach(designs, i, dj) {
		const char *d = str(dj, "design");
		char title[128];
		int w;

		if (i == 0)
			continue;
		snprintf(title, sizeof(title), "%s - %s", d, base_name);
		w = first_col(title);
		fprintf(out, "%-*s%-*s%s\n", w, title, COL, "Diff (cycles)", "Diff %");
		n = design_functions(functions, d, rows, 64);
		for (j = 0; j < n; j++) {
			json_t *b = find_function(functions, base_name, str(rows[j], "function"));
			double va[1000], vb[1000], x, y;
			int na, nb, sig;
			char label[80];

			if (!b)
				continue;
			x = json_number_value(json_object_get(rows[j], "avg_cycles"));
			y = json_number_value(json_object_get(b, "avg_cycles"));
			na = run_means(rows[j], va, 1000);
			nb = run_means(b, vb, 1000);
			sig = pcb_welch_significant(va, na, vb, nb);
			any_sig |= sig;
			snprintf(label, sizeof(label), "%s:", str(rows[j], "function"));
			fprintf(out, "%-*s%-*.2f", w, label, COL, x - y);
			if (y != 0)
				fprintf(out, "%.2f%s\n", 100 * (x - y) / fabs(y), sig ? "*" : "");
			else
				fprintf(out, "-\n");
		}
		fprintf(out, "\n");
	}
	if (json_array_size(designs) > 1)
		fprintf(out, "%s", any_sig ? "* the run means differ at 95% confidence "
			"(Welch's t-test)\n\n" : "no difference is significant at 95% confidence "
			"(Welch's t-test over run means)\n\n");

	/* distribution of the per-call figure */
	json_array_foreach(designs, i, dj) {
		const char *d = str(dj, "design");
		char title[128];
		int w;

		snprintf(title, sizeof(title), "%s percentiles", d);
		w = first_col(title);
		fprintf(out, "%-*s%-10s%-10s%-10s%s\n", w, title, "p50", "p99", "p99.9", "max");
		n = design_functions(functions, d, rows, 64);
		for (j = 0; j < n; j++) {
			char label[80];

			snprintf(label, sizeof(label), "%s:", str(rows[j], "function"));
			fprintf(out, "%-*s%-10" JSON_INTEGER_FORMAT "%-10" JSON_INTEGER_FORMAT
				"%-10" JSON_INTEGER_FORMAT "%" JSON_INTEGER_FORMAT "\n", w, label,
				json_integer_value(json_object_get(rows[j], "p50")),
				json_integer_value(json_object_get(rows[j], "p99")),
				json_integer_value(json_object_get(rows[j], "p999")),
				json_integer_value(json_object_get(rows[j], "max")));
		}
		fprintf(out, "\n");
	}

	/* stock hits and page_counter traffic (seed 002's question) */
	{
		int shown = 0;

		json_array_foreach(designs, i, dj) {
			json_t *ev = json_object_get(dj, "events");
			const char *d = str(dj, "design");
			int w = first_col(d);

			if (!json_object_get(ev, "hit_rate"))
				continue;
			if (!shown++)
				fprintf(out, "%-24s%-16s%-16s%s\n", "stock", "hit rate %",
					"misses", "page_counter atomics per charge");
			fprintf(out, "%-*s%-16.2f%-16" JSON_INTEGER_FORMAT "%.3f\n",
				w < 24 ? 24 : w, d,
				100 * json_number_value(json_object_get(ev, "hit_rate")),
				json_integer_value(json_object_get(ev, "stock_misses")),
				json_number_value(json_object_get(ev, "atomics_per_charge")));
		}
		if (shown)
			fprintf(out, "\n");
	}

	/* seed 000's kmalloc benchmark: the best burst */
	json_array_foreach(designs, i, dj) {
		json_t *k = json_object_get(dj, "kmalloc_burst");

		if (!k)
			continue;
		fprintf(out, "%s: kmalloc x %" JSON_INTEGER_FORMAT ": min %.0f us, %.2f cycles per "
			"kmalloc (best of %" JSON_INTEGER_FORMAT " bursts)\n", str(dj, "design"),
			json_integer_value(json_object_get(k, "objects")),
			json_number_value(json_object_get(k, "min_us")),
			json_number_value(json_object_get(k, "min_cycles_per_op")),
			json_integer_value(json_object_get(k, "bursts")));
	}

	json_array_foreach(designs, i, dj)
		print_counters(out, result, dj);

	json_array_foreach(designs, i, dj) {
		json_t *work = json_object_get(dj, "work");

		fprintf(out, "%s: charge invariant %s; stock %" JSON_INTEGER_FORMAT " bytes; %"
			JSON_INTEGER_FORMAT " operations", str(dj, "design"),
			str(dj, "charge_invariant"),
			json_integer_value(json_object_get(dj, "stock_bytes")),
			json_integer_value(json_object_get(dj, "ops")));
		if (json_integer_value(json_object_get(work, "queued")))
			fprintf(out, "; drain work (%s) queued %" JSON_INTEGER_FORMAT ", ran %"
				JSON_INTEGER_FORMAT ", deferred %" JSON_INTEGER_FORMAT,
				str(dj, "work_delivery"),
				json_integer_value(json_object_get(work, "queued")),
				json_integer_value(json_object_get(work, "ran")),
				json_integer_value(json_object_get(work, "deferred")));
		if (json_object_get(dj, "accounting"))
			fprintf(out, "; accounting hooks: %s", str(dj, "accounting"));
		fprintf(out, "\n");
	}
	json_array_foreach(notes, i, dj)
		fprintf(out, "note: %s\n", json_string_value(dj));
	return 0;
}
