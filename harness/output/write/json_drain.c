/* SPDX-License-Identifier: MIT */
/*
 * result.json's drains: the coordinator's row of one design, and the notes
 * that say what the drains' shape means for the figures (idle virtual
 * CPUs and where their work ran, refills, a shared CPU, workers left idle
 * by drain.stocks, drains that ran late, a line that moved between runs).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../schema/schema.h"
#include "json_drain.h"
#include "json_rows.h"

/* a line's move between the drainer's CPU and a worker's: the runs' mean, where measured */
static void line_json(json_t *o, const struct pcb_drain_result *dr, int runs)
{
	double sum = 0;
	int n = 0;

	for (int r = 0; dr->run_line && r < runs; r++)
		if (dr->run_line[r] > 0) {
			sum += dr->run_line[r];
			n++;
		}
	if (n)
		rj_set_drain_line_cycles(o, sum / n);
}

/* the mean over the runs of each run's drain less its wake, as runs[] gives them */
static double without_wake(const struct pcb_drain_result *dr, int runs)
{
	double sum = 0;

	for (int r = 0; r < runs; r++)
		sum += dr->run_mean[r] - dr->run_wake[r];
	return runs ? sum / runs : 0;
}

/*
 * every run's wake is known (run_wake[] not NaN): sampled in each, or none,
 * its design queuing no work
 */
static bool has_wake(const struct pcb_design_result *r)
{
	const struct pcb_drain_result *dr = &r->drain;

	if (!dr->count || !dr->run_wake)
		return false;
	for (int i = 0; i < r->runs; i++)
		if (isnan(dr->run_wake[i]))
			return false;
	return true;
}

/* each run's figures, for a claim's test over the run means */
static void drain_runs_json(json_t *o, const struct pcb_design_result *r)
{
	const struct pcb_drain_result *dr = &r->drain;
	int runs = r->runs;
	json_t *a;

	if (!dr->run_line || !dr->run_wake)
		return;
	a = json_array();
	for (int r = 0; r < runs; r++) {
		json_t *x = json_object();

		rj_set_drainrun_avg_cycles(x, dr->run_mean[r]);
		if (!isnan(dr->run_wake[r]))
			rj_set_drainrun_avg_cycles_without_wake(x, dr->run_mean[r] - dr->run_wake[r]);
		if (dr->run_line[r] > 0)
			rj_set_drainrun_line_cycles(x, dr->run_line[r]);
		json_array_append_new(a, x);
	}
	rj_put(o, RJ_F_drain_runs, a);
}

