/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "../measure/realop.h"
#include "../schema/schema.h"
#include "claims.h"
#include "ini_lines.h"

const char *const pcb_claim_key_name[CK_NR] = {
	[CK_CLAIM] = "claim", [CK_SEED] = "seed", [CK_LINE] = "line", [CK_FIGURE] = "figure",
	[CK_BASE_FIGURE] = "base_figure", [CK_BASE_LINE] = "base_line", [CK_UNIT] = "unit",
	[CK_MACHINE] = "machine", [CK_SCENARIO] = "scenario", [CK_VALUE] = "value",
	[CK_A] = "a", [CK_B] = "b", [CK_EXPECT] = "expect", [CK_LIMIT] = "limit",
	[CK_SIZE] = "size", [CK_MECHANISM] = "mechanism", [CK_OPS] = "ops", [CK_REAL] = "real",
	[CK_SEED_SIGN] = "seed_sign",
};

static const char *const value_name[] = { "diff_pct", "ratio", "value", "diff", "share" };
static const char *const expect_name[] = { "positive", "negative", "below" };

struct claims_state {
	struct pcb_claims *cl;
	struct pcb_ini_lines in;
	int header;		/* the line of the last [section] */
};

void pcb_claim_error(const struct pcb_claim_at *at, char *err, size_t errlen, const char *fmt,
		     ...)
{
	const struct pcb_claim *c = at->c;
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (at->key >= 0)
		snprintf(err, errlen, "%s:%d: [%s] %s: %s", at->cl->file,
			 c->line[at->key] ? c->line[at->key] : c->section_line, c->id,
			 pcb_claim_key_name[at->key], msg);
	else
		snprintf(err, errlen, "%s:%d: [%s]: %s", at->cl->file, c->section_line, c->id, msg);
}

/* one line at a time, comments cut, so that inih's lines are the file's */
static char *reader(char *str, int num, void *stream)
{
	struct claims_state *st = stream;

	if (!pcb_ini_next_line(str, num, &st->in))
		return NULL;
	if (*str == '[') {
		size_t len = strcspn(str + 1, "]\n");

		st->header = st->in.line;
		/* inih keeps MAX_SECTION - 1 characters of a name: two longer ones would be one */
		if (len > PCB_CLAIM_ID_MAX) {
			snprintf(st->in.err, st->in.errlen, "%s:%d: [%.*s...]: a claim's name of %zu "
				 "characters (at most %d)", st->cl->file, st->in.line, 20, str + 1, len,
				 PCB_CLAIM_ID_MAX);
			st->in.failed = 1;
			return NULL;
		}
	}
	return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct claims_state *st = user;
	struct pcb_claims *cl = st->cl;
	struct pcb_claim *c;
	int k;

	if (st->in.failed)
		return 0;
	if (!*section) {
		snprintf(st->in.err, st->in.errlen, "%s:%d: %s: key outside a [claim]", cl->file,
			 st->in.line, name);
		goto fail;
	}
	if (cl->n == 0 || strcmp(cl->c[cl->n - 1].id, section)) {
		struct pcb_claim *more;

		for (int i = 0; i < cl->n; i++)
			if (!strcmp(cl->c[i].id, section)) {
				snprintf(st->in.err, st->in.errlen, "%s:%d: [%s]: claim named twice (first "
					 "on line %d)", cl->file, st->in.line, section,
					 cl->c[i].section_line);
				goto fail;
			}
		more = realloc(cl->c, (size_t)(cl->n + 1) * sizeof(*cl->c));
		if (!more)
			goto oom;
		cl->c = more;
		c = &cl->c[cl->n++];
		memset(c, 0, sizeof(*c));
		snprintf(c->id, sizeof(c->id), "%s", section);
		c->section_line = st->header;
	}
	c = &cl->c[cl->n - 1];
	for (k = 0; k < CK_NR; k++)
		if (!strcmp(name, pcb_claim_key_name[k]))
			break;
	if (k == CK_NR) {
		snprintf(st->in.err, st->in.errlen, "%s:%d: [%s] %s: unknown key", cl->file, st->in.line,
			 c->id, name);
		goto fail;
	}
	if (c->v[k]) {
		snprintf(st->in.err, st->in.errlen, "%s:%d: [%s] %s: set twice (first on line %d)",
			 cl->file, st->in.line, c->id, name, c->line[k]);
		goto fail;
	}
	c->v[k] = strdup(value);
	c->line[k] = st->in.line;
	if (!c->v[k])
		goto oom;
	return 1;
oom:
	snprintf(st->in.err, st->in.errlen, "out of memory");
fail:
	st->in.failed = 1;
	return 0;
}

