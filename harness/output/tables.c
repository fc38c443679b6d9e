/* SPDX-License-Identifier: MIT */
/*
 * The cover-letter tables of seed 000, printed from a result's JSON so that
 * `pcpbench run` and `pcpbench report` cannot disagree.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../measure/stats.h"
#include "tables.h"

int first_col(const char *s)
{
	int n = (int)strlen(s) + 2;

	return n < 24 ? 24 : n;
}

const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "?";
}

/* the function rows of one design, in result order */
size_t design_functions(json_t *functions, const char *design, json_t **out, size_t max)
{
	size_t i, n = 0;
	json_t *fj;

	json_array_foreach(functions, i, fj)
		if (!strcmp(str(fj, "design"), design) && n < max)
			out[n++] = fj;
	return n;
}

json_t *find_function(json_t *functions, const char *design, const char *fn)
{
	size_t i;
	json_t *fj;

	json_array_foreach(functions, i, fj)
		if (!strcmp(str(fj, "design"), design) && !strcmp(str(fj, "function"), fn))
			return fj;
	return NULL;
}

int run_means(json_t *fj, const char *key, double *v, int max)
{
	json_t *runs = json_object_get(fj, "runs"), *r;
	size_t i;
	int n = 0;

	json_array_foreach(runs, i, r)
		if (n < max)
			v[n++] = json_number_value(json_object_get(r, key));
	return n;
}

int title_col(FILE *out, const char *title, int rest, const struct pcb_table_opts *opts,
	      const char **head)
{
	int w = first_col(title);

	*head = title;
	if (!opts->width || w + rest <= opts->width)
		return w;
	fprintf(out, "%s\n", title);
	*head = "";
	return 24;
}

/*
 * The empty regions the workers subtracted, "lo-hi" ticks (or one figure),
 * where the result records them; else base, the machine's figure.
 */
void subtracted_text(json_t *result, double base, char *buf, size_t len)
{
	double lo = base, hi = base;
	json_t *dj, *o;
	size_t i, j;
	int first = 1;

	json_array_foreach(json_object_get(result, "designs"), i, dj)
		json_array_foreach(json_object_get(dj, "overhead_ticks"), j, o) {
			json_t *sub = json_object_get(o, "subtracted");
			double v = json_number_value(sub ? sub : json_object_get(o, "start"));

			if (first || v < lo)
				lo = v;
			if (first || v > hi)
				hi = v;
			first = 0;
		}
	if (hi > lo)
		snprintf(buf, len, "%.1f-%.1f", lo, hi);
	else
		snprintf(buf, len, "%.1f", lo);
}