/* the coordinator's drains of one design */
json_t *pcb_drain_json(const struct pcb_design_result *r)
{
	const struct pcb_drain_result *dr = &r->drain;
	int instrumented = r->sc->backend == PCB_BACKEND_INSTRUMENTED;
	json_t *o = json_object();

	rj_set_drain_design(o, r->label);
	rj_set_drain_design_name(o, r->design->name);
	rj_set_drain_caches(o, dr->nr_caches);
	rj_set_drain_virtual_cpus(o, dr->nr_virtual);
	rj_set_drain_online(o, dr->nr_online);
	/*
	 * per drain: the wake system calls inside it, read in the drains
	 * sampled for them (none where the design queues no work), and a walk
	 * over the idle CPUs' empty caches
	 */
	if (!instrumented && (dr->wake_n || !r->design->drain.queues_work))
		rj_set_drain_wake_cycles(o, dr->wake_n ? (double)dr->wake_sum /
					 (double)dr->wake_n : 0);
	if (dr->nr_virtual)
		rj_set_drain_walk_cycles_per_cpu(o, dr->count ? (double)dr->walk_sum /
						 (double)dr->count / (double)dr->nr_virtual : 0);
	line_json(o, dr, r->runs);
	rj_set_drain_coordinator_cpu(o, dr->cpu);
	/* the helpers standing in for the idle CPUs, and where those CPUs' queued work ran */
	if (dr->nr_virtual)
		rj_set_drain_helpers(o, dr->nr_helpers);
	if (dr->nr_virtual && r->design->drain.queues_work && dr->nr_caches > r->nr_workers)
		rj_set_drain_idle_work(o, !r->design->drain.flushes ? "after" :
				       dr->helpers_flush ? "helpers" : "drainer");
	rj_set_drain_count(o, (json_int_t)dr->count);
	rj_set_drain_avg_cycles(o, pcb_mean(dr->run_mean, r->runs));
	/*
	 * the drain less the system calls that woke real workers: what a claim
	 * may read apart, where every run sampled its wakes (or has none)
	 */
	if (has_wake(r))
		rj_set_drain_avg_cycles_without_wake(o, without_wake(dr, r->runs));
	drain_runs_json(o, r);
	rj_set_drain_stddev(o, pcb_stddev(dr->run_mean, r->runs));
	pcb_noise_json(o, RJ_F_drain_cv_pct, RJ_F_drain_unstable, dr->run_mean, r);
	/* the instrument sums a drain's cycles: no distribution, no completion of its work */
	if (instrumented)
		return o;
	rj_set_drain_p99_cycles(o, (json_int_t)pcb_hist_quantile(&dr->total.hist, 0.99));
	if (r->design->drain.queues_work) {
		rj_set_drain_completed(o, (json_int_t)dr->completed);
		rj_set_drain_incomplete(o, (json_int_t)dr->incomplete);
		rj_set_drain_completion_p50(o, (json_int_t)pcb_hist_quantile(&dr->completion, 0.5));
		rj_set_drain_completion_p99(o, (json_int_t)pcb_hist_quantile(&dr->completion, 0.99));
	} else {
		rj_set_drain_waited_preempted(o, (json_int_t)dr->waited_preempted);
	}
	if (dr->stranded_n) {
		rj_set_drain_stranded_pages_avg(o, (double)dr->stranded_sum / (double)dr->stranded_n);
		rj_set_drain_stranded_pages_max(o, (json_int_t)dr->stranded_max);
	}
	return o;
}

/* the helpers' CPUs, "2-5,8" */
static void helper_cpus(const struct pcb_drain_result *dr, char *buf, size_t len)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	for (int h = 0; h < dr->nr_helpers; h++)
		hwloc_bitmap_set(set, (unsigned int)dr->helper_cpu[h]);
	pcb_cpuset_format(set, buf, len);
	hwloc_bitmap_free(set);
}

/* where the idle virtual CPUs' queued work ran: inside the timed drain or after it */
static void idle_work_note(const struct pcb_design_result *r, const char *cpus, char *note,
			   size_t len)
{
	const struct pcb_drain_result *dr = &r->drain;
	int n = snprintf(note, len, "%s: %d virtual CPUs are idle: queue_work_on() wakes them by a "
			 "store, and ", r->label, dr->nr_virtual);

	if (n < 0 || (size_t)n >= len)
		return;
	if (dr->nr_caches <= r->nr_workers)
		snprintf(note + n, len - (size_t)n, "none holds anything to drain: no work is "
			 "queued to them");
	else if (r->design->drain.flushes && dr->helpers_flush)
		snprintf(note + n, len - (size_t)n, "inside the timed drain their work ran on %d "
			 "helper thread%s (CPU %s) in parallel, each helper's CPUs one after "
			 "another, while the drainer waited as flush_work() does",
			 dr->nr_helpers, dr->nr_helpers == 1 ? "" : "s", cpus);
	else if (r->design->drain.flushes)
		snprintf(note + n, len - (size_t)n, "inside the timed drain their work ran on the "
			 "drainer, one CPU after another, where the kernel's kworkers run it in "
			 "parallel: %s", dr->nr_helpers ? "the only CPU for a helper is a worker's, "
			 "which a helper must not preempt" : "no CPU is free for a helper");
	else
		snprintf(note + n, len - (size_t)n, "their work runs after the timed call, on %s",
			 dr->nr_helpers ? "the helpers that refill them" : "the drainer");
	n = (int)strlen(note);
	snprintf(note + n, len - (size_t)n, "; completion counts the workers' CPUs only");
}


/*
 * A line between the drainer's CPU and the worker's that cost twice as much
 * in one run as in another (between runs of one placement the probe moves
 * by up to 1.9x at 70 to 140 ticks), over every design and configuration of
 * the result drained from and to the same two CPUs: their distance changed
 * between runs (a guest's host moved them), and a drain that moves lines
 * moved with it
 */
