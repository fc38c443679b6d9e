/* SPDX-License-Identifier: MIT */
/*
 * The cover letter's parts, as kernel cover letters give them: the Test
 * System block (seed 000's "Test System"), how the figures were taken, the
 * tables, and the command that reproduces them.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../scenario/scenario.h"
#include "../../schema/schema.h"
#include "../read/query.h"
#include "../write/textout.h"
#include "layout.h"
#include "letter.h"
#include "tables_fn.h"

static void fold_line(FILE *out, const char *s, size_t len, int width)
{
	size_t lead = strspn(s, " "), indent = lead + 2, room = (size_t)width;

	if (indent > (size_t)width / 2)
		indent = 2;
	while (len > room) {
		size_t cut = room, end;

		while (cut > lead && s[cut] != ' ')
			cut--;
		if (cut <= lead)
			cut = room;
		for (end = cut; end > 0 && s[end - 1] == ' '; end--)
			;
		fprintf(out, "%.*s\n%*s", (int)end, s, (int)indent, "");
		while (cut < len && s[cut] == ' ')
			cut++;
		s += cut;
		len -= cut;
		/* what follows sits beside its indent */
		room = (size_t)width - indent;
		lead = 0;
	}
	fprintf(out, "%.*s\n", (int)len, s);
}

void pcb_fold(FILE *out, const char *text, int width)
{
	while (*text) {
		size_t len = strcspn(text, "\n");

		fold_line(out, text, len, width);
		text += len;
		if (*text)
			text++;
	}
}

/* a string of a context, its trailing blanks dropped (/proc/cpuinfo pads some) */
static void field(char *buf, size_t len, json_t *ctx, enum rj_field f)
{
	size_t n;

	snprintf(buf, len, "%s", rj_get_str(ctx, f));
	n = strlen(buf);
	while (n && buf[n - 1] == ' ')
		buf[--n] = 0;
}

/* the machine's state as check judged it, a line a setting (results from before it have none) */
static void machine_state(FILE *out, json_t *ctx)
{
	json_t *it;
	size_t i;

	if (rj_ctx_has_aslr(ctx))
		fprintf(out, "  ASLR:             %s\n", rj_ctx_aslr(ctx));
	if (!rj_ctx_has_machine_state(ctx))
		return;
	fprintf(out, "  machine state:    verdict, setting, value (as pcpbench check)\n");
	json_array_foreach(rj_ctx_machine_state(ctx), i, it)
		fprintf(out, "    %-8s %-20s %s%s%s%s\n", rj_mst_verdict(it), rj_mst_setting(it),
			rj_mst_has_cpus(it) ? "CPU " : "", rj_mst_has_cpus(it) ? rj_mst_cpus(it) : "",
			rj_mst_has_cpus(it) ? ": " : "", rj_mst_value(it));
}