static int pick(const char *v, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v, names[i]))
			return i;
	return -1;
}

static int parse_line(const char *v, int *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (!*v || *end || errno || n <= 0 || n > 1000000)
		return -1;
	*out = (int)n;
	return 0;
}

/* a figure is a number as the seed prints it: sign, digits, a point */
static int is_figure(const char *v)
{
	char *end;

	if (!*v)
		return 0;
	strtod(v, &end);
	return *end == 0 && isdigit((unsigned char)v[strlen(v) - 1]);
}

int pcb_selector_has_function(const char *sel)
{
	char table[32];

	snprintf(table, sizeof(table), "%.*s", (int)strcspn(sel, ":"), sel);
	return rj_find(RJ_K_top, table) != RJ_F_top_drains;
}

void pcb_selector_design(const char *sel, char *buf, size_t len)
{
	const char *a = strchr(sel, ':'), *b = a ? strchr(a + 1, ':') : NULL;

	if (!a)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%.*s", b ? (int)(b - a - 1) : (int)strlen(a + 1), a + 1);
}

/* FIELD: a figure of the table's rows that the result schema lets a claim select */
static int check_field(const char *sel, enum rj_field table, const char *field, char *err,
		       size_t errlen)
{
	enum rj_kind kind = rj_fields[table].rows;
	int f = rj_find(kind, field);
	char list[256] = "";

	if (f >= 0 && (rj_fields[f].need & RJ_FIG))
		return 0;
	for (int i = 0; i < RJ_F_NR; i++)
		if (rj_fields[i].kind == kind && (rj_fields[i].need & RJ_FIG))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 list[0] ? ", " : "", rj_fields[i].name);
	snprintf(err, errlen, "'%s': no field '%s' in %s rows (%s)", sel, field,
		 rj_name(table), list);
	return -1;
}

int pcb_selector_check(const char *sel, char *err, size_t errlen)
{
	char table[32];
	const char *colon = strchr(sel, ':');
	int parts = 1, t;

	for (const char *p = sel; *p; p++)
		parts += *p == ':';
	snprintf(table, sizeof(table), "%.*s", colon ? (int)(colon - sel) : (int)strlen(sel), sel);
	t = rj_find(RJ_K_top, table);
	if (t == RJ_F_top_drains) {
		if (parts < 2 || parts > 3)
			goto bad;
	} else if (t == RJ_F_top_functions || t == RJ_F_top_contention) {
		if (parts < 3 || parts > 4)
			goto bad;
	} else {
		snprintf(err, errlen, "'%s': no table '%s' (%s, %s or %s)", sel, table,
			 rj_name(RJ_F_top_functions), rj_name(RJ_F_top_drains),
			 rj_name(RJ_F_top_contention));
		return -1;
	}
	for (const char *p = sel; p < sel + strlen(sel); p++)
		if (*p == ':' && (p[1] == ':' || p[1] == 0))
			goto bad;
	if (parts == (t == RJ_F_top_drains ? 3 : 4))
		return check_field(sel, (enum rj_field)t, strrchr(sel, ':') + 1, err, errlen);
	return 0;
bad:
	snprintf(err, errlen, "'%s': write functions:DESIGN:FUNCTION[:FIELD], drains:DESIGN[:FIELD] "
		 "or contention:DESIGN:FUNCTION|*[:FIELD]", sel);
	return -1;
}

