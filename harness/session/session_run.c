/* SPDX-License-Identifier: MIT */
/*
 * A scenario's runs: a slot a design and configuration, the runs in the
 * scenario's order (blocked, interleaved, shuffled), progress on a
 * terminal, run.runs = auto's further rounds, and what a stop leaves.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../output/result.h"
#include "../output/write/json_context.h"
#include "../run/runner.h"
#include "../schema/schema.h"
#include "exit.h"
#include "session_run.h"

static void progress_line(struct progress *p, const struct pcb_design *d, int run, int runs,
			  int done, int total)
{
	double el = now_s() - p->start;

	if (!p->tty)
		return;
	fprintf(stderr, "\r\033[K[%s] ", p->scenario);
	if (p->node >= 0)
		fprintf(stderr, "node %d (%d/%d) ", p->node, p->node_i + 1, p->nr_nodes);
	fprintf(stderr, "%s%s%s run %d/%d (%d of %d)  elapsed %.0fs, about %.0fs left",
		d->name, *p->config ? " " : "", p->config, run + 1, runs, done + 1,
		total, el, fmax(0, p->estimate - el));
	fflush(stderr);
}

/*
 * The order of a scenario's runs, as (slot, run) pairs: every run of a design
 * before the next (blocked), each round of runs over every design and
 * configuration in turn (interleaved), or each round in an order drawn from
 * the scenario's seed (shuffled). Interleaved and shuffled orders spread a
 * drifting host over every design alike.
 */
