/* SPDX-License-Identifier: MIT */
/*
 * The tables of what drains cost and hit: the coordinator's drains (with
 * seed 000's "cpus  A  B  Diff" over the cache counts), every contended
 * lock per function and side, and what each worker lost to interruptions.
 */
#include <stdio.h>
#include <string.h>

#include "../../schema/schema.h"
#include "../read/query.h"
#include "../read/rows.h"
#include "layout.h"
#include "tables_drain.h"

/* one design's drains, STDDEV marked where unstable (*noisy then set) */
static void drain_line(FILE *out, json_t *x, int preempted, int *noisy)
{
	const char *d = rj_drain_design(x);
	char comp50[32] = "-", comp99[32] = "-", stranded[48] = "-", walk[32] = "-", line[32] = "-";
	char waited[32] = "-", sdt[32], p99[32] = "-", wake[32] = "-";

	if (rj_drain_has_completion_p50(x)) {
		snprintf(comp50, sizeof(comp50), "%" JSON_INTEGER_FORMAT,
			 rj_drain_completion_p50(x));
		snprintf(comp99, sizeof(comp99), "%" JSON_INTEGER_FORMAT,
			 rj_drain_completion_p99(x));
	}
	/* the instrumented backend's drains have neither: the instrument sums cycles alone */
	if (rj_drain_has_p99_cycles(x))
		snprintf(p99, sizeof(p99), "%" JSON_INTEGER_FORMAT, rj_drain_p99_cycles(x));
	if (rj_drain_has_wake_cycles(x))
		snprintf(wake, sizeof(wake), "%.0f", rj_drain_wake_cycles(x));
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
	fprintf(out, "%-*s%-10" JSON_INTEGER_FORMAT "%-14.2f%-10s%-12s"
		"%-16s%-12s%-13s%-17s%-13s%-*s%s\n", pcb_first_col(d), d, rj_drain_count(x),
		rj_drain_avg_cycles(x), sdt, p99, comp50, comp99, wake, walk, line,
		preempted ? 16 : 0, stranded, preempted ? waited : "");
}

/* the coordinator's drains; with two designs over several cache counts, 000's table */
void pcb_tables_drains(FILE *out, json_t *result)
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
	fprintf(out, "%-24s%-10s%-14s%-10s%-12s%-16s%-12s%-13s%-17s%-13s%s%s\n",
		pcb_result_drain_name(result), "drains", "Avg cycles", "STDDEV", "p99 cycles",
		"completion p50", "p99", "wake cycles", "walk cycles/cpu", "line cycles",
		preempted ? "stranded pages  " : "stranded pages",
		preempted ? "waited on preempted" : "");
	json_array_foreach(drains, i, x)
		drain_line(out, x, preempted, &noisy);
	fprintf(out, "\n");
	if (noisy)
		pcb_unstable_legend(out, result, 0);

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
	fprintf(out, "%-*s%-16s%-12" JSON_INTEGER_FORMAT "%-19.1f%-*" JSON_INTEGER_FORMAT,
		pcb_first_col(d) + 14, label, calls, rj_cont_contended(c),
		rj_cont_wait_avg_cycles(c), hold ? 19 : 0, rj_cont_wait_max_cycles(c));
	if (hold && rj_cont_has_hold_avg_cycles(c))
		fprintf(out, "%.1f", rj_cont_hold_avg_cycles(c));
	else if (hold)
		fprintf(out, "-");
	fprintf(out, "\n");
}

/*
 * Seed 000's 2.3, per design: its contended locks, and where the model timed them the
 * ticks each acquisition held the lock; then, for a design that drains
 * (or could), what its drains hit
 */
void pcb_tables_contention(FILE *out, json_t *result)
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
				fprintf(out, "%-*s%-16s%-12s%-19s%s%s\n", pcb_first_col(d) + 14,
					title, "# calls", "contended", "wait cycles (avg)",
					hold ? "wait cycles (max)  " : "wait cycles (max)",
					hold ? "hold cycles (avg)" : "");
			}
			print_contention_row(out, d, c, hold);
		}
		if (!drains && !shown)
			continue;
		if (drains) {
			fprintf(out, "%s: %s: %" JSON_INTEGER_FORMAT " calls; contentions hit: %s\n",
				d, pcb_result_drain_name(result), rj_design_drains(dj),
				shown ? "see above" : "0");
			print_contention_model(out, cc, dj);
		}
		fprintf(out, "\n");
	}
}

/* rt-tests oslat's view: what each worker lost, and how much to drains */
void pcb_tables_interruptions(FILE *out, json_t *result)
{
	json_t *irq = rj_top_interruptions(result), *x;
	size_t i;
	int w = 24;

	json_array_foreach(irq, i, x)
		if (pcb_first_col(rj_irq_design(x)) > w)
			w = pcb_first_col(rj_irq_design(x));
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

