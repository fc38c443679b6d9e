/* SPDX-License-Identifier: MIT */
/*
 * result.json and the cover-letter tables from hand-made run figures: the
 * fields, the numbers in the tables, and the round trip through a written
 * result directory.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testing.h"
#include "pcb/registry.h"
#include "../../harness/output/present/tables.h"
#include "../../harness/output/read/query.h"
#include "../../harness/output/result.h"
#include "../../harness/output/write/json.h"
#include "../../harness/output/write/json_context.h"

static char *tables_of(json_t *result)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(pcb_tables_print(f, result, err, sizeof(err)) == 0, "%s", err);
	fclose(f);
	return buf;
}

/* the tables of a copy of result read raw, as run --raw and report --raw read one */
static char *raw_tables_of(json_t *result)
{
	json_t *raw = json_deep_copy(result);
	char *t;

	pcb_result_set_raw(raw);
	t = tables_of(raw);
	json_decref(raw);
	return t;
}

static json_t *find_row(json_t *functions, const char *design, const char *fn)
{
	json_t *fj;
	size_t i;

	json_array_foreach(functions, i, fj)
		if (!strcmp(json_string_value(json_object_get(fj, "design")), design) &&
		    !strcmp(json_string_value(json_object_get(fj, "function")), fn))
			return fj;
	return NULL;
}

static void fill(struct pcb_design_result *r, const struct pcb_design *d,
		 const struct pcb_scenario *sc, const double *consume, const double *refill, int runs)
{
	int consume_row = pcb_fn_find(sc->model, "consume_stock");

	memset(r, 0, sizeof(*r));
	r->design = d;
	r->variant = d->variant[0];
	r->sc = sc;
	snprintf(r->label, sizeof(r->label), "%s", d->name);
	r->runs = runs;
	r->nr_workers = 1;
	r->worker = calloc(1, sizeof(*r->worker));
	r->gaps = calloc(1, sizeof(*r->gaps));
	r->drain.run_mean = calloc((size_t)runs, sizeof(double));
	r->ovh = calloc((size_t)runs, sizeof(*r->ovh));
	r->tsc_step = 2;
	for (int i = 0; i < runs; i++) {
		/* the empty region each run subtracted: 30 ticks, and 33 after run 2 */
		r->ovh[i].start = 30;
		r->ovh[i].in_run = 30;
		r->ovh[i].subtracted = 30;
		r->ovh[i].end = i == 1 ? 33 : 30;
		r->ovh[i].lo = 29;
		r->ovh[i].hi = 33;
	}
	r->worker[0].cpu = 1;
	r->worker[0].node = 0;
	r->worker[0].cache_node = -1;
	snprintf(r->check, sizeof(r->check), "ok");
	for (int f = 0; f < PCB_MAX_FN; f++) {
		r->fn[f].run_mean = calloc((size_t)runs, sizeof(double));
		r->fn[f].run_raw_mean = calloc((size_t)runs, sizeof(double));
		r->fn[f].run_calls = calloc((size_t)runs, sizeof(uint64_t));
		r->fn[f].run_interrupted = calloc((size_t)runs, sizeof(uint64_t));
		for (int i = 0; i < runs; i++) {
			r->fn[f].run_mean[i] = f == consume_row ? consume[i] : refill[i];
			/* as read: the 30-tick empty region on top of every call */
			r->fn[f].run_raw_mean[i] = r->fn[f].run_mean[i] + 30;
			/* a run's rows under no memory.max: all but the charge path's drain */
			r->fn[f].run_calls[i] = f < sc->model->nr_fn &&
						f != pcb_fn_find(sc->model, "drain_all_stock") ?
						100 + (uint64_t)f : 0;
			r->fn[f].total.calls += r->fn[f].run_calls[i];	/* as the runner merges them */
		}
		r->fn[f].total.samples = 300;
		for (uint64_t v = 1; v <= 100; v++)
			r->fn[f].total.hist.count[pcb_hist_index(v)]++;
		r->fn[f].total.max = 100;
	}
}

