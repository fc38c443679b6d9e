/* SPDX-License-Identifier: MIT */
/*
 * A design's perf counters in perf stat's layout: value, event, then what
 * it means per operation (or per drain, for the coordinator's), and the
 * events per call where they were read around every call.
 */
#include <stdio.h>
#include <string.h>

#include "../../schema/schema.h"
#include "../read/query.h"
#include "../read/rows.h"
#include "tables_counters.h"

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

/* a counter's value as perf stat prints it: msec for a clock, else with thousands */
static void counter_value(char *buf, size_t len, const char *ev, unsigned long long v,
			  int clocks)
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

void pcb_tables_counters(FILE *out, json_t *result, json_t *dj)
{
	json_t *counters = rj_top_counters(result), *c;
	const char *d = rj_design_design(dj);
	json_t *cyc = pcb_counter_row(result, d, "cycles");
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

