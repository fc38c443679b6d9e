/* SPDX-License-Identifier: MIT */
/*
 * The cover-letter tables of seed 000, printed from a result's JSON so that
 * `pcpbench run` and `pcpbench report` cannot disagree.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../measure/stats.h"
#include "scaling.h"
#include "rows.h"
#include "tables.h"
#include "textout.h"

int first_col(const char *s)
{
	int n = (int)strlen(s) + 2;

	return n < 24 ? 24 : n;
}

const char *pcb_setting(json_t *result, int key)
{
	const struct pcb_key *k = pcb_key_get(key);
	char name[128];

	snprintf(name, sizeof(name), "%s.%s", k->section, k->name);
	return pcb_setting_named(result, name);
}

const char *pcb_setting_named(json_t *result, const char *name)
{
	/* scenario keys are declared in scenario/keys.c, each model's in its folder */
	json_t *settings = rj_sc_settings(rj_top_scenario(result));
	const char *s = json_string_value(json_object_get(settings, name));

	return s ? s : "?";
}

const char *pcb_runs_setting(json_t *result, char *buf, size_t len)
{
	const char *runs = pcb_setting(result, K_RUN_RUNS);

	if (strcmp(runs, "auto"))
		return runs;
	snprintf(buf, len, "auto (%d to %s, until every row's 95%% interval is within %s%% of "
		 "its mean)", PCB_AUTO_MIN_RUNS, pcb_setting(result, K_RUN_MAX_RUNS),
		 pcb_setting(result, K_RUN_CI_TARGET));
	return buf;
}

double pcb_timer_overhead(json_t *ctx, const char *timing)
{
	int f = rj_find(RJ_K_tov, timing);

	return f < 0 ? 0 : rj_get_num(rj_ctx_timer_overhead(ctx), (enum rj_field)f);
}

/* the function rows of one design, in result order */
size_t design_functions(json_t *functions, const char *design, json_t **out, size_t max)
{
	size_t i, n = 0;
	json_t *fj;

	json_array_foreach(pcb_rows_where(functions, RJ_F_fn_design, design), i, fj)
		if (n < max)
			out[n++] = fj;
	return n;
}

json_t *find_design(json_t *result, const char *label)
{
	return pcb_row_where(rj_top_designs(result), RJ_F_design_design, label);
}

json_t *find_function(json_t *functions, const char *design, const char *fn)
{
	return pcb_row_where2(functions, RJ_F_fn_design, design, RJ_F_fn_function, fn);
}

