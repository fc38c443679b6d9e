/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <string.h>

#include "../../schema/schema.h"
#include "../read/query.h"
#include "../read/rows.h"
#include "kv.h"

void pcb_kv_name(const char *text, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return;
	for (const char *p = text; *p && n + 1 < len; p++) {
		unsigned char c = (unsigned char)tolower((unsigned char)*p);

		if (c == ' ')
			c = '.';
		else if (!(isdigit(c) || (c >= 'a' && c <= 'z') || c == '.' || c == '_'))
			c = '_';
		/* no empty part: LKP splits on dots */
		if (c == '.' && (!n || buf[n - 1] == '.'))
			continue;
		buf[n++] = (char)c;
	}
	while (n && buf[n - 1] == '.')
		n--;
	buf[n] = '\0';
}

/* "<design>.<part>" sanitized */
static void stat_prefix(const char *design, const char *part, char *buf, size_t len)
{
	char d[256], p[256];

	pcb_kv_name(design, d, sizeof(d));
	pcb_kv_name(part, p, sizeof(p));
	snprintf(buf, len, "%s%s%s", d, *p ? "." : "", p);
}

static void kv_functions(FILE *out, json_t *result)
{
	size_t i;
	json_t *fj;

	json_array_foreach(rj_top_functions(result), i, fj) {
		char n[600];

		stat_prefix(rj_fn_design(fj), rj_fn_function(fj), n, sizeof(n));
		fprintf(out, "%s.avg_cycles: %.3f\n", n, rj_fn_avg_cycles(fj));
		fprintf(out, "%s.stddev: %.3f\n", n, rj_fn_stddev(fj));
		if (rj_fn_has_p99(fj))
			fprintf(out, "%s.p99: %" JSON_INTEGER_FORMAT "\n", n, rj_fn_p99(fj));
		if (rj_fn_has_interrupted(fj))
			fprintf(out, "%s.interrupted: %" JSON_INTEGER_FORMAT "\n", n,
				rj_fn_interrupted(fj));
	}
}

static void kv_drains(FILE *out, json_t *result)
{
	size_t i;
	json_t *x;

	json_array_foreach(rj_top_drains(result), i, x) {
		char n[600];

		stat_prefix(rj_drain_design(x), "drain", n, sizeof(n));
		if (rj_drain_has_avg_cycles(x))
			fprintf(out, "%s.avg_cycles: %.3f\n", n, rj_drain_avg_cycles(x));
		if (rj_drain_has_completion_p99(x))
			fprintf(out, "%s.completion_p99: %" JSON_INTEGER_FORMAT "\n", n,
				rj_drain_completion_p99(x));
		if (rj_drain_has_wake_cycles(x))
			fprintf(out, "%s.wake_cycles: %.3f\n", n, rj_drain_wake_cycles(x));
	}
}

static void kv_contention(FILE *out, json_t *result)
{
	size_t i;
	json_t *x;

	json_array_foreach(rj_top_contention(result), i, x) {
		char part[300], n[600];

		snprintf(part, sizeof(part), "contention %s %s",
			 rj_cont_has_function(x) ? rj_cont_function(x) : "",
			 rj_cont_has_side(x) ? rj_cont_side(x) : "");
		stat_prefix(rj_cont_design(x), part, n, sizeof(n));
		if (rj_cont_has_contended(x))
			fprintf(out, "%s.contended: %" JSON_INTEGER_FORMAT "\n", n,
				rj_cont_contended(x));
		if (rj_cont_has_hold_avg_cycles(x))
			fprintf(out, "%s.hold_avg_cycles: %.3f\n", n, rj_cont_hold_avg_cycles(x));
	}
}

/* a design's interruptions over its workers: their count and the longest */
static void kv_interruptions(FILE *out, json_t *result)
{
	size_t i, j;
	json_t *dj, *x;

	json_array_foreach(rj_top_designs(result), i, dj) {
		json_int_t count = 0;
		double max = 0;
		int any = 0;
		char n[600];

		json_array_foreach(pcb_rows_where(rj_top_interruptions(result), RJ_F_irq_design,
					  rj_design_design(dj)), j, x) {
			any = 1;
			count += rj_irq_has_count(x) ? rj_irq_count(x) : 0;
			if (rj_irq_has_max_ns(x) && rj_irq_max_ns(x) > max)
				max = rj_irq_max_ns(x);
		}
		if (!any)
			continue;
		stat_prefix(rj_design_design(dj), "interruptions", n, sizeof(n));
		fprintf(out, "%s.count: %" JSON_INTEGER_FORMAT "\n", n, count);
		fprintf(out, "%s.max_ns: %.0f\n", n, max);
	}
}

/* LKP counts a stat ending in .fail as a failure */
static void kv_invariants(FILE *out, json_t *result)
{
	size_t i;
	json_t *dj;

	json_array_foreach(rj_top_designs(result), i, dj) {
		char n[600];

		if (!rj_design_has_invariant(dj) || !strcmp(rj_design_invariant(dj), "ok"))
			continue;
		stat_prefix(rj_design_design(dj), "invariant", n, sizeof(n));
		fprintf(out, "%s.fail: 1\n", n);
	}
}

void pcb_kv_print(FILE *out, json_t *result)
{
	kv_functions(out, result);
	kv_drains(out, result);
	kv_contention(out, result);
	kv_interruptions(out, result);
	kv_invariants(out, result);
}

void pcb_mmtests_print(FILE *out, json_t *result)
{
	size_t i, r;
	json_t *fj, *run;

	json_array_foreach(rj_top_functions(result), i, fj) {
		json_t *dj = pcb_design_row(result, rj_fn_design(fj));
		const char *config = dj && rj_design_has_config(dj) ? rj_design_config(dj) : "";
		char fn[256], design[256], cfg[256];

		pcb_kv_name(rj_fn_function(fj), fn, sizeof(fn));
		pcb_kv_name(dj ? rj_design_design_name(dj) : rj_fn_design(fj), design,
			    sizeof(design));
		pcb_kv_name(config, cfg, sizeof(cfg));
		json_array_foreach(rj_fn_runs(fj), r, run)
			fprintf(out, "%s\t%s\t%s\t%zu\t%.3f\n", fn, design, *cfg ? cfg : "-",
				r + 1, rj_fnrun_avg_cycles(run));
	}
}
