/* SPDX-License-Identifier: MIT */
/* The table of report's and compare's formats (formats.def), looked up and listed */
#include <string.h>

#include "format.h"
#include "../write/textout.h"

static const struct pcb_format *const formats[] = {
#define PCB_FORMAT(name) &pcb_format_##name,
#include "formats.def"
#undef PCB_FORMAT
};

#define NR_FORMATS ((int)(sizeof(formats) / sizeof(formats[0])))

/* --help's columns: the name from 2, its paragraph from 12, to 78 */
#define HELP_INDENT 12
#define HELP_WIDTH 78

static int has(const struct pcb_format *f, enum pcb_format_use use)
{
	return use == PCB_FORMAT_REPORT ? f->report != NULL : f->compare != NULL;
}

const struct pcb_format *pcb_format_find(const char *name, enum pcb_format_use use)
{
	for (int i = 0; i < NR_FORMATS; i++)
		if (!strcmp(formats[i]->name, name) && has(formats[i], use))
			return formats[i];
	return NULL;
}

/* use's names in buf, each after the separator its place calls for */
static const char *join(enum pcb_format_use use, char *buf, size_t len, const char *sep,
			const char *last)
{
	int n = 0, left = 0;
	size_t at = 0;

	for (int i = 0; i < NR_FORMATS; i++)
		left += has(formats[i], use);
	buf[0] = '\0';
	for (int i = 0; i < NR_FORMATS && at < len; i++) {
		if (!has(formats[i], use))
			continue;
		n++;
		at += snprintf(buf + at, len - at, "%s%s", n == 1 ? "" : n == left ? last : sep,
			       formats[i]->name);
	}
	return buf;
}

const char *pcb_format_names(enum pcb_format_use use, char *buf, size_t len)
{
	return join(use, buf, len, ", ", " or ");
}

/*
 * text's words on lines from column HELP_INDENT to HELP_WIDTH, the first
 * line's already at col; a word runs to a space or a comma (a list such
 * as CSV's columns breaks after a comma)
 */
static void help_paragraph(FILE *out, const char *text, int col)
{
	const char *w = text;
	int glued = 0;

	while (*w) {
		size_t len = strcspn(w, " ,");

		len += w[len] == ',';
		if (col > HELP_INDENT && col + !glued + (int)len > HELP_WIDTH) {
			fprintf(out, "\n%*s", HELP_INDENT, "");
			col = HELP_INDENT;
		} else if (col > HELP_INDENT && !glued) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)len, w);
		col += (int)len;
		w += len;
		glued = *w && *w != ' ';
		w += strspn(w, " ");
	}
	fputc('\n', out);
}

void pcb_format_help(FILE *out, enum pcb_format_use use)
{
	for (int i = 0; i < NR_FORMATS; i++) {
		const struct pcb_format *f = formats[i];

		if (!has(f, use))
			continue;
		const char *help = use == PCB_FORMAT_REPORT ? f->report_help : f->compare_help;

		/* a name that fills its column has a line of its own */
		if ((int)strlen(f->name) >= HELP_INDENT - 3)
			fprintf(out, "  %s\n%*s", f->name, HELP_INDENT, "");
		else
			fprintf(out, "  %-*s", HELP_INDENT - 2, f->name);
		help_paragraph(out, help ? help : "", HELP_INDENT);
	}
}

int pcb_format_compare(const struct pcb_format *f, FILE *out, json_t *cmp, json_t **results)
{
	FILE *t = f->escapes ? out : pcb_text_stream(out);
	int rc = f->compare(t, cmp, results);

	if (t != out)
		fclose(t);
	return rc;
}