/*
 * A drain row's runs and the note on a line that moved: spinlock's three
 * runs drained in 900, 1000 and 1100 cycles, 50 of each its wake; the
 * line cost 100 ticks in the first run and 450 and 460 after (the host
 * moved the CPUs), then 450, 455 and 460 (it did not).
 */
static void check_drains(json_t *ctx, const struct pcb_scenario *sc,
			 struct pcb_design_result *res)
{
	struct pcb_drain_result *dr = &res[1].drain;
	static const double moved[] = { 100, 450, 460 }, still[] = { 450, 455, 460 };

	dr->active = 1;
	dr->cpu = 0;
	dr->count = 30;
	dr->wake_sum = 30 * 50;
	dr->run_line = calloc(3, sizeof(double));
	dr->run_wake = calloc(3, sizeof(double));
	for (int pass = 0; pass < 2 && dr->run_line && dr->run_wake; pass++) {
		json_t *result, *row, *runs, *notes, *n;
		int noted = 0;
		size_t i;

		for (int r = 0; r < 3; r++) {
			dr->run_mean[r] = 900 + 100 * r;
			dr->run_wake[r] = 50;
			dr->run_line[r] = pass ? still[r] : moved[r];
		}
		result = pcb_result_build(ctx, sc, res, 2);
		row = json_array_get(json_object_get(result, "drains"), 0);
		runs = json_object_get(row, "runs");
		CHECK(json_array_size(runs) == 3, "three runs in the drain row");
		CHECK_NEAR(json_number_value(json_object_get(json_array_get(runs, 2), "avg_cycles")),
			   1100, 1e-9);
		CHECK_NEAR(json_number_value(json_object_get(json_array_get(runs, 2),
							     "avg_cycles_without_wake")), 1050, 1e-9);
		CHECK_NEAR(json_number_value(json_object_get(row, "avg_cycles_without_wake")), 950,
			   1e-9);
		CHECK_NEAR(json_number_value(json_object_get(row, "line_cycles")),
			   pass ? 455 : 1010.0 / 3, 1e-9);
		notes = json_object_get(result, "notes");
		json_array_foreach(notes, i, n)
			noted |= strstr(json_string_value(n), "cost 100 cycles in a run of spinlock "
					"and 460 in one of spinlock") != NULL;
		CHECK(noted == !pass, "pass %d: a line that %s", pass,
		      pass ? "held is noted as moved" : "moved from 100 to 460 is not noted");
		json_decref(result);
	}
	dr->active = 0;
}

/* the hand-made scenario every case reads */
static const char unit_scn[] =
	"[scenario]\nname = unit\ndescription = hand-made figures\n"
	"[run]\ndesigns = local_lock, spinlock\ntiming = batch\nruns = 3\n"
	"[cpus]\nworkers = 1\n";

/* its result, built from hand-made figures, and the tables printed of it */
struct fixture {
	struct pcb_topo topo;
	struct pcb_scenario sc;
	struct pcb_design_result res[2];
	json_t *ctx, *result;
	char *tables, *raw_tables;	/* tables_of(), raw_tables_of() */
};

static void fixture_make(struct fixture *f)
{
	const double ll_consume[] = { 50, 52, 54 }, ll_refill[] = { 65, 65, 65 };
	const double sl_consume[] = { 60, 62, 64 }, sl_refill[] = { 65.2, 64.8, 65.0 };
	struct pcb_clock clk = { .tsc_hz = 2.6e9, .step = 2, .overhead = { 30.0, 31.0 } };
	char err[512];

	CHECK(pcb_topo_load(&f->topo, "numa:2 core:2 pu:1", err, sizeof(err)) == 0, "%s", err);
	CHECK(pcb_scenario_load_text(&f->sc, "unit.scn", unit_scn, err, sizeof(err)) == 0, "%s",
	      err);
	CHECK(pcb_scenario_finish(&f->sc, &f->topo, err, sizeof(err)) == 0, "%s", err);
	fill(&f->res[0], pcb_design_find(f->sc.model, "local_lock"), &f->sc, ll_consume,
	     ll_refill, 3);
	fill(&f->res[1], pcb_design_find(f->sc.model, "spinlock"), &f->sc, sl_consume,
	     sl_refill, 3);

	f->ctx = pcb_result_context(&f->topo, &clk, "pcpbench run unit.scn",
				    "2026-01-01T00:00:00Z");
	json_object_set_new(f->ctx, "complete", json_true());
	f->result = pcb_result_build(f->ctx, &f->sc, f->res, 2);
	f->tables = tables_of(f->result);
	f->raw_tables = raw_tables_of(f->result);
}

