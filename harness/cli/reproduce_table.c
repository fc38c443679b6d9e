/* SPDX-License-Identifier: MIT */
/*
 * reproduce's table, within 100 columns: a claim's words beside the
 * seed's figure and this machine's (4 significant digits), whether its
 * direction agrees and its size against the seed's, the seed's own words
 * under them; the results once; on stdout and, with its CSV, in
 * DIR/reproduce-<UTC timestamp>/.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../output/present/layout.h"
#include "../output/result.h"
#include "../schema/schema.h"
#include "reproduce.h"
#include "../session/session.h"

/* the table's width */
#define PCB_REPRO_WIDTH 100

/* the seed's words: its figures at 4 significant digits, its unit, where it is, its machine */
static void seed_text(const struct pcb_claim *c, char *buf, size_t len)
{
	char base[48] = "";

	if (c->v[CK_BASE_FIGURE])
		snprintf(base, sizeof(base), " vs %.4g", strtod(c->v[CK_BASE_FIGURE], NULL));
	snprintf(buf, len, "[%.3s:%d] %.4g%s %s, %s", c->v[CK_SEED], c->seed_line,
		 strtod(c->v[CK_FIGURE], NULL), base, c->v[CK_UNIT] ? c->v[CK_UNIT] : "",
		 c->v[CK_MACHINE]);
}

/* a figure of the claim's value (this machine's, or the seed's made the same), 4 digits */
static void value_text(const struct pcb_claim *c, double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else if (c->value == PCB_CLAIM_DIFF_PCT || c->value == PCB_CLAIM_SHARE)
		snprintf(buf, len, "%+.4g %%", v);
	else if (c->value == PCB_CLAIM_DIFF)
		snprintf(buf, len, "%+.4g", v);
	else
		snprintf(buf, len, "%.4g", v);
}

static void here_text(const struct pcb_claim *c, const struct outcome *o, char *buf, size_t len)
{
	if (!o->ok)
		snprintf(buf, len, "n/a");
	else
		value_text(c, o->here, buf, len);
}

static const char *verdict(const struct pcb_claim *c, const struct outcome *o, char *buf,
			   size_t len)
{
	const char *want = c->expect == PCB_EXPECT_POSITIVE ? "> 0" :
			   c->expect == PCB_EXPECT_NEGATIVE ? "< 0" : "< ";

	/* a difference the run means do not establish settles no direction */
	const char *says = !o->ok ? "n/a" : o->tested && !o->significant ? "n.s." :
			   o->agrees ? "yes" : "NO";

	if (c->expect == PCB_EXPECT_BELOW)
		snprintf(buf, len, "%s (%s%s)", says, want, c->v[CK_LIMIT]);
	else
		snprintf(buf, len, "%s (%s)", says, want);
	return buf;
}

/* the claim's size verdict on its outcome */
static const char *size_text(const struct pcb_claim *c, const struct outcome *o, char *buf,
			     size_t len, const char **why)
{
	const struct pcb_claim_here h = {
		.ok = o->ok, .settled = !o->tested || o->significant, .here = o->here,
		.mechanism = o->mechanism[0] ? o->mechanism : NULL,
	};

	return pcb_claim_size(c, &h, buf, len, why);
}

/* this machine, as the first result describes it */
static void print_machine(FILE *f, json_t *context)
{
	const char *m = rj_ctx_cpu_model(context);
	json_int_t nodes = rj_ctx_numa_nodes(context);
	int ml = (int)strlen(m);

	while (ml > 0 && m[ml - 1] == ' ')
		ml--;
	fprintf(f, "this machine: %.*s, %" JSON_INTEGER_FORMAT " CPUs, %" JSON_INTEGER_FORMAT
		" NUMA node%s, kernel %s%s\n\n", ml, m, rj_ctx_cpus(context), nodes,
		nodes == 1 ? "" : "s", rj_ctx_kernel(context),
		rj_ctx_has_backend(context) && !strcmp(rj_ctx_backend(context), "kernel") ?
		"; the designs run in the kernel backend (pcpbench.ko)" : "");
}
/* the real operations timed, a line each, before the table */
static void print_realops(FILE *f, const struct repro *rp)
{
	int any = 0;

	for (int k = 0; k < PCB_REALOPS; k++) {
		const struct pcb_realop_result *r = &rp->real[k];

		if (!rp->real_want[k])
			continue;
		if (!any++)
			fprintf(f, "real operations here, the base of the shares (cycles, mean "
				"of the runs' means, STDDEV):\n");
		if (rp->real_err[k][0])
			fprintf(f, "  %-12s not timed: %s\n", pcb_realop_desc[k].name, rp->real_err[k]);
		else
			fprintf(f, "  %-12s %10.1f %8.1f   %d runs of %" PRIu64 ": %s\n",
				pcb_realop_desc[k].name, r->mean, r->stddev, r->runs, r->ops,
				pcb_realop_desc[k].op);
	}
	if (any)
		fprintf(f, "\n");
}