void pcb_letter_test_system(FILE *out, json_t *result, const char *title, int markdown)
{
	json_t *ctx = rj_top_context(result);
	json_t *ovh = rj_ctx_timer_overhead(ctx), *n;
	char s[256];
	size_t i;

	fprintf(out, markdown ? "### %s\n\n```\n" : "%s\n", title);
	field(s, sizeof(s), ctx, RJ_F_ctx_host);
	fprintf(out, "  host:             %s\n", s);
	field(s, sizeof(s), ctx, RJ_F_ctx_cpu_model);
	fprintf(out, "  CPU model:        %s\n", s);
	fprintf(out, "  CPUs:             %" JSON_INTEGER_FORMAT " (%" JSON_INTEGER_FORMAT
		" cores)\n", rj_ctx_cpus(ctx), rj_ctx_cores(ctx));
	fprintf(out, "  NUMA nodes:       %" JSON_INTEGER_FORMAT "\n", rj_ctx_numa_nodes(ctx));
	json_array_foreach(rj_ctx_nodes(ctx), i, n)
		fprintf(out, "    node%-3" JSON_INTEGER_FORMAT "         %s\n", rj_node_node(n),
			rj_node_cpus(n));
	fprintf(out, "  isolated CPUs:    %s\n", rj_ctx_isolated(ctx));
	fprintf(out, "  nohz_full CPUs:   %s\n", rj_ctx_nohz_full(ctx));
	field(s, sizeof(s), ctx, RJ_F_ctx_kernel);
	fprintf(out, "  kernel:           %s\n", s);
	fprintf(out, "  TSC frequency:    %.3f MHz calibrated", rj_ctx_tsc_hz(ctx) / 1e6);
	if (json_is_number(rj_get(ctx, RJ_F_ctx_kernel_tsc_hz)))
		fprintf(out, "; kernel: %.3f MHz\n", rj_ctx_kernel_tsc_hz(ctx) / 1e6);
	else
		fprintf(out, "; kernel's figure unknown\n");
	fprintf(out, "  TSC step:         %" JSON_INTEGER_FORMAT " cycle(s) (gcd of increments)\n",
		rj_ctx_tsc_step(ctx));
	if (rj_tov_has_call(ovh))
		fprintf(out, "  empty region %-5s %.2f cycles (lfence;rdtsc .. rdtscp;lfence)\n",
			"call", rj_tov_call(ovh));
	if (rj_tov_has_batch(ovh))
		fprintf(out, "  empty region %-5s %.2f cycles (lfence;rdtsc .. rdtscp;lfence)\n",
			"batch", rj_tov_batch(ovh));
	machine_state(out, ctx);
	fprintf(out, "  pcpbench:         %s\n", rj_ctx_version(ctx));
	fprintf(out, markdown ? "```\n\n" : "\n");
}

void pcb_letter_method(FILE *out, json_t *result, int markdown)
{
	json_t *ctx = rj_top_context(result);
	json_t *sc = rj_top_scenario(result);
	const char *timing = rj_sc_timing(sc), *li = markdown ? "- " : "  ";
	char sub[96], runs_buf[160], cycles[256], tbuf[160], wbuf[160], dbuf[160];
	const char *ops = pcb_setting(result, K_RUN_OPS);
	const char *runs = pcb_runs_setting(result, runs_buf, sizeof(runs_buf));
	const char *workers = pcb_swept_text(result, K_CPUS_WORKERS, rj_sc_workers(sc), wbuf,
					     sizeof(wbuf));
	int batch = !strcmp(timing, "batch"), swept = pcb_swept(result, K_RUN_TIMING) != NULL;

	pcb_subtracted_text(result, pcb_timer_overhead(ctx, timing), sub, sizeof(sub));
	fprintf(out, markdown ? "### Method\n\n" : "Method\n");
	fprintf(out, "%stiming: %s, %s between two TSC reads (rdtsc_ordered())\n", li,
		pcb_swept_text(result, K_RUN_TIMING, timing, tbuf, sizeof(tbuf)),
		swept ? "a batch of calls or each call" : batch ? "a batch of calls" : "each call");
	if (strcmp(ops, "0") && strcmp(ops, "?"))
		fprintf(out, "%sruns: %s of %s operations on CPU %s; a row is the mean of the run "
			"means, STDDEV their standard deviation\n", li, runs, ops, workers);
	else
		fprintf(out, "%sruns: %s of %s ms on CPU %s; a row is the mean of the run means, "
			"STDDEV their standard deviation\n", li, runs,
			pcb_swept_text(result, K_RUN_DURATION_MS,
				       pcb_setting(result, K_RUN_DURATION_MS), dbuf, sizeof(dbuf)),
			workers);
	fprintf(out, "%s%s\n", li, pcb_cycles_text(result, cycles, sizeof(cycles)));
	fprintf(out, "%sempty region: the empty timed region each worker measured in its run, "
		"%s cycles per %s, %s\n", li, sub, swept ? "batch or call" : batch ? "batch" : "call",
		pcb_result_raw(result) ? "in the means" : "subtracted");
	if (rj_ctx_has_complete(ctx) && !rj_ctx_complete(ctx))
		fprintf(out, "%sinterrupted: the result has only the runs that finished\n", li);
	fprintf(out, "\n");
}