static void fixture_free(struct fixture *f)
{
	free(f->tables);
	free(f->raw_tables);
	json_decref(f->result);
	json_decref(f->ctx);
	for (int d = 0; d < 2; d++)
		pcb_design_result_free(&f->res[d]);
	pcb_scenario_free(&f->sc);
	pcb_topo_destroy(&f->topo);
}

/* the fields result.json promises */
static void fields(const struct fixture *f)
{
	static const char *const context_keys[] = {
		"host", "cpu_model", "cpus", "numa_nodes", "tsc_hz", "tsc_step",
		"timer_overhead", "kernel", "version", "command", "started", "complete",
	};
	static const char *const fn_keys[] = {
		"design", "function", "timing", "avg_cycles", "stddev", "calls", "p50",
		"p99", "p999", "max", "runs",
	};
	json_t *result = f->result;
	json_t *c = json_object_get(result, "context");
	json_t *s = json_object_get(result, "scenario");
	json_t *fj;
	size_t i;

	for (i = 0; i < sizeof(context_keys) / sizeof(context_keys[0]); i++)
		CHECK(json_object_get(c, context_keys[i]), "context.%s", context_keys[i]);
	CHECK(json_is_true(json_object_get(c, "complete")), "complete");
	CHECK(!strcmp(json_string_value(json_object_get(s, "name")), "unit"), "name");
	CHECK(!strcmp(json_string_value(json_object_get(s, "text")), unit_scn), "full text");
	CHECK(!strcmp(json_string_value(json_object_get(json_object_get(s, "settings"),
							 "run.runs")), "3"), "settings");
	CHECK(json_array_size(json_object_get(result, "functions")) ==
	      2 * (size_t)(f->sc.model->nr_fn - 1), "rows");
	json_array_foreach(json_object_get(result, "functions"), i, fj)
		for (size_t k = 0; k < sizeof(fn_keys) / sizeof(fn_keys[0]); k++)
			CHECK(json_object_get(fj, fn_keys[k]), "functions[%zu].%s", i, fn_keys[k]);
	fj = json_array_get(json_object_get(result, "functions"), 0);
	CHECK(!strcmp(json_string_value(json_object_get(fj, "function")), "consume_stock"), "order");
	CHECK_NEAR(json_number_value(json_object_get(fj, "avg_cycles")), 52.0, 1e-9);
	CHECK_NEAR(json_number_value(json_object_get(fj, "stddev")), 2.0, 1e-9);
	CHECK(json_integer_value(json_object_get(fj, "calls")) == 300, "calls summed");
	CHECK(json_integer_value(json_object_get(fj, "p50")) == 50, "p50");
	CHECK(json_integer_value(json_object_get(fj, "p99")) == 96, "p99");
	CHECK(json_array_size(json_object_get(fj, "runs")) == 3, "runs");
}

/*
 * The noise gate on the same figures: consume_stock's 50, 52, 54 spread
 * by 2 / 52 = 3.846% (unstable, above the default 3%), spinlock's 60,
 * 62, 64 by 2 / 62 = 3.226% (unstable); refill_stock's 65, 65, 65 by
 * nothing and 65.2, 64.8, 65.0 by 0.2 / 65 = 0.3077% (stable). The 95%
 * half-width of 50, 52, 54: 4.303 x 2 / sqrt(3) = 4.9688, 9.555% of 52.
 */
