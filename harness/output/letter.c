/* SPDX-License-Identifier: MIT */
/*
 * The cover letter's parts, as kernel cover letters give them: the Test
 * System block (seed 000's "Test System"), how the figures were taken, the
 * tables, and the command that reproduces them.
 */
#include <stdlib.h>
#include <string.h>

#include "letter.h"
#include "result.h"
#include "tables.h"

int pcb_format_parse(const char *name)
{
	static const char *const names[] = {
		[PCB_FORMAT_TEXT] = "text", [PCB_FORMAT_CSV] = "csv", [PCB_FORMAT_JSON] = "json",
		[PCB_FORMAT_MARKDOWN] = "markdown", [PCB_FORMAT_EMAIL] = "email",
	};

	for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

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
static void field(char *buf, size_t len, json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	size_t n;

	snprintf(buf, len, "%s", s ? s : "?");
	n = strlen(buf);
	while (n && buf[n - 1] == ' ')
		buf[--n] = 0;
}

void pcb_letter_test_system(FILE *out, json_t *result, const char *title, int markdown)
{
	json_t *ctx = json_object_get(result, "context");
	json_t *ovh = json_object_get(ctx, "timer_overhead"), *n;
	double hz = json_number_value(json_object_get(ctx, "tsc_hz"));
	json_t *khz = json_object_get(ctx, "kernel_tsc_hz");
	char s[256];
	size_t i;

	fprintf(out, markdown ? "### %s\n\n```\n" : "%s\n", title);
	field(s, sizeof(s), ctx, "host");
	fprintf(out, "  host:             %s\n", s);
	field(s, sizeof(s), ctx, "cpu_model");
	fprintf(out, "  CPU model:        %s\n", s);
	fprintf(out, "  CPUs:             %" JSON_INTEGER_FORMAT " (%" JSON_INTEGER_FORMAT
		" cores)\n", json_integer_value(json_object_get(ctx, "cpus")),
		json_integer_value(json_object_get(ctx, "cores")));
	fprintf(out, "  NUMA nodes:       %" JSON_INTEGER_FORMAT "\n",
		json_integer_value(json_object_get(ctx, "numa_nodes")));
	json_array_foreach(json_object_get(ctx, "nodes"), i, n)
		fprintf(out, "    node%-3" JSON_INTEGER_FORMAT "         %s\n",
			json_integer_value(json_object_get(n, "node")), str(n, "cpus"));
	fprintf(out, "  isolated CPUs:    %s\n", str(ctx, "isolated"));
	fprintf(out, "  nohz_full CPUs:   %s\n", str(ctx, "nohz_full"));
	field(s, sizeof(s), ctx, "kernel");
	fprintf(out, "  kernel:           %s\n", s);
	fprintf(out, "  TSC frequency:    %.3f MHz calibrated", hz / 1e6);
	if (json_is_number(khz))
		fprintf(out, "; kernel: %.3f MHz\n", json_number_value(khz) / 1e6);
	else
		fprintf(out, "; kernel's figure unknown\n");
	fprintf(out, "  TSC step:         %" JSON_INTEGER_FORMAT " tick(s) (gcd of increments)\n",
		json_integer_value(json_object_get(ctx, "tsc_step")));
	for (int m = 0; m < 2; m++) {
		const char *mode = m ? "batch" : "call";

		if (json_object_get(ovh, mode))
			fprintf(out, "  empty region %-5s %.2f ticks (lfence;rdtsc .. rdtscp;lfence)\n",
				mode, json_number_value(json_object_get(ovh, mode)));
	}
	fprintf(out, "  pcpbench:         %s\n", str(ctx, "version"));
	fprintf(out, markdown ? "```\n\n" : "\n");
}

void pcb_letter_method(FILE *out, json_t *result, int markdown)
{
	json_t *ctx = json_object_get(result, "context");
	json_t *sc = json_object_get(result, "scenario");
	json_t *settings = json_object_get(sc, "settings");
	const char *timing = str(sc, "timing"), *li = markdown ? "- " : "  ";
	int batch = !strcmp(timing, "batch");
	char sub[96];

	subtracted_text(result, json_number_value(json_object_get(json_object_get(ctx,
				"timer_overhead"), timing)), sub, sizeof(sub));
	fprintf(out, markdown ? "### Method\n\n" : "Method\n");
	fprintf(out, "%stiming: %s, %s between two TSC reads (rdtsc_ordered())\n", li, timing,
		batch ? "a batch of calls" : "each call");
	if (strcmp(str(settings, "run.ops"), "0") && strcmp(str(settings, "run.ops"), "?"))
		fprintf(out, "%sruns: %s of %s operations on CPU %s; a row is the mean of the run "
			"means, STDDEV their standard deviation\n", li, str(settings, "run.runs"),
			str(settings, "run.ops"), str(sc, "workers"));
	else
		fprintf(out, "%sruns: %s of %s ms on CPU %s; a row is the mean of the run means, "
			"STDDEV their standard deviation\n", li, str(settings, "run.runs"),
			str(settings, "run.duration_ms"), str(sc, "workers"));
	fprintf(out, "%ssubtracted: the empty timed region each worker measured in its run, "
		"%s ticks per %s\n", li, sub, batch ? "batch" : "call");
	if (json_is_false(json_object_get(json_object_get(result, "context"), "complete")))
		fprintf(out, "%sinterrupted: the result has only the runs that finished\n", li);
	fprintf(out, "\n");
}

void pcb_letter_command(char *buf, size_t len, json_t *result)
{
	const char *cmd = json_string_value(json_object_get(json_object_get(result, "context"),
							     "command"));

	if (cmd && *cmd)
		snprintf(buf, len, "%s", cmd);
	else
		snprintf(buf, len, "pcpbench run %s",
			 str(json_object_get(result, "scenario"), "file"));
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
	json_t *sc = json_object_get(result, "scenario");
	const char *desc = str(json_object_get(sc, "settings"), "scenario.description");
	char cmd[4096], *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (markdown)
		fprintf(m, "## pcpbench %s\n\n%s\n\n", str(sc, "name"), strcmp(desc, "?") ? desc : "");
	else
		fprintf(m, "pcpbench %s: %s\n\n", str(sc, "name"), strcmp(desc, "?") ? desc : "");
	pcb_letter_test_system(m, result, "Test System", markdown);
	pcb_letter_method(m, result, markdown);
	fprintf(m, markdown ? "### Results\n\n```\n" : "Results\n\n");
	pcb_tables_functions(m, result, &opts);
	if (markdown)
		fprintf(m, "```\n\n");
	pcb_letter_command(cmd, sizeof(cmd), result);
	if (markdown) {
		fprintf(m, "### Reproduce\n\n```\n%s\n```\n", cmd);
	} else {
		fprintf(m, "To reproduce:\n\n");
		pcb_letter_shell(m, "  ", cmd, PCB_LETTER_WIDTH);
	}
	fclose(m);
	if (markdown)
		fputs(text, out);
	else
		pcb_fold(out, text, PCB_LETTER_WIDTH);
	free(text);
	return 0;
}