int run_means(json_t *fj, int raw, double *v, int max)
{
	json_t *r;
	size_t i;
	int n = 0;

	json_array_foreach(rj_fn_runs(fj), i, r)
		if (n < max)
			v[n++] = raw ? rj_fnrun_raw_avg_cycles(r) : rj_fnrun_avg_cycles(r);
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

	json_array_foreach(rj_top_designs(result), i, dj)
		json_array_foreach(rj_design_overhead_ticks(dj), j, o) {
			double v = rj_ovh_has_subtracted(o) ? rj_ovh_subtracted(o) : rj_ovh_start(o);

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

static const char *setting_value(const struct pcb_template_part *p, void *result, char *buf,
				 size_t len)
{
	return pcb_setting_named(result, p->path);
}

/* the workers line of a result from before the model described its configuration */
static void print_old_workers(FILE *out, json_t *result, const char *ms)
{
	const struct pcb_model *m = pcb_result_model(result);
	char runs[160];

	fprintf(out, "workers: CPU %s; ", rj_sc_workers(rj_top_scenario(result)));
	if (m && m->old_header[0]) {
		pcb_template_print(out, m->old_header[0], setting_value, result);
		fprintf(out, "; ");
	}
	fprintf(out, "%s runs of %s ms", pcb_runs_setting(result, runs, sizeof(runs)), ms);
	if (m && m->old_header[1]) {
		fprintf(out, "; ");
		pcb_template_print(out, m->old_header[1], setting_value, result);
	}
	fprintf(out, "\n\n");
}

/*
 * How batch rows were computed: differenced (functions[].method), or, in
 * results from before it and for rows whose regions are of one length,
 * the empty region subtracted.
 */
static void print_batch_method(FILE *out, json_t *result, const char *sub,
			       const struct pcb_table_opts *opts)
{
	char rows[256] = "";
	int differenced = 0, subtracted = 0;
	size_t i, len = 0;
	json_t *fj;

	json_array_foreach(rj_top_functions(result), i, fj) {
		const char *fn = rj_fn_function(fj);

		if (rj_fn_has_method(fj) && !strcmp(rj_fn_method(fj), "differenced")) {
			differenced = 1;
			continue;
		}
		subtracted = 1;
		if (!strstr(rows, fn) && len + strlen(fn) + 3 < sizeof(rows))
			len += (size_t)snprintf(rows + len, sizeof(rows) - len, "%s%s",
						len ? ", " : "", fn);
	}
	if (opts->raw) {
		fprintf(out, "timing: batch, a batch of calls between two TSC reads "
			"(%s ticks of empty region included, not subtracted)\n", sub);
		return;
	}
	if (!differenced) {
		fprintf(out, "timing: batch, a batch of calls between two TSC reads "
			"(%s ticks of empty region subtracted per batch)\n", sub);
		return;
	}
	fprintf(out, "timing: batch, regions of N and N/2 calls in turn between two TSC "
		"reads; a call costs their difference over N/2 (no empty region subtracted: "
		"%s ticks)\n", sub);
	if (subtracted)
		fprintf(out, "        regions of one length, the empty region subtracted: %s\n",
			rows);
}

/* the settings of the machine that make these figures untrustworthy, on one line */
static void print_untrustworthy(FILE *out, json_t *ctx)
{
	json_t *it;
	size_t i;
	int n = 0;

	json_array_foreach(rj_ctx_machine_state(ctx), i, it) {
		if (strcmp(rj_mst_verdict(it), "bad"))
			continue;
		fprintf(out, "%s%s %s", n++ ? ", " : "untrustworthy: ", rj_mst_setting(it),
			rj_mst_value(it));
		if (rj_mst_has_cpus(it))
			fprintf(out, " (CPU %s)", rj_mst_cpus(it));
	}
	if (n)
		fprintf(out, " (pcpbench check says why)\n");
}

static void print_header(FILE *out, json_t *result, const struct pcb_table_opts *opts)
{
	json_t *ctx = rj_top_context(result);
	json_t *sc = rj_top_scenario(result);
	const char *timing = rj_sc_timing(sc);
	const char *desc = pcb_setting(result, K_SCENARIO_DESCRIPTION);
	const char *ms = pcb_setting(result, K_RUN_OPS)[0] != '0' ? "?" :
			 pcb_setting(result, K_RUN_DURATION_MS);
	double hz = rj_ctx_tsc_hz(ctx);
	char sub[96], runs[160];

	fprintf(out, "pcpbench %s: %s\n", rj_sc_name(sc), *desc && strcmp(desc, "?") ? desc : "");
	fprintf(out, "machine: %s, %" JSON_INTEGER_FORMAT " CPUs, %" JSON_INTEGER_FORMAT
		" NUMA node(s), kernel %s; TSC %.1f MHz, step %" JSON_INTEGER_FORMAT "\n",
		rj_ctx_cpu_model(ctx), rj_ctx_cpus(ctx), rj_ctx_numa_nodes(ctx), rj_ctx_kernel(ctx),
		hz / 1e6, rj_ctx_tsc_step(ctx));
	print_untrustworthy(out, ctx);
	subtracted_text(result, pcb_timer_overhead(ctx, timing), sub, sizeof(sub));
	if (!strcmp(timing, "batch"))
		print_batch_method(out, result, sub, opts);
	else
		fprintf(out, "timing: call, each call between two TSC reads (%s ticks of empty "
			"region %s per call)\n", sub,
			opts->raw ? "included, not subtracted" : "subtracted");
	if (rj_sc_has_timer(sc) && strcmp(rj_sc_timer(sc), "harness"))
		fprintf(out, "timer: %s, %s: means raw (the timer in them) as seed 000's "
			"instrument printed them; percentiles net\n", rj_sc_timer(sc),
			rj_sc_has_timer_insns(sc) ? rj_sc_timer_insns(sc) : "?");
	if (rj_ctx_has_complete(ctx) && !rj_ctx_complete(ctx))
		fprintf(out, "interrupted: the result has only the runs that finished "
			"(complete: false)\n");
	if (rj_sc_has_configuration(sc))	/* the model's own words */
		fprintf(out, "workers: CPU %s; %s %s; %s runs of %s ms\n\n", rj_sc_workers(sc),
			rj_sc_model(sc), rj_sc_configuration(sc),
			pcb_runs_setting(result, runs, sizeof(runs)), ms);
	else
		print_old_workers(out, result, ms);
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

	json_array_foreach(pcb_rows_where2(counters, RJ_F_ctr_design, design, RJ_F_ctr_event,
					   event), i, c)
		if (!strcmp(rj_ctr_thread(c), "all"))
			return c;
	return NULL;
}

/* a counter's value as perf stat prints it: msec for a clock, else with thousands */
static void counter_value(char *buf, size_t len, const char *ev, unsigned long long v, int clocks)
{
	if (clocks ? strstr(ev, "-clock") != NULL : !strcmp(ev, "task-clock") ||
							!strcmp(ev, "cpu-clock"))
		snprintf(buf, len, "%.2f msec", (double)v / 1e6);
	else
		thousands(buf, len, v);
}

/* one event summed over the workers: value, event, what it means per operation */
static void counter_line(FILE *out, json_t *c, json_t *cyc, json_t *dj)
{
	const char *ev = rj_ctr_event(c);
	unsigned long long v = (unsigned long long)rj_ctr_value(c);
	double en = (double)rj_ctr_enabled_ns(c), run = (double)rj_ctr_running_ns(c);
	char num[48], extra[96] = "";

	if (strcmp(rj_ctr_status(c), "counted")) {
		fprintf(out, "%20s      %-24s%s%s%s\n", rj_ctr_status(c), ev,
			rj_ctr_has_error(c) ? "# " : "", rj_ctr_has_error(c) ? rj_ctr_error(c) : "",
			"");
		return;
	}
	counter_value(num, sizeof(num), ev, v, 0);
	if (!strcmp(ev, "instructions") && cyc && !strcmp(rj_ctr_status(cyc), "counted") &&
	    rj_ctr_value(cyc))
		snprintf(extra, sizeof(extra), "# %8.2f insn per cycle",
			 (double)v / (double)rj_ctr_value(cyc));
	else if ((!strcmp(ev, "context-switches") || strstr(ev, "cache-misses")) &&
		 rj_design_drains(dj) > 0)
		snprintf(extra, sizeof(extra), "# %8.3f per drain",
			 (double)v / (double)rj_design_drains(dj));
	else if (rj_ctr_has_per_op(c))
		snprintf(extra, sizeof(extra), "# %8.3f %sper op", rj_ctr_per_op(c),
			 strstr(ev, "-clock") ? "ns " : "");
	fprintf(out, "%20s      %-24s%s", num, ev, extra);
	if (run < en && en > 0)
		fprintf(out, "  (%.2f%%)", 100.0 * run / en);
	fprintf(out, "\n");
}

/* the coordinator's events, per drain */
static void coordinator_counters(FILE *out, json_t *counters, json_t *dj)
{
	const char *d = rj_design_design(dj);
	double drains = (double)rj_design_drains(dj);
	int coord = 0;
	json_t *c;
	size_t i;

	json_array_foreach(pcb_rows_where2(counters, RJ_F_ctr_design, d, RJ_F_ctr_thread,
					   "coordinator"), i, c) {
		const char *ev = rj_ctr_event(c);
		unsigned long long v = (unsigned long long)rj_ctr_value(c);
		char num[48];

		if (!coord++)
			fprintf(out, "  the coordinator:\n");
		if (strcmp(rj_ctr_status(c), "counted")) {
			fprintf(out, "%20s      %s\n", rj_ctr_status(c), ev);
			continue;
		}
		counter_value(num, sizeof(num), ev, v, 1);
		fprintf(out, "%20s      %-24s# %8.3f %sper drain\n", num, ev,
			drains > 0 ? (double)v / drains : 0.0, strstr(ev, "-clock") ? "ns " : "");
	}
}

/* each function's events per call, where they were read around every call */
static void per_call_counters(FILE *out, json_t *per_call, const char *d)
{
	size_t i, shown = 0;
	json_t *c;

	json_array_foreach(pcb_rows_where(per_call, RJ_F_pcall_design, d), i, c) {
		char label[80];

		if (!shown++)
			fprintf(out, "%-24s%-24s%s\n", "per call", "event", "average");
		snprintf(label, sizeof(label), "%s:", rj_pcall_function(c));
		fprintf(out, "%-24s%-24s%.2f (%s)\n", label, rj_pcall_event(c),
			rj_pcall_per_call(c), rj_pcall_read(c));
	}
	if (shown)
		fprintf(out, "\n");
}

/* perf stat's layout: value, event, then what it means per operation */
static void print_counters(FILE *out, json_t *result, json_t *dj)
{
	json_t *counters = rj_top_counters(result), *c;
	const char *d = rj_design_design(dj);
	json_t *cyc = find_counter(counters, d, "cycles");
	size_t i, shown = 0, workers = json_array_size(rj_design_workers(dj));

	json_array_foreach(pcb_rows_where2(counters, RJ_F_ctr_design, d, RJ_F_ctr_thread, "all"),
			   i, c) {
		if (!shown++)
			fprintf(out, "%s counters, %zu worker%s summed over %" JSON_INTEGER_FORMAT
				" runs, %" JSON_INTEGER_FORMAT " operations\n", d, workers,
				workers == 1 ? "" : "s", rj_design_runs(dj), rj_design_ops(dj));
		counter_line(out, c, cyc, dj);
	}
	if (shown) {
		coordinator_counters(out, counters, dj);
		fprintf(out, "\n");
	}
	per_call_counters(out, rj_top_counters_per_call(result), d);
}

/* the model's drain, by its kernel name */
static const char *drain_name(json_t *result)
{
	json_t *sc = rj_top_scenario(result);
	const struct pcb_model *m = pcb_result_model(result);

	if (rj_sc_has_drain_function(sc))
		return rj_sc_drain_function(sc);
	return m ? m->drain_name : "?";
}

/* one design's drains, STDDEV marked where unstable (*noisy then set) */
static void drain_line(FILE *out, json_t *x, int preempted, int *noisy)
{
	const char *d = rj_drain_design(x);
	char comp50[32] = "-", comp99[32] = "-", stranded[48] = "-", walk[32] = "-", line[32] = "-";
	char waited[32] = "-", sdt[32];

	if (rj_drain_has_completion_p50(x)) {
		snprintf(comp50, sizeof(comp50), "%" JSON_INTEGER_FORMAT,
			 rj_drain_completion_p50(x));
		snprintf(comp99, sizeof(comp99), "%" JSON_INTEGER_FORMAT,
			 rj_drain_completion_p99(x));
	}
	if (rj_drain_has_walk_cycles_per_cpu(x))
		snprintf(walk, sizeof(walk), "%.1f", rj_drain_walk_cycles_per_cpu(x));
	if (rj_drain_has_line_cycles(x))
		snprintf(line, sizeof(line), "%.0f", rj_drain_line_cycles(x));
	if (rj_drain_has_stranded_pages_avg(x))
		snprintf(stranded, sizeof(stranded), "%.1f avg, %" JSON_INTEGER_FORMAT " max",
			 rj_drain_stranded_pages_avg(x), rj_drain_stranded_pages_max(x));
	if (rj_drain_has_waited_preempted(x))
		snprintf(waited, sizeof(waited), "%" JSON_INTEGER_FORMAT,
			 rj_drain_waited_preempted(x));
	pcb_stddev_text(sdt, sizeof(sdt), rj_drain_stddev(x), rj_get(x, RJ_F_drain_unstable),
			noisy);
	fprintf(out, "%-*s%-10" JSON_INTEGER_FORMAT "%-14.2f%-10s%-12" JSON_INTEGER_FORMAT
		"%-16s%-12s%-10.0f%-14s%-10s%-*s%s\n", first_col(d), d, rj_drain_count(x),
		rj_drain_avg_cycles(x), sdt, rj_drain_p99_cycles(x), comp50,
		comp99, rj_drain_wake_cycles(x), walk, line, preempted ? 16 : 0, stranded,
		preempted ? waited : "");
}

/* the coordinator's drains; with two designs over several cache counts, 000's table */
static void print_drains(FILE *out, json_t *result)
{
	json_t *drains = rj_top_drains(result);
	const char *a = NULL, *b = NULL;
	json_int_t first_caches = 0;
	size_t i, j;
	json_t *x, *y;
	int several_cache_counts = 0;

	int preempted = 0, noisy = 0;

	if (!json_array_size(drains))
		return;
	/* results that count the drains that waited on a preempted holder get their column */
	json_array_foreach(drains, i, x)
		preempted |= rj_drain_has_waited_preempted(x);
	fprintf(out, "%-24s%-10s%-14s%-10s%-12s%-16s%-12s%-10s%-14s%-10s%s%s\n", drain_name(result),
		"drains", "Average clk", "STDDEV", "p99 clk", "completion p50", "p99", "wake clk",
		"walk clk/cpu", "line clk", preempted ? "stranded pages  " : "stranded pages",
		preempted ? "waited on preempted" : "");
	json_array_foreach(drains, i, x)
		drain_line(out, x, preempted, &noisy);
	fprintf(out, "\n");
	if (noisy)
		pcb_unstable_legend(out, result);

	/* seed 000's "cpus  Upstream  Patched  Diff" over the cache counts */
	json_array_foreach(drains, i, x) {
		const char *name = rj_drain_design_name(x);
		json_int_t caches = rj_drain_caches(x);

		if (!a)
			a = name;
		else if (!b && strcmp(name, a))
			b = name;
		if (i == 0)
			first_caches = caches;
		else if (caches != first_caches)
			several_cache_counts = 1;
	}
	if (!a || !b || !several_cache_counts)
		return;
	fprintf(out, "%-8s%-16s%-16s%-16s%s\n", "cpus", a, b, "Diff (cycles)", "Diff(%)");
	json_array_foreach(pcb_rows_where(drains, RJ_F_drain_design_name, a), i, x) {
		json_int_t caches = rj_drain_caches(x);

		json_array_foreach(pcb_rows_where(drains, RJ_F_drain_design_name, b), j, y) {
			double va = rj_drain_avg_cycles(x), vb = rj_drain_avg_cycles(y);

			if (rj_drain_caches(y) != caches)
				continue;
			fprintf(out, "%-8" JSON_INTEGER_FORMAT "%-16.2f%-16.2f%-16.2f%.2f\n", caches,
				va, vb, vb - va, va ? 100 * (vb - va) / va : 0);
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
	double drains = (double)rj_design_drains(dj), held = rj_design_held_fraction(dj);
	double workers = (double)json_array_size(rj_design_workers(dj));
	json_int_t measured = 0;
	json_t *c;
	size_t j;

	if (!rj_design_has_held_fraction(dj) || drains <= 0)
		return;
	json_array_foreach(pcb_rows_where2(cc, RJ_F_cont_design, rj_design_design(dj),
					   RJ_F_cont_side, "coordinator"), j, c)
		measured += rj_cont_contended(c);
	fprintf(out, "  held %.2f%% of the run: %.2f drainer-side contentions predicted (drains x "
		"workers x held), %" JSON_INTEGER_FORMAT " measured; %.4f a drain\n",
		100 * held, drains * workers * held, measured, (double)measured / drains);
}

/* one row of a design's contention block; the hold column where the result has one */
static void print_contention_row(FILE *out, const char *d, json_t *c, int hold)
{
	char label[96];

	char calls[24] = "-";

	snprintf(label, sizeof(label), "%s (%s):", rj_cont_function(c), rj_cont_side(c));
	if (rj_cont_has_calls(c))
		snprintf(calls, sizeof(calls), "%" JSON_INTEGER_FORMAT, rj_cont_calls(c));
	fprintf(out, "%-*s%-16s%-12" JSON_INTEGER_FORMAT "%-16.1f%-*" JSON_INTEGER_FORMAT,
		first_col(d) + 14, label, calls, rj_cont_contended(c),
		rj_cont_wait_avg_cycles(c), hold ? 16 : 0, rj_cont_wait_max_cycles(c));
	if (hold && rj_cont_has_hold_avg_cycles(c))
		fprintf(out, "%.1f", rj_cont_hold_avg_cycles(c));
	else if (hold)
		fprintf(out, "-");
	fprintf(out, "\n");
}

/*
 * Per design: its contended locks, and where the model timed them the
 * ticks each acquisition held the lock; then, for a design that drains
 * (or could), what its drains hit
 */
static void print_contention(FILE *out, json_t *result)
{
	json_t *designs = rj_top_designs(result), *cc = rj_top_contention(result);
	int hold = 0;
	size_t i, j;
	json_t *dj, *c;

	json_array_foreach(cc, j, c)
		hold |= rj_cont_has_hold_avg_cycles(c);
	json_array_foreach(designs, i, dj) {
		const char *d = rj_design_design(dj);
		int drains = rj_design_drains(dj) || !strcmp(rj_design_drain(dj), "remote");
		int shown = 0;

		json_array_foreach(pcb_rows_where(cc, RJ_F_cont_design, d), j, c) {
			if (!shown++) {
				char title[160];

				snprintf(title, sizeof(title), "%s contention", d);
				fprintf(out, "%-*s%-16s%-12s%-16s%s%s\n", first_col(d) + 14, title,
					"# calls", "contended", "wait clk (avg)",
					hold ? "wait clk (max)  " : "wait clk (max)",
					hold ? "hold clk (avg)" : "");
			}
			print_contention_row(out, d, c, hold);
		}
		if (!drains && !shown)
			continue;
		if (drains) {
			fprintf(out, "%s: %s: %" JSON_INTEGER_FORMAT " calls; contentions hit: %s\n",
				d, drain_name(result), rj_design_drains(dj),
				shown ? "see above" : "0");
			print_contention_model(out, cc, dj);
		}
		fprintf(out, "\n");
	}
}

/* rt-tests oslat's view: what each worker lost, and how much to drains */
static void print_interruptions(FILE *out, json_t *result)
{
	json_t *irq = rj_top_interruptions(result), *x;
	size_t i;
	int w = 24;

	json_array_foreach(irq, i, x)
		if (first_col(rj_irq_design(x)) > w)
			w = first_col(rj_irq_design(x));
	json_array_foreach(irq, i, x) {
		if (i == 0)
			fprintf(out, "%-*s%-6s%-8s%-11s%-12s%-10s%-10s%s\n", w, "interruptions", "cpu",
				"count", "by drains", "stolen us", "max us", "p99 us", "p99.9 us");
		fprintf(out, "%-*s%-6" JSON_INTEGER_FORMAT "%-8" JSON_INTEGER_FORMAT "%-11"
			JSON_INTEGER_FORMAT "%-12.1f%-10.1f%-10.1f%.1f   (gap > %.1f us)\n",
			w, rj_irq_design(x), rj_irq_cpu(x), rj_irq_count(x), rj_irq_attributed(x),
			rj_irq_stolen_ns(x) / 1e3, rj_irq_max_ns(x) / 1e3, rj_irq_p99_ns(x) / 1e3,
			rj_irq_p999_ns(x) / 1e3, rj_irq_threshold_ns(x) / 1e3);
	}
	if (json_array_size(irq))
		fprintf(out, "\n");
}

/* a design's invariant, cache, operations and drain work, in the model's words */
static void print_design_line(FILE *out, const struct pcb_model *m, json_t *dj)
{
	json_t *work = rj_design_work(dj);
	const char *inv = m ? m->invariant_name : "?", *cache = m ? m->cache_name : "?";
	json_t *note = m && m->note_key ? json_object_get(dj, m->note_key) : NULL;

	fprintf(out, "%s: %s %s; %s %" JSON_INTEGER_FORMAT " bytes; %" JSON_INTEGER_FORMAT
		" operations", rj_design_design(dj),
		rj_design_has_invariant_name(dj) ? rj_design_invariant_name(dj) : inv,
		rj_design_invariant(dj),
		rj_design_has_cache_name(dj) ? rj_design_cache_name(dj) : cache,
		rj_design_cache_bytes(dj), rj_design_ops(dj));
	if (rj_work_queued(work))
		fprintf(out, "; drain work (%s) queued %" JSON_INTEGER_FORMAT ", ran %"
			JSON_INTEGER_FORMAT ", deferred %" JSON_INTEGER_FORMAT,
			rj_design_work_delivery(dj), rj_work_queued(work), rj_work_ran(work),
			rj_work_deferred(work));
	/* what the model's setup() said of its implementation, under its note_key */
	if (note)
		fprintf(out, "; %s hooks: %s", m->note_key,
			json_is_string(note) ? json_string_value(note) : "?");
	if (rj_design_drains(dj))
		fprintf(out, "; drained: %s", rj_design_drain_promise(dj));
	if (rj_design_has_runs_target_met(dj))
		fprintf(out, "; %" JSON_INTEGER_FORMAT " runs (auto), %s", rj_design_runs(dj),
			rj_design_runs_target_met(dj) ? "every row within run.ci_target" :
			"run.max_runs reached before every row was within run.ci_target");
	fprintf(out, "\n");
}

int pcb_tables_print(FILE *out, json_t *result, char *err, size_t errlen)
{
	struct pcb_table_opts opts = { 0 };

	return pcb_tables_print_opts(out, result, &opts, err, errlen);
}

static int tables_print(FILE *out, json_t *result, const struct pcb_table_opts *opts,
			char *err, size_t errlen)
{
	json_t *designs = rj_top_designs(result);
	json_t *notes = rj_top_notes(result);
	json_t *sc = rj_top_scenario(result);
	struct pcb_table_opts o = *opts;
	json_t *dj;
	size_t i;

	/* a result just built has not been read back: it goes through the same check */
	if (rj_check(result, RJ_K_top, err, errlen) < 0)
		return -1;
	/* the kernel's timer is the seed's instrument, read as the seed printed it */
	if (rj_sc_has_timer(sc) && !strcmp(rj_sc_timer(sc), "kernel"))
		o.raw = 1;
	opts = &o;
	print_header(out, result, opts);

	pcb_tables_functions(out, result, opts);

	pcb_model_blocks(out, result);

	print_drains(out, result);
	print_contention(out, result);
	print_interruptions(out, result);
	pcb_scaling_print(out, result);

	json_array_foreach(designs, i, dj)
		print_counters(out, result, dj);

	json_array_foreach(designs, i, dj)
		print_design_line(out, pcb_result_model(result), dj);
	json_array_foreach(notes, i, dj)
		fprintf(out, "note: %s\n", json_is_string(dj) ? json_string_value(dj) : "?");
	return 0;
}

int pcb_tables_print_opts(FILE *out, json_t *result, const struct pcb_table_opts *opts,
			  char *err, size_t errlen)
{
	FILE *t = pcb_text_stream(out);
	int rc = tables_print(t, result, opts, err, errlen);

	if (t != out)
		fclose(t);
	return rc;
}