static void noise_gate(const struct fixture *f)
{
	json_t *fns = json_object_get(f->result, "functions");
	json_t *ll = json_array_get(fns, 0), *llr = json_array_get(fns, 1);
	json_t *sl = find_row(fns, "spinlock", "consume_stock");
	json_t *slr = find_row(fns, "spinlock", "refill_stock");

	CHECK_NEAR(json_number_value(json_object_get(ll, "cv_pct")), 100.0 * 2 / 52, 1e-9);
	CHECK(json_is_true(json_object_get(ll, "unstable")), "50, 52, 54 unstable");
	CHECK_NEAR(json_number_value(json_object_get(ll, "ci95_pct")),
		   100 * 4.303 * 2 / sqrt(3) / 52, 1e-9);
	CHECK_NEAR(json_number_value(json_object_get(llr, "cv_pct")), 0, 1e-12);
	CHECK(json_is_false(json_object_get(llr, "unstable")), "65 x 3 stable");
	CHECK(sl && json_is_true(json_object_get(sl, "unstable")), "60, 62, 64 unstable");
	CHECK_NEAR(json_number_value(json_object_get(sl, "cv_pct")), 100.0 * 2 / 62, 1e-9);
	CHECK(slr && json_is_false(json_object_get(slr, "unstable")), "0.31%% stable");
	CHECK_NEAR(json_number_value(json_object_get(slr, "cv_pct")), 100.0 * 0.2 / 65, 1e-9);
	CHECK(!json_object_get(json_array_get(json_object_get(f->result, "designs"), 0),
			       "runs_target_met"), "no runs_target_met without run.runs = auto");
}

/* the tables, line by line where the figures are */
static void tables(const struct fixture *f)
{
	const char *t = f->tables;

	CHECK(strstr(t, "local_lock              Avg cycles      STDDEV          Call Count\n"
			"consume_stock:          52.00           2.00!           300\n"
			"refill_stock:           65.00           0.00            303\n"), "%s", t);
	CHECK(strstr(t, "spinlock                Avg cycles      STDDEV          Call Count\n"
			"consume_stock:          62.00           2.00!           300\n"), "%s", t);
	CHECK(strstr(t, "! unstable: the run means' coefficient of variation is above "
			"run.max_cv (3%)"), "%s", t);
	/*
	 * 10 cycles over a spread of 2 in 3 runs: t = 6.12, 4 df, p = 0.0036,
	 * below 0.05 / 8 (Holm's first step): marked, its interval at 99.375%;
	 * the seven rows of no difference (p = 1) stop Holm at its second step,
	 * each at 1 - 0.05 / 7. Computed apart (mpmath: Student's t by the
	 * incomplete beta function, Fieller's quadratic): consume_stock's t is
	 * 5.2611 (4 df), the Diff %'s interval [2.50, 39.26]; 65.2, 64.8, 65.0
	 * over 65 x 3, 2 df, t = 11.769: [-2.09, 2.09]. geomean of 62/52 and
	 * seven ratios of 1: (62/52)^(1/8) - 1 = 2.22%.
	 */
	CHECK(strstr(t, "spinlock - local_lock   Diff (cycles)   Diff %          CI (Holm)\n"
			"consume_stock:          10.00           19.23*          [2.50, 39.26]\n"
			"refill_stock:           0.00            0.00            [-2.09, 2.09]\n"),
	      "%s", t);
	CHECK(strstr(t, "try_charge_memcg:       0.00            0.00            [-2.09, 2.09]\n"
			"geomean:                -               2.22\n"), "%s", t);
	CHECK(strstr(t, "* the difference is significant: Welch's test on the run means, Holm's "
			"step-down over the 8\n  differences above"), "footnote: %s", t);
	/* the levels, 1 - 0.05 / 7 and 1 - 0.05 / 8, wherever the legend's lines break */
	CHECK(strstr(t, "(99.29%") && strstr(t, "99.38%)"), "the levels: %s", t);
	CHECK(strstr(t, "consume_stock:          50        96        100       100\n"), "percentiles");
	CHECK(strstr(t, "timing: batch"), "timing mode named");
	CHECK(strstr(t, "(30.0 cycles of empty region subtracted per batch)"), "%s", t);
	CHECK(strstr(t, "cycles: TSC cycles at 2600.0 MHz (step 2); means net"), "%s", t);
	/* the run whose empty region moved by 3 ticks, more than the 2-tick step */
	CHECK(strstr(t, "local_lock: in 1 run(s) of a worker the empty timed region moved"),
	      "overhead note: %s", t);
}