/* what check_claim() found wrong: the key (-1: the claim as a whole) and why */
struct claim_fault {
	int key;
	char msg[512];
};

static int fault(struct claim_fault *f, int key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* the fault at key: -1, for a check to return */
static int fault(struct claim_fault *f, int key, const char *fmt, ...)
{
	va_list ap;

	f->key = key;
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* the keys every claim has, none of them empty */
static int check_required(const struct pcb_claim *c, struct claim_fault *f)
{
	static const int required[] = { CK_CLAIM, CK_SEED, CK_LINE, CK_FIGURE, CK_MACHINE,
					 CK_SCENARIO, CK_A, CK_EXPECT };

	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!c->v[required[i]] || !*c->v[required[i]])
			return fault(f, -1, "no %s", pcb_claim_key_name[required[i]]);
	return 0;
}

/* the seed's figure and the base figure, each with its line in the seed file */
static int check_figures(struct pcb_claim *c, struct claim_fault *f)
{
	if (parse_line(c->v[CK_LINE], &c->seed_line) < 0)
		return fault(f, CK_LINE, "'%s' is not a line number", c->v[CK_LINE]);
	if (!is_figure(c->v[CK_FIGURE]))
		return fault(f, CK_FIGURE, "'%s' is not a number as the seed prints it",
			     c->v[CK_FIGURE]);
	if (!c->v[CK_BASE_FIGURE] != !c->v[CK_BASE_LINE])
		return fault(f, c->v[CK_BASE_FIGURE] ? CK_BASE_FIGURE : CK_BASE_LINE,
			     "base_figure and base_line go together");
	if (c->v[CK_BASE_FIGURE] && !is_figure(c->v[CK_BASE_FIGURE]))
		return fault(f, CK_BASE_FIGURE, "'%s' is not a number", c->v[CK_BASE_FIGURE]);
	if (c->v[CK_BASE_LINE] && parse_line(c->v[CK_BASE_LINE], &c->base_line) < 0)
		return fault(f, CK_BASE_LINE, "'%s' is not a line number", c->v[CK_BASE_LINE]);
	return 0;
}

/* what the claim compares and what it expects of it: value, expect, limit */
static int check_expect(struct pcb_claim *c, struct claim_fault *f)
{
	char *end;

	c->value = c->v[CK_VALUE] ? pick(c->v[CK_VALUE], value_name, 5) : PCB_CLAIM_DIFF_PCT;
	if (c->value < 0)
		return fault(f, CK_VALUE, "'%s': diff_pct, ratio, value, diff or share",
			     c->v[CK_VALUE]);
	c->expect = pick(c->v[CK_EXPECT], expect_name, 3);
	if (c->expect < 0)
		return fault(f, CK_EXPECT, "'%s': positive, negative or below", c->v[CK_EXPECT]);
	if ((c->expect == PCB_EXPECT_BELOW) != (c->v[CK_LIMIT] != NULL))
		return fault(f, c->v[CK_LIMIT] ? CK_LIMIT : CK_EXPECT,
			     "a limit goes with expect = below, and only with it");
	if (!c->v[CK_LIMIT])
		return 0;
	c->limit = strtod(c->v[CK_LIMIT], &end);
	if (!*c->v[CK_LIMIT] || *end || !isfinite(c->limit))
		return fault(f, CK_LIMIT, "'%s' is not a number", c->v[CK_LIMIT]);
	return 0;
}

/* the selectors a and b, and the scenario they select from */
static int check_selectors(const struct pcb_claim *c, struct claim_fault *f)
{
	char msg[256];

	if (pcb_selector_check(c->v[CK_A], msg, sizeof(msg)) < 0)
		return fault(f, CK_A, "%s", msg);
	if ((c->value == PCB_CLAIM_VALUE) != !c->v[CK_B])
		return fault(f, c->v[CK_B] ? CK_B : CK_VALUE,
			     "b goes with value = diff_pct, ratio, diff or share, and only with "
			     "them");
	if (c->v[CK_B] && pcb_selector_check(c->v[CK_B], msg, sizeof(msg)) < 0)
		return fault(f, CK_B, "%s", msg);
	for (const char *p = c->v[CK_SCENARIO]; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
			return fault(f, CK_SCENARIO, "'%s': a scenario's name, as "
				     "scenarios/NAME.scn", c->v[CK_SCENARIO]);
	return 0;
}

/* "FUNCTION N, ..." into c->op[] */
static int parse_ops(struct pcb_claim *c, struct claim_fault *f)
{
	const char *p = c->v[CK_OPS];

	while (*p) {
		struct pcb_claim_op *op = &c->op[c->nr_ops];
		size_t len = strcspn(p, " \t,");
		char *end;

		if (c->nr_ops == PCB_CLAIM_MAX_OPS)
			return fault(f, CK_OPS, "more than %d functions", PCB_CLAIM_MAX_OPS);
		if (!len || len >= sizeof(op->fn))
			return fault(f, CK_OPS, "'%s': write FUNCTION N, ...", c->v[CK_OPS]);
		snprintf(op->fn, sizeof(op->fn), "%.*s", (int)len, p);
		p += len;
		op->n = strtod(p, &end);
		if (end == p || !isfinite(op->n) || op->n <= 0)
			return fault(f, CK_OPS, "'%s': %s needs a count above 0", c->v[CK_OPS],
				     op->fn);
		p = end + strspn(end, " \t");
		if (*p && *p != ',')
			return fault(f, CK_OPS, "'%s': write FUNCTION N, ...", c->v[CK_OPS]);
		p += *p == ',';
		p += strspn(p, " \t");
		c->nr_ops++;
	}
	return c->nr_ops ? 0 : fault(f, CK_OPS, "no function");
}

/*
 * value = share: ops and real, and a and b functions:DESIGN:* with the
 * ops' functions for the *; neither key without it
 */
static int check_share(struct pcb_claim *c, struct claim_fault *f)
{
	if (c->value != PCB_CLAIM_SHARE) {
		if (c->v[CK_OPS] || c->v[CK_REAL])
			return fault(f, c->v[CK_OPS] ? CK_OPS : CK_REAL,
				     "ops and real go with value = share, and only with it");
		return 0;
	}
	if (!c->v[CK_OPS] || !c->v[CK_REAL])
		return fault(f, CK_VALUE, "value = share needs ops (FUNCTION N, ...) and real "
			     "(a real operation: %s)", pcb_realop_names());
	c->real = pcb_realop_find(c->v[CK_REAL]);
	if (c->real < 0)
		return fault(f, CK_REAL, "'%s': %s", c->v[CK_REAL], pcb_realop_names());
	for (int k = CK_A; k <= CK_B; k++) {
		const char *sel = c->v[k], *fn = strchr(sel, ':');

		fn = fn ? strchr(fn + 1, ':') : NULL;
		if (strncmp(sel, "functions:", 10) || !fn || strncmp(fn + 1, "*", 1) ||
		    (fn[2] && fn[2] != ':'))
			return fault(f, k, "'%s': a share reads functions:DESIGN:*[:FIELD], the * "
				     "each function of ops", sel);
	}
	return parse_ops(c, f);
}

void pcb_claim_op_selector(const char *sel, const struct pcb_claim_op *op, char *buf, size_t len)
{
	const char *star = strrchr(sel, '*');

	snprintf(buf, len, "%.*s%s%s", (int)(star - sel), sel, op->fn, star + 1);
}

/*
 * size: same (this machine's figure is the seed's quantity, so its size is
 * judged, and mechanism may name what differs where it is off) or "not:
 * why" (it cannot be: the seed's unit is another)
 */
static int check_size(struct pcb_claim *c, struct claim_fault *f)
{
	const char *v = c->v[CK_SIZE];

	c->seed_figure = strtod(c->v[CK_FIGURE], NULL);
	if (c->v[CK_BASE_FIGURE]) {
		/* the seed gives both figures: its quantity is what value makes of them */
		double b = strtod(c->v[CK_BASE_FIGURE], NULL), a = c->seed_figure;

		c->seed_figure = c->value == PCB_CLAIM_DIFF_PCT ? (b ? 100 * (a - b) / b : NAN) :
				 c->value == PCB_CLAIM_RATIO ? (b ? a / b : NAN) :
				 c->value == PCB_CLAIM_DIFF ? a - b : a;
	}
	/* seed_sign = inverted: the seed prints a slowdown below 0 (mmtests' gain) */
	if (c->v[CK_SEED_SIGN] && strcmp(c->v[CK_SEED_SIGN], "inverted") &&
	    strcmp(c->v[CK_SEED_SIGN], "same"))
		return fault(f, CK_SEED_SIGN, "'%s': same or inverted", c->v[CK_SEED_SIGN]);
	if (c->v[CK_SEED_SIGN] && !strcmp(c->v[CK_SEED_SIGN], "inverted"))
		c->seed_figure = -c->seed_figure;
	if (!v)
		return fault(f, -1, "no size (same, or not: why the seed's figure is another "
			     "quantity)");
	if (!strcmp(v, "same"))
		c->same_quantity = 1;
	else if (!strncmp(v, "not:", 4) && v[4 + strspn(v + 4, " ")])
		c->not_same = v + 4 + strspn(v + 4, " ");
	else
		return fault(f, CK_SIZE, "'%s': same, or not: why", v);
	if (c->v[CK_MECHANISM] && !c->same_quantity)
		return fault(f, CK_MECHANISM, "a mechanism goes with size = same, and only with it");
	if (c->v[CK_MECHANISM]) {
		const char *none[PCB_MECH_NR] = { 0 };
		char field[64];

		if (pcb_mechanism_fill(c->v[CK_MECHANISM], none, field, sizeof(field)) < 0)
			return fault(f, CK_MECHANISM, "%s: not one of {cpus}, {nodes}, {host}, {line}, "
				     "{online}, {virtual}, {wake}", field);
	}
	if (c->same_quantity && c->expect == PCB_EXPECT_BELOW)
		return fault(f, CK_SIZE, "a bound (expect = below) has no size to judge: not: why");
	return 0;
}

/* one claim's keys, each as the seeds' data file may write it */
static int check_claim(struct pcb_claims *cl, struct pcb_claim *c, char *err, size_t errlen)
{
	struct claim_fault f;

	if (check_required(c, &f) < 0 || check_figures(c, &f) < 0 || check_expect(c, &f) < 0 ||
	    check_selectors(c, &f) < 0 || check_share(c, &f) < 0 || check_size(c, &f) < 0) {
		const struct pcb_claim_at at = { .cl = cl, .c = c, .key = f.key };

		pcb_claim_error(&at, err, errlen, "%s", f.msg);
		return -1;
	}
	return 0;
}

int pcb_claims_load(struct pcb_claims *cl, const char *path, char *err, size_t errlen)
{
	struct claims_state st = { .cl = cl, .in = { .file = cl->file, .err = err,
						       .errlen = errlen } };
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc;

	memset(cl, 0, sizeof(*cl));
	snprintf(cl->file, sizeof(cl->file), "%s", path);
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	errno = 0;
	n = getdelim(&text, &cap, 0, f);
	if (n < 0) {
		int e = ferror(f) ? errno : 0;

		fclose(f);
		free(text);
		snprintf(err, errlen, "%s: %s", path, e ? strerror(e) : "no claim");
		return -1;
	}
	fclose(f);
	/* read to the first NUL: one there would end the file, the claims after it dropped */
	if (n > 0 && text[n - 1] == 0) {
		int line = 1;

		for (ssize_t i = 0; i < n - 1; i++)
			line += text[i] == '\n';
		snprintf(err, errlen, "%s:%d: a NUL byte: not a text file", path, line);
		free(text);
		return -1;
	}
	st.in.text = text;
	rc = ini_parse_stream(reader, &st, handler, &st);
	free(text);
	if (st.in.failed || rc != 0) {
		if (!st.in.failed)
			snprintf(err, errlen, "%s:%d: not a key = value line or [claim]", path, rc);
		pcb_claims_free(cl);
		return -1;
	}
	if (cl->n == 0) {
		snprintf(err, errlen, "%s: no claim", path);
		return -1;
	}
	for (int i = 0; i < cl->n; i++)
		if (check_claim(cl, &cl->c[i], err, errlen) < 0) {
			pcb_claims_free(cl);
			return -1;
		}
	return 0;
}

void pcb_claims_free(struct pcb_claims *cl)
{
	for (int i = 0; i < cl->n; i++)
		for (int k = 0; k < CK_NR; k++)
			free(cl->c[i].v[k]);
	free(cl->c);
	cl->c = NULL;
	cl->n = 0;
}

const char *const pcb_mechanism_field[PCB_MECH_NR] = {
	[PCB_MECH_CPUS] = "cpus", [PCB_MECH_NODES] = "nodes", [PCB_MECH_HOST] = "host",
	[PCB_MECH_LINE] = "line", [PCB_MECH_ONLINE] = "online", [PCB_MECH_VIRTUAL] = "virtual",
	[PCB_MECH_WAKE] = "wake",
};

int pcb_mechanism_fill(const char *mechanism, const char *const value[PCB_MECH_NR], char *buf,
		       size_t len)
{
	size_t n = 0;

	for (const char *s = mechanism; *s; ) {
		const char *end = *s == '{' ? strchr(s, '}') : NULL;
		int k = 0;

		if (*s != '{') {
			size_t run = strcspn(s, "{");

			n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
					      "%.*s", (int)run, s);
			s += run;
			continue;
		}
		while (end && k < PCB_MECH_NR && (strlen(pcb_mechanism_field[k]) !=
		       (size_t)(end - s - 1) || strncmp(s + 1, pcb_mechanism_field[k],
							(size_t)(end - s - 1))))
			k++;
		if (!end || k == PCB_MECH_NR) {
			snprintf(buf, len, "%.*s", end ? (int)(end - s + 1) : (int)strlen(s), s);
			return -1;
		}
		n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s",
				      value[k] ? value[k] : "(unknown here)");
		s = end + 1;
	}
	if (!n && len)
		buf[0] = 0;
	return 0;
}

/*
 * The size of this machine's figure against the seed's, where they are the
 * same quantity: within 2x (a factor of 2 either way), Nx off, or of the
 * opposite sign; why is the mechanism the data file names, or why the two
 * are not the same quantity.
 */
const char *pcb_claim_size(const struct pcb_claim *c, const struct pcb_claim_here *h, char *buf,
			   size_t len, const char **why)
{
	int ok = h->ok, settled = h->settled;
	double here = h->here, f;

	*why = c->not_same;
	if (!c->same_quantity)
		return "not comparable";
	*why = NULL;
	if (!ok)
		return "n/a";
	/* a difference the runs do not establish has no size to judge */
	if (!settled)
		return "n.s.";
	if (!isfinite(c->seed_figure))
		return "n/a";
	if (c->seed_figure == 0 || here == 0 || (c->seed_figure < 0) != (here < 0)) {
		*why = h->mechanism;
		return "opposite sign";
	}
	f = here / c->seed_figure;
	f = f < 1 ? 1 / f : f;
	if (f <= 2)
		return "within 2x";
	*why = h->mechanism;
	snprintf(buf, len, "%.1fx off", f);
	return buf;
}