static int make_order(const struct slot *slots, int n, int mode, unsigned long seed, int *order)
{
	int max_runs = 0, k = 0;
	uint64_t rng = (seed + 1) * 0x9E3779B97F4A7C15ULL;

	for (int i = 0; i < n; i++)
		max_runs = slots[i].sc->runs > max_runs ? slots[i].sc->runs : max_runs;
	if (mode == PCB_ORDER_BLOCKED) {
		for (int i = 0; i < n; i++)
			for (int r = 0; r < slots[i].sc->runs; r++) {
				order[k++] = i;
				order[k++] = r;
			}
		return k / 2;
	}
	for (int r = 0; r < max_runs; r++) {
		int perm[n];

		for (int i = 0; i < n; i++)
			perm[i] = i;
		for (int i = n - 1; mode == PCB_ORDER_SHUFFLED && i > 0; i--) {
			int j = (int)((pcb_rng_next(&rng) >> 33) % (uint64_t)(i + 1)), t;

			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		for (int i = 0; i < n; i++)
			if (r < slots[perm[i]].sc->runs) {
				order[k++] = perm[i];
				order[k++] = r;
			}
	}
	return k / 2;
}
/* room for every design's result and slot, and the order of their runs; -1 if none */
static int alloc_run(struct scn_run *r)
{
	int total = 0, nruns = 0;

	for (int c = 0; c < r->ncfg; c++) {
		total += r->cfg[c].nr_designs;
		nruns += r->cfg[c].nr_designs * r->cfg[c].runs;
	}
	r->res = calloc((size_t)total, sizeof(*r->res));
	r->slots = calloc((size_t)total, sizeof(*r->slots));
	r->order = calloc((size_t)nruns * 2, sizeof(*r->order));
	if (!r->res || !r->slots || !r->order) {
		fprintf(stderr, "%s: out of memory\n", r->cfg[0].name);
		free(r->res);
		free(r->slots);
		free(r->order);
		return -1;
	}
	return 0;
}

/* a slot for each design of each configuration, its result made ready; 0 or EXIT_RUNTIME */
static int init_slots(struct scn_run *r)
{
	int rc = 0;

	r->total = 0;
	for (int c = 0; c < r->ncfg; c++) {
		struct pcb_scenario *sc = &r->cfg[c];

		for (int d = 0; d < sc->nr_designs; d++) {
			r->slots[r->total].sc = sc;
			r->slots[r->total].d = sc->design[d];
			if (pcb_design_result_init(&r->res[r->total], sc, sc->design[d],
						   r->ss->clk) < 0)
				rc = EXIT_RUNTIME;
			r->total++;
		}
	}
	return rc;
}

/* every configuration's workers locked against another pcpbench, which a note names */
static void lock_workers(struct scn_run *r)
{
	for (int c = 0; c < r->ncfg; c++)
		session_lock_cpus(r->ss->once, r->cfg[c].workers, r->busy, sizeof(r->busy));
	if (r->busy[0])
		fprintf(stderr, "%s: note: another pcpbench holds CPU %s: its work disturbs these "
			"figures\n", r->cfg[0].name, r->busy);
}
/* run number run of slot i, the k-th of the scenario's; 0 or EXIT_RUNTIME */
static int run_one(struct scn_run *r, int i, int run, int k)
{
	struct progress *pg = r->pg;
	struct slot *sl = &r->slots[i];
	char err[1024];
	int rc = 0;

	pg->config = sl->sc->label;
	progress_line(pg, sl->d, run, pcb_runs_room(sl->sc), k, r->nruns);
	if (pcb_run_design(r->ss->topo, r->ss->clk, &r->res[i], run, err, sizeof(err)) < 0) {
		if (pg->tty)
			fprintf(stderr, "\n");
		fprintf(stderr, "%s: %s: %s\n", pg->scenario, r->res[i].label, err);
		rc = EXIT_RUNTIME;
	}
	json_array_append_new(r->runs, json_pack("{s:s,s:i}", "design", r->res[i].label,
						 "run", run + 1));
	return rc;
}

/* the runs in their order, until one fails or a stop is asked for; 0 or EXIT_RUNTIME */
static int run_in_order(struct scn_run *r)
{
	int rc = 0;

	for (int k = 0; k < r->nruns && rc == 0; k++) {
		if (session_interrupted()) {
			r->interrupted = k;
			break;
		}
		rc = run_one(r, r->order[2 * k], r->order[2 * k + 1], k);
	}
	return rc;
}

/* run.runs = auto: what the stopping rule says of a result after the runs it has */
static enum pcb_runs_verdict auto_verdict(const struct pcb_design_result *res)
{
	const struct pcb_scenario *sc = res->sc;
	struct pcb_runs_rule rule = {
		.min_runs = sc->runs, .max_runs = pcb_runs_room(sc), .ci_target = sc->ci_target,
	};
	const double *rows[PCB_MAX_FN + 1];
	int n = 0;

	/* every row the tables print with a STDDEV: the functions that ran, the drains */
	for (int f = 0; f < sc->model->nr_fn; f++)
		if (res->fn[f].total.calls)
			rows[n++] = res->fn[f].run_mean;
	if (res->drain.active)
		rows[n++] = res->drain.run_mean;
	return pcb_runs_verdict(&rule, rows, n, res->runs_done);
}

/*
 * run.runs = auto, after the planned runs: rounds of one more run of each
 * design and configuration the rule wants more of, in slot order, until
 * it wants none; 0 or EXIT_RUNTIME
 */
static int run_more(struct scn_run *r)
{
	int rc = 0, more = 1, any = 0;

	while (more && rc == 0 && r->interrupted < 0) {
		more = 0;
		for (int i = 0; i < r->total && rc == 0 && r->interrupted < 0; i++) {
			struct pcb_design_result *res = &r->res[i];
			enum pcb_runs_verdict v;

			if (!res->sc->runs_auto || res->runs_done < res->runs)
				continue;
			any = 1;
			/* a run a stop cut short: what finished is kept, as in run_in_order() */
			if (session_interrupted()) {
				r->interrupted = r->nruns;
				break;
			}
			v = auto_verdict(res);
			res->runs_met = v == PCB_RUNS_MET;
			if (v != PCB_RUNS_MORE || pcb_design_result_more(res) < 0)
				continue;
			rc = run_one(r, i, res->runs - 1, r->nruns++);
			more = 1;
		}
	}
	if (any && rc == 0 && r->interrupted < 0 && session_interrupted())
		r->interrupted = r->nruns;
	return rc;
}

/* after a stop: what finished, designs with runs, each with the runs it has */
static void keep_finished(struct scn_run *r)
{
	int kept = 0, finished = 0;

	for (int d = 0; d < r->total; d++) {
		/* the runs that finished: a run a stop cut short is not one of them */
		finished += r->res[d].runs_done;
		if (!r->res[d].runs_done) {
			pcb_design_result_free(&r->res[d]);
			continue;
		}
		r->res[d].runs = r->res[d].runs_done;
		r->res[kept++] = r->res[d];
	}
	if (finished)
		fprintf(stderr, "%s: interrupted after %d of %d runs: the result has what "
			"finished and says complete: false\n", r->cfg[0].name, finished, r->nruns);
	else
		fprintf(stderr, "%s: interrupted before a run finished: no result written\n",
			r->cfg[0].name);
	r->total = kept;
}
/* what run_scenario() holds, freed */
static void free_run(struct scn_run *r)
{
	json_decref(r->runs);
	pcb_load_sample_free(&r->load);
	for (int d = 0; d < r->total; d++)
		pcb_design_result_free(&r->res[d]);
	free(r->res);
	free(r->slots);
	free(r->order);
	json_decref(r->context);
}

int run_scenario(const struct session *ss, struct pcb_scenario *cfg, int ncfg,
		 struct progress *pg)
{
	struct scn_run r = { .ss = ss, .cfg = cfg, .ncfg = ncfg, .pg = pg, .interrupted = -1 };
	char started[32];
	int rc;

	if (alloc_run(&r) < 0)
		return EXIT_RUNTIME;
	rc = init_slots(&r);
	r.nruns = make_order(r.slots, r.total, cfg[0].order, (unsigned long)cfg[0].seed, r.order);
	lock_workers(&r);
	pcb_utc_timestamp(started, sizeof(started), 0);
	r.context = pcb_result_context(ss->topo, ss->clk, ss->command, started);
	session_record_state(&r);
	r.runs = json_array();
	pg->scenario = cfg[0].name;
	pg->result[0] = 0;
	/* the machine's load from here to the last run's end: steal, the load average */
	pcb_load_sample_take(&r.load, rj_ctx_has_machine_root(r.context) ?
			     rj_ctx_machine_root(r.context) : "/");
	r.load_at = now_s();
	if (rc == 0)
		rc = run_in_order(&r);
	if (rc == 0 && r.interrupted < 0)
		rc = run_more(&r);
	if (pg->tty)
		fprintf(stderr, "\r\033[K");
	session_record_run_load(&r);
	if (rc == 0 && r.interrupted >= 0) {
		keep_finished(&r);
		rc = EXIT_RUNTIME;
	}
	if (r.total > 0 && (rc == 0 || r.interrupted >= 0))
		rc = session_finish_result(&r, rc);
	free_run(&r);
	return rc;
}