/* the table's columns: claim, seed, this machine, agrees?, size: 100 columns in all */
enum { W_CLAIM = 45, W_SEED = 10, W_HERE = 10, W_AGREES = 13, W_SIZE = 14 };

/* the claim's words to width w, by words; the rest of them, or NULL when they all fit */
static const char *claim_words(FILE *f, const char *s, int w)
{
	int n = (int)strlen(s);

	if (n > w) {
		n = w;
		while (n > 0 && s[n] != ' ')
			n--;
		if (!n)
			n = w;
	}
	fprintf(f, "%-*.*s", w, n, s);
	s += n;
	s += strspn(s, " ");
	return *s ? s : NULL;
}

/* a claim's lines: the figures beside its words, then the seed's, then why */
static void print_claim(FILE *f, const struct repro *rp, int i)
{
	const struct pcb_claim *c = &rp->cl.c[i];
	const struct outcome *o = &rp->res[i];
	char s[700], h[64], v[64], z[64], seed[64];
	const char *why, *size = size_text(c, o, z, sizeof(z), &why);
	const char *rest = claim_words(f, c->v[CK_CLAIM], W_CLAIM);

	/* the seed's figure where it is this machine's quantity; its own words under it */
	if (c->same_quantity)
		value_text(c, c->seed_figure, seed, sizeof(seed));
	else
		snprintf(seed, sizeof(seed), "-");
	here_text(c, o, h, sizeof(h));
	fprintf(f, "  %-*s  %-*s  %-*s  %s\n", W_SEED, seed, W_HERE, h, W_AGREES,
		verdict(c, o, v, sizeof(v)), size);
	while (rest) {
		fprintf(f, "  ");
		rest = claim_words(f, rest, W_CLAIM - 2);
		fprintf(f, "\n");
	}
	seed_text(c, s, sizeof(s));
	pcb_paragraph(f, PCB_REPRO_WIDTH, "  %s; scenario %s", s, c->v[CK_SCENARIO]);
	if (!o->ok && o->why[0])
		pcb_paragraph(f, PCB_REPRO_WIDTH, "  (n/a: %s)", o->why);
	if (why)
		pcb_paragraph(f, PCB_REPRO_WIDTH, "  (%s: %s)", size, why);
}

/* the results the claims' figures came from, a line a scenario */
static void print_results(FILE *f, const struct repro *rp)
{
	fprintf(f, "\nresults:\n");
	for (int k = 0; k < rp->ns; k++)
		fprintf(f, "  %-24s %s\n", rp->s[k].name, rp->s[k].result[0] ? rp->s[k].result :
			"-");
}

/* the claims tested by Welch's test, and the lowest and highest level of their intervals */
static int welch_family(const struct repro *rp, double *lo, double *hi)
{
	int n = 0;

	*lo = 1;
	*hi = 0;
	for (int i = 0; i < rp->cl.n; i++)
		if (rp->res[i].welch) {
			n++;
			*lo = fmin(*lo, rp->res[i].f.level);
			*hi = fmax(*hi, rp->res[i].f.level);
		}
	return n;
}