/* raw: the timer included, as the seed's instrumentation read it (run --raw) */
static void raw_tables(const struct fixture *f)
{
	const char *t = f->raw_tables;

	CHECK(strstr(t, "local_lock              Raw cycles      STDDEV          Call Count\n"
			"consume_stock:          82.00           2.00!           300\n"), "%s", t);
	CHECK(strstr(t, "spinlock - local_lock   Diff (cycles)   Diff %          CI (Holm)\n"
			"consume_stock:          10.00           12.20*          ["), "%s", t);
	CHECK(strstr(t, "cycles of empty region included, not subtracted"), "%s", t);
	CHECK(strstr(t, "means raw: the timer's empty region in them"), "%s", t);
	{
		json_t *o = json_object_get(json_array_get(json_object_get(f->result, "designs"), 0),
					    "overhead_ticks");

		CHECK(json_array_size(o) == 3 &&
		      json_number_value(json_object_get(json_array_get(o, 1), "end")) == 33,
		      "overhead_ticks per run and worker");
	}
}

/*
 * written, read back, printed again: the same tables; an unwritable place
 * leaves nothing behind and says why
 */
static void written(const struct fixture *f)
{
	char err[512], dir[PATH_MAX], path[PATH_MAX], tmpl[] = "/tmp/pcpbench-test-XXXXXX";
	char file[PATH_MAX + 32], cmd[PATH_MAX + 16], saved[8192] = "";
	json_error_t jerr;
	json_t *back;
	char *t;
	FILE *in;
	size_t n;

	CHECK(mkdtemp(tmpl) != NULL, "mkdtemp");
	snprintf(dir, sizeof(dir), "%s/results", tmpl);
	CHECK(pcb_result_write(f->result, dir, path, sizeof(path), err, sizeof(err)) == 0, "%s",
	      err);
	snprintf(file, sizeof(file), "%s/result.json", path);
	back = json_load_file(file, 0, &jerr);
	CHECK(back != NULL, "%s", jerr.text);
	t = back ? tables_of(back) : strdup("");
	CHECK(!strcmp(f->tables, t), "report differs:\n%s\n---\n%s", f->tables, t);
	free(t);
	t = back ? raw_tables_of(back) : strdup("");
	CHECK(!strcmp(f->raw_tables, t), "raw report differs:\n%s\n---\n%s", f->raw_tables, t);
	free(t);
	json_decref(back);
	snprintf(file, sizeof(file), "%s/tables.txt", path);
	in = fopen(file, "r");
	CHECK(in != NULL, "tables.txt");
	n = in ? fread(saved, 1, sizeof(saved) - 1, in) : 0;
	saved[n] = 0;
	if (in)
		fclose(in);
	CHECK(!strcmp(saved, f->tables), "tables.txt differs");
	snprintf(file, sizeof(file), "%s/functions.csv", path);
	CHECK(access(file, R_OK) == 0, "functions.csv");
	snprintf(file, sizeof(file), "%s/runs.csv", path);
	CHECK(access(file, R_OK) == 0, "runs.csv");

	CHECK(pcb_result_write(f->result, "/proc/pcpbench-cannot-be-here", path, sizeof(path), err,
			       sizeof(err)) < 0 && strstr(err, "/proc/pcpbench-cannot-be-here"),
	      "%s", err);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	CHECK(system(cmd) == 0, "cleanup");
}

int main(void)
{
	static struct fixture f;

	fixture_make(&f);
	fields(&f);
	noise_gate(&f);
	tables(&f);
	raw_tables(&f);
	written(&f);
	check_drains(f.ctx, &f.sc, f.res);
	fixture_free(&f);
	return check_summary();
}