static void print_header(FILE *out, json_t *result, const struct pcb_table_opts *opts)
{
	json_t *ctx = json_object_get(result, "context");
	json_t *sc = json_object_get(result, "scenario");
	json_t *settings = json_object_get(sc, "settings");
	json_t *ovh = json_object_get(ctx, "timer_overhead");
	const char *timing = str(sc, "timing");
	const char *desc = str(settings, "scenario.description");
	double hz = json_number_value(json_object_get(ctx, "tsc_hz"));
	char sub[96];

	fprintf(out, "pcpbench %s: %s\n", str(sc, "name"), *desc && strcmp(desc, "?") ? desc : "");
	fprintf(out, "machine: %s, %" JSON_INTEGER_FORMAT " CPUs, %" JSON_INTEGER_FORMAT
		" NUMA node(s), kernel %s; TSC %.1f MHz, step %" JSON_INTEGER_FORMAT "\n",
		str(ctx, "cpu_model"), json_integer_value(json_object_get(ctx, "cpus")),
		json_integer_value(json_object_get(ctx, "numa_nodes")), str(ctx, "kernel"),
		hz / 1e6, json_integer_value(json_object_get(ctx, "tsc_step")));
	subtracted_text(result, json_number_value(json_object_get(ovh, timing)), sub, sizeof(sub));
	if (!strcmp(timing, "batch"))
		fprintf(out, "timing: batch, a batch of calls between two TSC reads "
			"(%s ticks of empty region %s per batch)\n", sub,
			opts->raw ? "included, not subtracted" : "subtracted");
	else
		fprintf(out, "timing: call, each call between two TSC reads (%s ticks of empty "
			"region %s per call)\n", sub,
			opts->raw ? "included, not subtracted" : "subtracted");
	if (json_is_false(json_object_get(ctx, "complete")))
		fprintf(out, "interrupted: the result has only the runs that finished "
			"(complete: false)\n");
	if (json_object_get(sc, "configuration"))	/* the model's own words */
		fprintf(out, "workers: CPU %s; %s %s; %s runs of %s ms\n\n", str(sc, "workers"),
			str(sc, "model"), str(sc, "configuration"), str(settings, "run.runs"),
			str(settings, "run.ops")[0] != '0' ? "?" : str(settings, "run.duration_ms"));
	else
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
	if (shown) {
		int coord = 0;

		json_array_foreach(counters, i, c) {
			const char *st = str(c, "status");

			if (strcmp(str(c, "design"), d) || strcmp(str(c, "thread"), "coordinator"))
				continue;
			if (!coord++)
				fprintf(out, "  the coordinator:\n");
			if (strcmp(st, "counted")) {
				fprintf(out, "%20s      %s\n", st, str(c, "event"));
			} else {
				char num[48];
				double drains = (double)json_integer_value(json_object_get(dj, "drains"));
				unsigned long long v = (unsigned long long)json_integer_value(json_object_get(c, "value"));

				if (strstr(str(c, "event"), "-clock"))
					snprintf(num, sizeof(num), "%.2f msec", (double)v / 1e6);
				else
					thousands(num, sizeof(num), v);
				fprintf(out, "%20s      %-24s# %8.3f %sper drain\n", num, str(c, "event"),
					drains > 0 ? (double)v / drains : 0.0,
					strstr(str(c, "event"), "-clock") ? "ns " : "");
			}
		}
		fprintf(out, "\n");
	}

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

/* the model's drain, by its kernel name */
static const char *drain_name(json_t *result)
{
	json_t *n = json_object_get(json_object_get(result, "scenario"), "drain_function");

	return json_is_string(n) ? json_string_value(n) : "drain_all_stock";
}

/* the coordinator's drains; with two designs over several stock counts, 000's table */
static void print_drains(FILE *out, json_t *result)
{
	json_t *drains = json_object_get(result, "drains");
	const char *a = NULL, *b = NULL;
	json_int_t first_stocks = 0;
	size_t i, j;
	json_t *x, *y;
	int several_stock_counts = 0;

	if (!json_array_size(drains))
		return;
	fprintf(out, "%-24s%-10s%-14s%-10s%-12s%-16s%-12s%-10s%-14s%s\n", drain_name(result),
		"drains", "Average clk", "STDDEV", "p99 clk", "completion p50", "p99", "wake clk",
		"walk clk/cpu", "stranded pages");
	json_array_foreach(drains, i, x) {
		const char *d = str(x, "design");
		char comp50[32] = "-", comp99[32] = "-", stranded[48] = "-", walk[32] = "-";

		if (json_object_get(x, "completion_p50")) {
			snprintf(comp50, sizeof(comp50), "%" JSON_INTEGER_FORMAT,
				 json_integer_value(json_object_get(x, "completion_p50")));
			snprintf(comp99, sizeof(comp99), "%" JSON_INTEGER_FORMAT,
				 json_integer_value(json_object_get(x, "completion_p99")));
		}
		if (json_object_get(x, "walk_cycles_per_cpu"))
			snprintf(walk, sizeof(walk), "%.1f",
				 json_number_value(json_object_get(x, "walk_cycles_per_cpu")));
		if (json_object_get(x, "stranded_pages_avg"))
			snprintf(stranded, sizeof(stranded), "%.1f avg, %" JSON_INTEGER_FORMAT " max",
				 json_number_value(json_object_get(x, "stranded_pages_avg")),
				 json_integer_value(json_object_get(x, "stranded_pages_max")));
		fprintf(out, "%-*s%-10" JSON_INTEGER_FORMAT "%-14.2f%-10.2f%-12" JSON_INTEGER_FORMAT
			"%-16s%-12s%-10.0f%-14s%s\n", first_col(d), d,
			json_integer_value(json_object_get(x, "count")),
			json_number_value(json_object_get(x, "avg_cycles")),
			json_number_value(json_object_get(x, "stddev")),
			json_integer_value(json_object_get(x, "p99_cycles")), comp50, comp99,
			json_number_value(json_object_get(x, "wake_cycles")), walk, stranded);
	}
	fprintf(out, "\n");

	/* seed 000's "cpus  Upstream  Patched  Diff" over the stock counts */
	json_array_foreach(drains, i, x) {
		const char *name = str(x, "design_name");
		json_int_t stocks = json_integer_value(json_object_get(x, "stocks"));

		if (!a)
			a = name;
		else if (!b && strcmp(name, a))
			b = name;
		if (i == 0)
			first_stocks = stocks;
		else if (stocks != first_stocks)
			several_stock_counts = 1;
	}
	if (!a || !b || !several_stock_counts)
		return;
	fprintf(out, "%-8s%-16s%-16s%-16s%s\n", "cpus", a, b, "Diff (cycles)", "Diff(%)");
	json_array_foreach(drains, i, x) {
		const char *na = str(x, "design_name");
		json_int_t stocks = json_integer_value(json_object_get(x, "stocks"));

		if (strcmp(na, a))
			continue;
		json_array_foreach(drains, j, y) {
			const char *nb = str(y, "design_name");
			double va = json_number_value(json_object_get(x, "avg_cycles"));
			double vb = json_number_value(json_object_get(y, "avg_cycles"));

			if (strcmp(nb, b) || json_integer_value(json_object_get(y, "stocks")) != stocks)
				continue;
			fprintf(out, "%-8" JSON_INTEGER_FORMAT "%-16.2f%-16.2f%-16.2f%.2f\n", stocks, va, vb,
				vb - va, va ? 100 * (vb - va) / va : 0);
			break;
		}
	}
	fprintf(out, "\n");
}

/* seed 000's 2.3: every contended acquisition, per function and side */
/*
 * Beside the measured count, what a simple model predicts: a drain finds a
 * worker's lock held with the probability that the worker is inside its
 * cache, so drains x workers x held fraction contentions on the drainer's
 * side.
 */
static void print_contention_model(FILE *out, json_t *cc, json_t *dj)
{
	json_t *held = json_object_get(dj, "held_fraction"), *c;
	double drains = (double)json_integer_value(json_object_get(dj, "drains"));
	double workers = (double)json_array_size(json_object_get(dj, "workers"));
	json_int_t measured = 0;
	size_t j;

	if (!held || drains <= 0)
		return;
	json_array_foreach(cc, j, c)
		if (!strcmp(str(c, "design"), str(dj, "design")) && !strcmp(str(c, "side"), "coordinator"))
			measured += json_integer_value(json_object_get(c, "contended"));
	fprintf(out, "  held %.2f%% of the run: %.2f drainer-side contentions predicted (drains x "
		"workers x held), %" JSON_INTEGER_FORMAT " measured; %.4f a drain\n",
		100 * json_number_value(held), drains * workers * json_number_value(held), measured,
		(double)measured / drains);
}

static void print_contention(FILE *out, json_t *result)
{
	json_t *designs = json_object_get(result, "designs"), *cc = json_object_get(result, "contention");
	size_t i, j;
	json_t *dj, *c;

	json_array_foreach(designs, i, dj) {
		const char *d = str(dj, "design");
		int shown = 0;

		if (!json_integer_value(json_object_get(dj, "drains")) &&
		    strcmp(str(dj, "drain"), "remote"))
			continue;
		json_array_foreach(cc, j, c) {
			char label[96];

			if (strcmp(str(c, "design"), d))
				continue;
			if (!shown++) {
				char title[160];

				snprintf(title, sizeof(title), "%s contention", d);
				fprintf(out, "%-*s%-16s%-12s%-16s%s\n", first_col(d) + 14, title,
					"# calls", "contended", "wait clk (avg)", "wait clk (max)");
			}
			snprintf(label, sizeof(label), "%s (%s):", str(c, "function"), str(c, "side"));
			fprintf(out, "%-*s%-16" JSON_INTEGER_FORMAT "%-12" JSON_INTEGER_FORMAT "%-16.1f%"
				JSON_INTEGER_FORMAT "\n", first_col(d) + 14, label,
				json_integer_value(json_object_get(c, "calls")),
				json_integer_value(json_object_get(c, "contended")),
				json_number_value(json_object_get(c, "wait_avg_cycles")),
				json_integer_value(json_object_get(c, "wait_max_cycles")));
		}
		if (!json_integer_value(json_object_get(dj, "drains")) && !shown)
			continue;
		fprintf(out, "%s: %s: %" JSON_INTEGER_FORMAT " calls; contentions hit: %s\n",
			d, drain_name(result), json_integer_value(json_object_get(dj, "drains")),
			shown ? "see above" : "0");
		print_contention_model(out, cc, dj);
		fprintf(out, "\n");
	}
}

/* rt-tests oslat's view: what each worker lost, and how much to drains */
static void print_interruptions(FILE *out, json_t *result)
{
	json_t *irq = json_object_get(result, "interruptions"), *x;
	size_t i;
	int w = 24;

	json_array_foreach(irq, i, x)
		if (first_col(str(x, "design")) > w)
			w = first_col(str(x, "design"));
	json_array_foreach(irq, i, x) {
		const char *d = str(x, "design");

		if (i == 0)
			fprintf(out, "%-*s%-6s%-8s%-11s%-12s%-10s%-10s%s\n", w, "interruptions", "cpu",
				"count", "by drains", "stolen us", "max us", "p99 us", "p99.9 us");
		fprintf(out, "%-*s%-6" JSON_INTEGER_FORMAT "%-8" JSON_INTEGER_FORMAT "%-11"
			JSON_INTEGER_FORMAT "%-12.1f%-10.1f%-10.1f%.1f   (gap > %.1f us)\n",
			w, d,
			json_integer_value(json_object_get(x, "cpu")),
			json_integer_value(json_object_get(x, "count")),
			json_integer_value(json_object_get(x, "attributed")),
			json_number_value(json_object_get(x, "stolen_ns")) / 1e3,
			json_number_value(json_object_get(x, "max_ns")) / 1e3,
			json_number_value(json_object_get(x, "p99_ns")) / 1e3,
			json_number_value(json_object_get(x, "p999_ns")) / 1e3,
			json_number_value(json_object_get(x, "threshold_ns")) / 1e3);
	}
	if (json_array_size(irq))
		fprintf(out, "\n");
}

int pcb_tables_print(FILE *out, json_t *result, char *err, size_t errlen)
{
	struct pcb_table_opts opts = { 0 };

	return pcb_tables_print_opts(out, result, &opts, err, errlen);
}

int pcb_tables_print_opts(FILE *out, json_t *result, const struct pcb_table_opts *opts,
			  char *err, size_t errlen)
{
	json_t *designs = json_object_get(result, "designs");
	json_t *functions = json_object_get(result, "functions");
	json_t *notes = json_object_get(result, "notes");
	json_t *dj;
	size_t i;

	if (!json_is_array(designs) || !json_is_array(functions) ||
	    !json_is_object(json_object_get(result, "context")) ||
	    !json_is_object(json_object_get(result, "scenario"))) {
		snprintf(err, errlen, "not a pcpbench result (designs, functions, context, "
			 "scenario missing)");
		return -1;
	}
	print_header(out, result, opts);

	pcb_tables_functions(out, result, opts);

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

	print_drains(out, result);
	print_contention(out, result);
	print_interruptions(out, result);

	json_array_foreach(designs, i, dj)
		print_counters(out, result, dj);

	json_array_foreach(designs, i, dj) {
		json_t *work = json_object_get(dj, "work");
		json_t *inv = json_object_get(dj, "invariant_name");
		json_t *cache = json_object_get(dj, "cache_name");

		fprintf(out, "%s: %s %s; %s %" JSON_INTEGER_FORMAT " bytes; %"
			JSON_INTEGER_FORMAT " operations", str(dj, "design"),
			inv ? str(dj, "invariant_name") : "charge invariant", str(dj, "charge_invariant"),
			cache ? str(dj, "cache_name") : "stock",
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
		if (json_integer_value(json_object_get(dj, "drains")))
			fprintf(out, "; drained: %s", str(dj, "drain_promise"));
		fprintf(out, "\n");
	}
	json_array_foreach(notes, i, dj)
		fprintf(out, "note: %s\n", json_is_string(dj) ? json_string_value(dj) : "?");
	return 0;
}
