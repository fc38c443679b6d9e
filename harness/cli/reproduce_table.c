/* SPDX-License-Identifier: MIT */
/*
 * reproduce's table: a line a claim with the seed's figure and machine,
 * this machine's figure, whether its direction agrees and its size
 * against the seed's, the result it came from; on stdout and, with its
 * CSV, in DIR/reproduce-<UTC timestamp>/.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../output/result.h"
#include "../schema/schema.h"
#include "reproduce.h"
#include "session.h"

static void seed_text(const struct pcb_claim *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s %s [%.3s:%d]", c->v[CK_FIGURE],
		 c->v[CK_BASE_FIGURE] ? " vs " : "", c->v[CK_BASE_FIGURE] ? c->v[CK_BASE_FIGURE] : "",
		 c->v[CK_UNIT] ? c->v[CK_UNIT] : "", c->v[CK_SEED], c->seed_line);
}

static void here_text(const struct pcb_claim *c, const struct outcome *o, char *buf, size_t len)
{
	if (!o->ok)
		snprintf(buf, len, "n/a");
	else if (c->value == PCB_CLAIM_DIFF_PCT || c->value == PCB_CLAIM_SHARE)
		snprintf(buf, len, "%+.2f %%", o->here);
	else if (c->value == PCB_CLAIM_DIFF)
		snprintf(buf, len, "%+.2f", o->here);
	else
		snprintf(buf, len, "%.4g", o->here);
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
	};

	return pcb_claim_size(c, &h, buf, len, why);
}

/* the widths of the table's columns: claim, seed, this machine, agrees?, size */
static void column_widths(const struct repro *rp, int *w)
{
	char s[512], h[64], v[64];
	const char *why;

	for (int i = 0; i < rp->cl.n; i++) {
		const struct pcb_claim *c = &rp->cl.c[i];
		int l = (int)strlen(c->v[CK_CLAIM]);

		w[0] = l > w[0] ? l : w[0];
		seed_text(c, s, sizeof(s));
		l = (int)strlen(s) + 3 + (int)strlen(c->v[CK_MACHINE]);
		w[1] = l > w[1] ? l : w[1];
		here_text(c, &rp->res[i], h, sizeof(h));
		w[2] = (int)strlen(h) > w[2] ? (int)strlen(h) : w[2];
		verdict(c, &rp->res[i], v, sizeof(v));
		w[3] = (int)strlen(v) > w[3] ? (int)strlen(v) : w[3];
		l = (int)strlen(size_text(c, &rp->res[i], v, sizeof(v), &why));
		w[4] = l > w[4] ? l : w[4];
	}
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
		" NUMA node%s, kernel %s\n\n", ml, m, rj_ctx_cpus(context), nodes,
		nodes == 1 ? "" : "s", rj_ctx_kernel(context));
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
			fprintf(f, "real operations here, the base of the shares (TSC ticks, mean "
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

void reproduce_print_table(FILE *f, const struct repro *rp)
{
	int w[5] = { 5, 4, 12, 7, 4 };
	char s[512], h[64], v[64], z[64];
	const char *why, *size;

	column_widths(rp, w);
	if (rp->context)
		print_machine(f, rp->context);
	if (rp->note[0])
		fprintf(f, "%s\n\n", rp->note);
	print_realops(f, rp);
	fprintf(f, "%-*s  %-*s  %-*s  %-*s  %-*s  %s\n", w[0], "claim", w[1],
		"seed (figure [seed:line], machine)", w[2], "this machine", w[3], "agrees?", w[4],
		"size", "result");
	for (int i = 0; i < rp->cl.n; i++) {
		const struct pcb_claim *c = &rp->cl.c[i];
		const struct outcome *o = &rp->res[i];
		char seed[700];

		seed_text(c, s, sizeof(s));
		snprintf(seed, sizeof(seed), "%s, %s", s, c->v[CK_MACHINE]);
		here_text(c, o, h, sizeof(h));
		size = size_text(c, o, z, sizeof(z), &why);
		fprintf(f, "%-*s  %-*s  %-*s  %-*s  %-*s  %s\n", w[0], c->v[CK_CLAIM], w[1], seed,
			w[2], h, w[3], verdict(c, o, v, sizeof(v)), w[4], size,
			rp->dirs[i] ? rp->dirs[i] : "-");
		if (!o->ok && o->why[0])
			fprintf(f, "%-*s  (n/a: %s)\n", w[0], "", o->why);
		if (why)
			fprintf(f, "%-*s  (%s: %s)\n", w[0], "", size, why);
	}
	fprintf(f, "\nn.s.: the two rows' run means do not differ at 95%% confidence (Welch's "
		"t-test), or a count's exact Poisson 95%% interval straddles its bound: this run "
		"settles no direction; more runs (without --quick) may\n"
		"size: where this machine's figure is the seed's quantity, its ratio to the "
		"seed's (within 2x: a factor of 2 either way)\n");
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