#define LINE_MOVED 2.0

void pcb_line_moved_note(json_t *notes, const struct pcb_design_result *res, int nr)
{
	const char *lo_at = NULL, *hi_at = NULL;
	double lo = 0, hi = 0;
	char note[512];
	int pair = -1;

	for (int d = 0; d < nr; d++) {
		const struct pcb_drain_result *dr = &res[d].drain;

		if (!dr->active || !dr->run_line || !res[d].worker)
			continue;
		/* the same two CPUs only: another pair may be another distance */
		if (pair < 0)
			pair = d;
		else if (dr->cpu != res[pair].drain.cpu ||
			 res[d].worker[0].cpu != res[pair].worker[0].cpu)
			continue;
		for (int i = 0; i < res[d].runs; i++) {
			double x = dr->run_line[i];

			if (x > 0 && (lo == 0 || x < lo)) {
				lo = x;
				lo_at = res[d].label;
			}
			if (x > hi) {
				hi = x;
				hi_at = res[d].label;
			}
		}
	}
	if (lo > 0 && hi > LINE_MOVED * lo) {
		snprintf(note, sizeof(note), "a line between the drainer's CPU and the worker's "
			 "cost %.0f cycles in a run of %s and %.0f in one of %s: the two CPUs' "
			 "distance changed under the runs (on a guest, the host moved them), and "
			 "the drains' run means with it", lo, lo_at, hi, hi_at);
		json_array_append_new(notes, json_string(note));
	}
}

/* what the drains' shape means for the figures: idle virtual CPUs, refills, a shared CPU */
void pcb_drain_notes(json_t *notes, const struct pcb_design_result *r)
{
	const struct pcb_drain_result *dr = &r->drain;
	char note[512], cpus[128];

	helper_cpus(dr, cpus, sizeof(cpus));
	if (dr->nr_virtual && r->design->drain.queues_work) {
		idle_work_note(r, cpus, note, sizeof(note));
		json_array_append_new(notes, json_string(note));
	}
	if (dr->nr_virtual) {
		if (!dr->nr_helpers)
			snprintf(note, sizeof(note), "%s: the virtual CPUs' caches were refilled "
				 "(or, holding nothing, rewritten) by the drainer itself (no other "
				 "CPU): hot in its cache", r->label);
		else
			snprintf(note, sizeof(note), "%s: the virtual CPUs' caches were refilled "
				 "(or, holding nothing, rewritten) on CPU %s before each drain%s%s",
				 r->label, cpus,
				 dr->nr_helpers > 1 ? ", each helper its share" : "",
				 dr->helpers_share ? ", a worker's: its figures carry the refills "
				 "as interruptions" : "");
		json_array_append_new(notes, json_string(note));
	}
	if (dr->shares_cpu) {
		snprintf(note, sizeof(note), "%s: the coordinator shares CPU %d with a worker",
			 r->label, dr->cpu);
		json_array_append_new(notes, json_string(note));
	}
	if (r->sc->workers_asked &&
	    !hwloc_bitmap_isequal(r->sc->workers, r->sc->workers_asked)) {
		pcb_cpuset_format(r->sc->workers, cpus, sizeof(cpus));
		snprintf(note, sizeof(note), "%s: drain.stocks = %d: CPU %s ran, of cpus.workers' "
			 "%d, so that each drain found exactly %d of its %s filled", r->label,
			 r->sc->drain_stocks, cpus, hwloc_bitmap_weight(r->sc->workers_asked),
			 r->sc->drain_stocks, pcb_model_output(r->sc->model).caches_name);
		json_array_append_new(notes, json_string(note));
	}
	if (r->sc->drain_count > 0 && dr->count < (uint64_t)r->sc->drain_count * (uint64_t)r->runs_done) {
		snprintf(note, sizeof(note), "%s: drain.count = %ld a run, but %" PRIu64 " of %" PRIu64
			 " drains fired: drains ran late and the runs ended first", r->label,
			 r->sc->drain_count, dr->count,
			 (uint64_t)r->sc->drain_count * (uint64_t)r->runs_done);
		json_array_append_new(notes, json_string(note));
	}
}