const char *pcb_letter_command(json_t *result, char *buf, size_t len)
{
	json_t *ctx = rj_top_context(result);
	const char *cmd = rj_ctx_has_command(ctx) ? rj_ctx_command(ctx) : "";

	if (*cmd)
		return cmd;
	snprintf(buf, len, "pcpbench run %s", rj_sc_file(rj_top_scenario(result)));
	return buf;
}

/* the length of the shell word at s: to a blank outside single quotes and not after a backslash */
static size_t shell_word(const char *s)
{
	size_t n = 0;
	int quoted = 0;

	for (; s[n] && (quoted || s[n] != ' '); n++)
		if (s[n] == '\'')
			quoted = !quoted;
		else if (s[n] == '\\' && !quoted && s[n + 1])
			n++;
	return n;
}

void pcb_letter_shell(FILE *out, const char *prefix, const char *cmd, int width)
{
	int col = fprintf(out, "%s", prefix), first = 1;

	while (*cmd) {
		size_t n;

		cmd += strspn(cmd, " ");
		/* a quoted word is one word: a line is never broken inside its quotes */
		n = shell_word(cmd);
		if (!n)
			break;
		/* an option and its value stay on one line: "--set run.runs=2" */
		if (cmd[0] == '-' && !memchr(cmd, '=', n) && cmd[n] == ' ' &&
		    cmd[n + 1 + strspn(cmd + n + 1, " ")] != '-') {
			size_t gap = strspn(cmd + n, " ");

			n += gap + shell_word(cmd + n + gap);
		}
		/* room for the words, a space and a continuation's backslash */
		if (!first && width && col + 1 + (int)n + 2 > width) {
			fprintf(out, " \\\n   ");
			col = 3;
		}
		col += fprintf(out, "%s%.*s", first ? "" : " ", (int)n, cmd);
		first = 0;
		cmd += n;
	}
	fprintf(out, "\n");
}

int pcb_letter_report(FILE *out, json_t *result, int markdown, char *err, size_t errlen)
{
	struct pcb_table_opts opts = { .width = markdown ? 0 : PCB_LETTER_WIDTH };
	json_t *sc = rj_top_scenario(result);
	const char *desc = pcb_setting(result, K_SCENARIO_DESCRIPTION);
	char fallback[PATH_MAX + 32], *text = NULL;
	const char *cmd;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size), *t;

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (markdown) {
		fputs("## pcpbench ", m);
		pcb_md_put(m, rj_sc_name(sc));
		fputs("\n\n", m);
		pcb_md_put(m, strcmp(desc, "?") ? desc : "");
		fputs("\n\n", m);
	} else
		fprintf(m, "pcpbench %s: %s\n\n", rj_sc_name(sc), strcmp(desc, "?") ? desc : "");
	pcb_letter_test_system(m, result, "Test System", markdown);
	pcb_letter_method(m, result, markdown);
	fprintf(m, markdown ? "### Results\n\n```\n" : "Results\n\n");
	pcb_tables_functions(m, result, &opts);
	if (markdown)
		fprintf(m, "```\n\n");
	cmd = pcb_letter_command(result, fallback, sizeof(fallback));
	if (markdown)
		fprintf(m, "### Reproduce\n\n```\n%s\n```\n", cmd);
	else
		fprintf(m, "To reproduce:\n\n");
	fclose(m);
	t = pcb_text_stream(out);
	if (markdown) {
		fputs(text, t);
	} else {
		/*
		 * The prose folded at 72 columns, the command not: it is broken only
		 * between words, with continuations, so that pasted into a shell it
		 * gives pcpbench the argv the run had
		 */
		pcb_fold(t, text, PCB_LETTER_WIDTH);
		pcb_letter_shell(t, "  ", cmd, PCB_LETTER_WIDTH);
	}
	if (t != out)
		fclose(t);
	free(text);
	return 0;
}