void reproduce_print_table(FILE *f, const struct repro *rp)
{
	double lo, hi;
	int n = welch_family(rp, &lo, &hi);
	char levels[80];

	if (rp->context)
		print_machine(f, rp->context);
	if (rp->note[0])
		fprintf(f, "%s\n\n", rp->note);
	print_realops(f, rp);
	fprintf(f, "%-*s  %-*s  %-*s  %-*s  %s\n", W_CLAIM, "claim", W_SEED, "seed", W_HERE,
		"here", W_AGREES, "agrees?", "size");
	for (int i = 0; i < rp->cl.n; i++)
		print_claim(f, rp, i);
	print_results(f, rp);
	fprintf(f, "\n");
	pcb_paragraph(f, PCB_REPRO_WIDTH, "seed: the seed's figure made the quantity this "
		      "machine's is (here), 4 significant digits (- where it is another); under "
		      "it the seed's own figures, where they are printed and the machine they "
		      "were measured on");
	pcb_paragraph(f, PCB_REPRO_WIDTH, "n.s.: the difference of the two rows' run means is "
		      "not significant: its interval includes 0 (Welch's, at the confidence "
		      "Holm's step-down over the %d claim(s) so tested gives it, %s, as the "
		      "tables' Diff rows are marked), or a count's exact Poisson 95%% interval "
		      "straddles its bound: this run settles no direction; more runs (without "
		      "--quick) may", n, n ? pcb_levels_text(levels, sizeof(levels), lo, hi) :
		      "none");
	pcb_paragraph(f, PCB_REPRO_WIDTH, "size: where this machine's figure is the seed's "
		      "quantity, its ratio to the seed's (within 2x: a factor of 2 either way)");
}

static void csv_field(FILE *f, const char *s, const char *sep)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fprintf(f, "\"%s", sep);
}

static void write_csv(FILE *f, const struct repro *rp)
{
	fprintf(f, "id,claim,seed,line,seed_figure,base_line,base_figure,unit,seed_machine,"
		"scenario,value,here,expect,agrees,result,significant,size\n");
	for (int i = 0; i < rp->cl.n; i++) {
		const struct pcb_claim *c = &rp->cl.c[i];
		const struct outcome *o = &rp->res[i];
		char h[64], v[64];
		const char *why;

		csv_field(f, c->id, ",");
		csv_field(f, c->v[CK_CLAIM], ",");
		csv_field(f, c->v[CK_SEED], ",");
		fprintf(f, "%d,", c->seed_line);
		csv_field(f, c->v[CK_FIGURE], ",");
		fprintf(f, "%d,", c->base_line);
		csv_field(f, c->v[CK_BASE_FIGURE], ",");
		csv_field(f, c->v[CK_UNIT], ",");
		csv_field(f, c->v[CK_MACHINE], ",");
		csv_field(f, c->v[CK_SCENARIO], ",");
		csv_field(f, c->v[CK_VALUE] ? c->v[CK_VALUE] : "diff_pct", ",");
		if (o->ok)
			snprintf(h, sizeof(h), "%.6g", o->here);
		else
			h[0] = 0;
		fprintf(f, "%s,", h);
		snprintf(v, sizeof(v), "%s%s%s", c->v[CK_EXPECT], c->v[CK_LIMIT] ? " " : "",
			 c->v[CK_LIMIT] ? c->v[CK_LIMIT] : "");
		csv_field(f, v, ",");
		fprintf(f, "%s,", !o->ok ? "n/a" : o->agrees ? "yes" : "no");
		csv_field(f, rp->dirs[i], ",");
		fprintf(f, "%s,", !o->tested ? "" : o->significant ? "1" : "0");
		csv_field(f, size_text(c, o, v, sizeof(v), &why), "\n");
	}
}

int reproduce_write_table(const char *out, const struct repro *rp, char *path, size_t len)
{
	char tmp[PATH_MAX], file[PATH_MAX + 32], ts[32];
	FILE *t, *c;
	int rc = 0;

	pcb_utc_timestamp(ts, sizeof(ts), 1);
	snprintf(tmp, sizeof(tmp), "%s/.reproduce-%s.tmp.%d", out, ts, (int)getpid());
	snprintf(path, len, "%s/reproduce-%s", out, ts);
	if (pcb_tmpdir_make(tmp) < 0)
		return -1;
	snprintf(file, sizeof(file), "%s/reproduce.txt", tmp);
	t = fopen(file, "w");
	snprintf(file, sizeof(file), "%s/reproduce.csv", tmp);
	c = fopen(file, "w");
	if (t) {
		reproduce_print_table(t, rp);
		rc |= fclose(t);
	}
	if (c) {
		write_csv(c, rp);
		rc |= fclose(c);
	}
	pcb_tmpdir_seal(tmp);
	if (!t || !c || rc || access(path, F_OK) == 0 || rename(tmp, path) < 0) {
		session_remove_tree(tmp);
		return -1;
	}
	return 0;
}
