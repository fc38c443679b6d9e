/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <string.h>

#include "columns.h"

static const char *column_name(const struct pcb_column *col)
{
	return col->name ? col->name : rj_name((enum rj_field)col->field);
}

void pcb_columns_header(FILE *f, const struct pcb_columns *c, char sep)
{
	for (int i = 0; i < c->n; i++) {
		if (i)
			fputc(sep, f);
		fputs(column_name(&c->col[i]), f);
	}
	fputc('\n', f);
}

const char *pcb_columns_header_text(const struct pcb_columns *c, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i < c->n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? "," : "",
				       column_name(&c->col[i]));
	return buf;
}

/* a cell's text where it is none of the row's own strings */
struct cell {
	char buf[64];
	int text;			/* a string of the row's */
};

/* what a field gives where it is absent: its accessor's "?" or 0 */
static const char *absent_text(enum rj_type t, int decimals, char *buf, size_t len)
{
	if (t == RJ_STR || t == RJ_STRNULL)
		return "?";
	if (t == RJ_NUM || t == RJ_NUMNULL)
		snprintf(buf, len, "%.*f", decimals, 0.0);
	else
		snprintf(buf, len, "0");
	return buf;
}

/* v, of the schema's type t, as text (c->text set for a string) */
static const char *value_text(json_t *v, enum rj_type t, unsigned int flags, int decimals,
			      struct cell *c)
{
	char *buf = c->buf;
	size_t len = sizeof(c->buf);

	if (json_is_string(v)) {
		c->text = 1;
		return json_string_value(v);
	}
	if (flags & PCB_COL_ASIS)
		t = json_is_integer(v) ? RJ_INT : json_is_boolean(v) ? RJ_BOOL : RJ_NUM;
	if (t == RJ_INT)
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (t == RJ_BOOL || t == RJ_BOOLNULL)
		snprintf(buf, len, "%d", json_is_true(v));
	else
		snprintf(buf, len, "%.*f", flags & PCB_COL_WHOLE ? 0 : decimals,
			 json_number_value(v));
	return buf;
}

/* a column's value in r as text (the row's own string, or c's); NULL where it has none */
static const char *cell_text(const struct pcb_column *col, const struct pcb_row *r,
			     int decimals, struct cell *c)
{
	enum rj_field f = (enum rj_field)col->field;
	char *buf = c->buf;
	size_t len = sizeof(c->buf);
	json_t *v;

	c->text = 0;
	switch (col->field) {
	case PCB_COL_INDEX:
		snprintf(buf, len, "%zu", r->index);
		return buf;
	case PCB_COL_ITEM0:
	case PCB_COL_ITEM1:
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(
			 json_array_get(r->item, col->field == PCB_COL_ITEM0 ? 0 : 1)));
		return buf;
	case PCB_COL_NODE:
		snprintf(buf, len, "%d", r->node);
		return buf;
	}
	v = rj_get(r->obj[rj_fields[f].kind], f);
	if (!v && (col->flags & PCB_COL_ALT)) {
		f = col->alt;
		v = rj_get(r->obj[rj_fields[f].kind], f);
	}
	if (!v || json_is_null(v))
		return col->flags & PCB_COL_OPT ? NULL :
		       absent_text(rj_fields[f].type, decimals, buf, len);
	return value_text(v, rj_fields[f].type, col->flags, decimals, c);
}

/*
 * s as one CSV field: quoted where it holds a comma or a quote, a line
 * break a blank; one a spreadsheet would take for a formula (its first
 * character =, +, -, @, a tab or a carriage return) quoted and begun with
 * a ' so that it is text (CWE-1236, as OWASP recommends)
 */
static void csv_field(FILE *f, const char *s)
{
	int formula = *s && strchr("=+-@\t\r", *s) != NULL;
	int quote = formula || strpbrk(s, ",\"") != NULL;

	if (quote)
		fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++)
		if (*s == '"')
			fputs("\"\"", f);
		else
			fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	if (quote)
		fputc('"', f);
}

void pcb_columns_row(FILE *f, const struct pcb_columns *c, const struct pcb_row *r,
		     const struct pcb_cells *how)
{
	char name[256];

	for (int i = 0; i < c->n; i++) {
		struct cell cl;
		const char *s = cell_text(&c->col[i], r, how->decimals, &cl);
		int text = cl.text;

		if (i)
			fputc(how->sep, f);
		if ((how->flags & PCB_CELLS_NAMES) && text) {
			pcb_kv_name(s, name, sizeof(name));
			s = name;
		}
		if ((how->flags & PCB_CELLS_NAMES) && (!s || !*s))
			fputc('-', f);
		else if (s && text && (how->flags & PCB_CELLS_QUOTE))
			csv_field(f, s);
		else if (s)
			fputs(s, f);
	}
	fputc('\n', f);
}

void pcb_columns_stats(FILE *f, const char *prefix, const struct pcb_columns *c,
		       const struct pcb_row *r, int decimals)
{
	for (int i = 0; i < c->n; i++) {
		/* a stat the row lacks is left out */
		struct pcb_column col = c->col[i];
		struct cell cl;
		const char *s;

		col.flags |= PCB_COL_OPT;
		s = cell_text(&col, r, decimals, &cl);
		if (s)
			fprintf(f, "%s.%s: %s\n", prefix, column_name(&col), s);
	}
}

void pcb_kv_name(const char *text, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return;
	for (const char *p = text; *p && n + 1 < len; p++) {
		unsigned char ch = (unsigned char)tolower((unsigned char)*p);

		if (ch == ' ')
			ch = '.';
		else if (!(isdigit(ch) || (ch >= 'a' && ch <= 'z') || ch == '.' || ch == '_'))
			ch = '_';
		/* no empty part: LKP splits on dots */
		if (ch == '.' && (!n || buf[n - 1] == '.'))
			continue;
		buf[n++] = (char)ch;
	}
	while (n && buf[n - 1] == '.')
		n--;
	buf[n] = '\0';
}
