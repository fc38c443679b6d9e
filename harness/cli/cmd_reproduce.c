/* SPDX-License-Identifier: MIT */
/*
 * reproduce: every claim of the seeds (scenarios/seeds.ini) on this
 * machine. Each scenario the claims name runs once, as run runs it; each
 * claim's figure comes from that result.json; one table sets the seed's
 * figure and machine beside this machine's figure and whether its
 * direction agrees, with the result it came from. The table is written to
 * DIR/reproduce-<UTC timestamp>/ (reproduce.txt, reproduce.csv).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../machine/aslr.h"
#include "../measure/realop.h"
#include "../measure/stats.h"
#include "../output/read/figures.h"
#include "../output/read/load.h"
#include "../output/result.h"
#include "../schema/schema.h"
#include "../scenario/claims.h"
#include "cli.h"
#include "config.h"
#include "groups.h"
#include "session.h"

/* a scenario the claims name, loaded once, and where its result went */
struct repro_scn {
	const char *name;
	struct scn_group g;
	char result[PATH_MAX];
	json_t *json;
};

/* run means a claim's test reads of one row */
#define PCB_MAX_RUN_MEANS 1000

/* a claim's outcome */
struct outcome {
	double here;
	int ok;			/* the figure exists */
	int agrees;
	int tested;		/* a and b have run means: Welch's t-test over them */
	int significant;
	char why[256];		/* what is missing when !ok */
};

/* what reproduce holds from reading the claims to writing the table */
struct repro {
	struct pcb_claims cl;
	struct repro_scn *s;		/* the scenarios the claims name, ns of them */
	int ns;
	struct outcome *res;		/* a claim's outcome */
	const char **dirs;		/* and the result it came from, NULL for none */
	struct run_opts o;
	struct pcb_topo topo;
	double estimate;		/* seconds, all scenarios */
	json_t *context;		/* the first result's machine */
	char note[128];			/* what the table says first, "" for nothing */
	/* the real operations the shares are of, timed here after the scenarios */
	struct pcb_realop_result real[PCB_REALOPS];
	char real_err[PCB_REALOPS][256];	/* why one was not timed, "" if it was */
	int real_want[PCB_REALOPS];
};

/* scenarios/seeds.ini, from here or from the source tree, into path */
static const char *default_claims(char *path, size_t len)
{
	if (access("scenarios/seeds.ini", R_OK) == 0)
		return "scenarios/seeds.ini";
	snprintf(path, len, "%s/scenarios/seeds.ini", PCB_SOURCE_DIR);
	return path;
}

static int scn_index(struct repro_scn *s, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s[i].name, name))
			return i;
	return -1;
}

/* a selector's design must be one the scenario runs */
static void check_design(const struct pcb_claims *cl, const struct pcb_claim *c, int key,
			 const struct scn_group *g)
{
	const struct pcb_claim_at at = { .cl = cl, .c = c, .key = key };
	char want[512], label[PCB_LABEL_LEN + 64], names[2048] = "", err[3072];

	pcb_selector_design(c->v[key], want, sizeof(want));
	if (pcb_selector_has_function(c->v[key])) {
		/* functions:DESIGN:FUNCTION, contention:DESIGN:FUNCTION|*: a row of the model */
		const char *fn = strchr(strchr(c->v[key], ':') + 1, ':') + 1;
		char name[128];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(fn, ":"), fn);
		if (strcmp(name, "*") && pcb_fn_find(g->cfg[0].model, name) < 0) {
			pcb_claim_error(&at, err, sizeof(err), "'%s': the %s model has no "
					"function '%s'", c->v[key], g->cfg[0].model->name, name);
			die_usage("%s", err);
		}
		/* a share's *: each function of its ops */
		for (int i = 0; i < c->nr_ops; i++)
			if (pcb_fn_find(g->cfg[0].model, c->op[i].fn) < 0) {
				const struct pcb_claim_at on = { .cl = cl, .c = c, .key = CK_OPS };

				pcb_claim_error(&on, err, sizeof(err), "the %s model has no "
						"function '%s'", g->cfg[0].model->name, c->op[i].fn);
				die_usage("%s", err);
			}
	}
	for (int k = 0; k < g->n; k++)
		for (int d = 0; d < g->cfg[k].nr_designs; d++) {
			snprintf(label, sizeof(label), "%s%s%s", g->cfg[k].design[d]->name,
				 g->cfg[k].label[0] ? " " : "", g->cfg[k].label);
			if (!strcmp(label, want))
				return;
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s'%s'",
				 names[0] ? ", " : "", label);
		}
	pcb_claim_error(&at, err, sizeof(err), "'%s': scenario %s runs no design '%s' "
			"(it runs %s)", c->v[key], c->v[CK_SCENARIO], want, names);
	die_usage("%s", err);
}

/* sel's run means, count x each, added into sum (n runs); the runs, 0 where they differ */
static int add_runs(json_t *result, const char *sel, double count, double *sum, int n)
{
	double r[PCB_MAX_RUN_MEANS];
	int m = pcb_figure_runs(result, sel, r, PCB_MAX_RUN_MEANS);

	if (n >= 0 && m != n)
		return 0;
	for (int k = 0; k < m; k++)
		sum[k] += count * r[k];
	return m;
}

/*
 * A share: the modeled difference of one real operation, over what it
 * costs here. Its direction is tested as a Diff's, Welch's t-test over
 * the runs' sums of count x mean, a against b.
 */
static void evaluate_share(const struct pcb_claim *c, json_t *result,
			   const struct repro *rp, struct outcome *o)
{
	double ra[PCB_MAX_RUN_MEANS] = { 0 }, rb[PCB_MAX_RUN_MEANS] = { 0 };
	double modeled = 0, real = rp->real[c->real].mean;
	int na = -1, nb = -1;

	for (int i = 0; i < c->nr_ops; i++) {
		char sa[512], sb[512];
		double a, b;

		pcb_claim_op_selector(c->v[CK_A], &c->op[i], sa, sizeof(sa));
		pcb_claim_op_selector(c->v[CK_B], &c->op[i], sb, sizeof(sb));
		if (pcb_figure_get(result, sa, &a, o->why, sizeof(o->why)) < 0 ||
		    pcb_figure_get(result, sb, &b, o->why, sizeof(o->why)) < 0)
			return;
		modeled += c->op[i].n * (a - b);
		na = add_runs(result, sa, c->op[i].n, ra, na);
		nb = add_runs(result, sb, c->op[i].n, rb, nb);
	}
	o->tested = na >= 2 && nb >= 2;
	o->significant = o->tested && pcb_welch_significant(ra, na, rb, nb);
	if (rp->real_err[c->real][0] || !(real > 0)) {
		snprintf(o->why, sizeof(o->why), "%s not timed here: %s", c->v[CK_REAL],
			 rp->real_err[c->real][0] ? rp->real_err[c->real] : "no figure");
		return;
	}
	o->here = 100 * modeled / real;
	o->ok = isfinite(o->here);
	o->agrees = c->expect == PCB_EXPECT_POSITIVE ? o->here > 0 :
		    c->expect == PCB_EXPECT_NEGATIVE ? o->here < 0 : o->here < c->limit;
}

static void evaluate(const struct pcb_claim *c, json_t *result, const struct repro *rp,
		     struct outcome *o)
{
	double a, b = 1;

	memset(o, 0, sizeof(*o));
	if (!result) {
		snprintf(o->why, sizeof(o->why), "no result");
		return;
	}
	if (pcb_result_interrupted(result)) {
		snprintf(o->why, sizeof(o->why), "the scenario was interrupted (complete: false)");
		return;
	}
	if (c->value == PCB_CLAIM_SHARE) {
		evaluate_share(c, result, rp, o);
		return;
	}
	if (pcb_figure_get(result, c->v[CK_A], &a, o->why, sizeof(o->why)) < 0)
		return;
	if (c->v[CK_B] && pcb_figure_get(result, c->v[CK_B], &b, o->why, sizeof(o->why)) < 0)
		return;
	if ((c->value == PCB_CLAIM_DIFF_PCT || c->value == PCB_CLAIM_RATIO) && b == 0) {
		snprintf(o->why, sizeof(o->why), "%s is 0", c->v[CK_B]);
		return;
	}
	o->here = c->value == PCB_CLAIM_DIFF_PCT ? 100 * (a - b) / b :
		  c->value == PCB_CLAIM_RATIO ? a / b : c->value == PCB_CLAIM_DIFF ? a - b : a;
	o->ok = isfinite(o->here);
	if (c->v[CK_B] && c->value != PCB_CLAIM_VALUE) {
		double ra[PCB_MAX_RUN_MEANS], rb[PCB_MAX_RUN_MEANS];
		int na = pcb_figure_runs(result, c->v[CK_A], ra, PCB_MAX_RUN_MEANS);
		int nb = pcb_figure_runs(result, c->v[CK_B], rb, PCB_MAX_RUN_MEANS);

		o->tested = na >= 2 && nb >= 2;
		o->significant = o->tested && pcb_welch_significant(ra, na, rb, nb);
	}
	if (c->expect == PCB_EXPECT_BELOW && c->value == PCB_CLAIM_RATIO &&
	    !strncmp(c->v[CK_A], "contention:", 11) && a >= 0 && b > 0) {
		/* a bound on a rate of rare events: settled only where the count's interval is */
		double lo, hi;

		pcb_poisson_interval((uint64_t)(a + 0.5), &lo, &hi);
		o->tested = 1;
		o->significant = hi / b < c->limit || lo / b > c->limit;
	}
	o->agrees = c->expect == PCB_EXPECT_POSITIVE ? o->here > 0 :
		    c->expect == PCB_EXPECT_NEGATIVE ? o->here < 0 : o->here < c->limit;
}

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

/*
 * The real operations the shares are of, timed after the scenarios (the
 * machine otherwise idle), pinned to the last CPU, a worker's by default
 */
static void measure_realops(struct repro *rp)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	for (int i = 0; i < rp->cl.n; i++)
		if (rp->cl.c[i].value == PCB_CLAIM_SHARE)
			rp->real_want[rp->cl.c[i].real] = 1;
	for (int k = 0; k < PCB_REALOPS && !session_interrupted(); k++) {
		const struct pcb_realop_req req = {
			.kind = (enum pcb_realop_kind)k, .cpu = cpus > 0 ? (int)cpus - 1 : -1,
			.peer_cpu = cpus > 1 ? 0 : -1, .runs = rp->o.quick ? 3 : 10,
			.ops = rp->o.quick ? pcb_realop_desc[k].default_ops / 4 : 0,
		};

		if (!rp->real_want[k])
			continue;
		if (pcb_realop_measure(&req, &rp->real[k], rp->real_err[k],
				       sizeof(rp->real_err[k])) < 0 && !rp->real_err[k][0])
			snprintf(rp->real_err[k], sizeof(rp->real_err[k]), "failed");
	}
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

static void print_table(FILE *f, const struct repro *rp)
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

/* DIR/reproduce-<ts>/ with reproduce.txt and reproduce.csv, renamed into place */
static int write_table(const char *out, const struct repro *rp, char *path, size_t len)
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
		print_table(t, rp);
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

/* reproduce's options (exit 2 on a bad one), then the re-exec without ASLR */
static void parse_args(int argc, char **argv, struct repro *rp, const char **out,
		       const char **file, int *dry)
{
	static const struct option opts[] = {
		{ "quick", no_argument, NULL, 'q' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "out", required_argument, NULL, 'o' },
		{ "claims", required_argument, NULL, 'c' },
		{ "keep-aslr", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, keep_aslr = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'q': rp->o.quick = 1; break;
		case 'n': *dry = 1; break;
		case 'o': *out = optarg; break;
		case 'c': *file = optarg; break;
		case 'A': keep_aslr = 1; break;
		case 'h': fputs(reproduce_usage, stdout); exit(0);
		default: die_usage("reproduce: see pcpbench reproduce --help");
		}
	}
	if (optind < argc)
		die_usage("reproduce: unexpected '%s' (see pcpbench reproduce --help)", argv[optind]);
	pcb_aslr_reexec(keep_aslr);
}

/* claim cm's scenario, loaded and checked the first time a claim names it: its index */
static int claim_scenario(struct repro *rp, const struct pcb_claim *cm)
{
	char p[PATH_MAX], err[2048];
	int k = scn_index(rp->s, rp->ns, cm->v[CK_SCENARIO]);

	if (k >= 0)
		return k;
	scenario_path(cm->v[CK_SCENARIO], p, sizeof(p));
	if (access(p, R_OK) < 0) {
		const struct pcb_claim_at at = { .cl = &rp->cl, .c = cm, .key = CK_SCENARIO };

		pcb_claim_error(&at, err, sizeof(err), "no scenario '%s' (%s: %s)",
				cm->v[CK_SCENARIO], p, strerror(errno));
		die_usage("%s", err);
	}
	k = rp->ns++;
	rp->s[k].name = cm->v[CK_SCENARIO];
	if (group_load(&rp->s[k].g, p, &rp->o, &rp->topo, err, sizeof(err)) < 0)
		die_usage("%s", err);
	rp->estimate += group_seconds(&rp->s[k].g);
	return k;
}

/* every scenario the claims name, loaded and checked before anything runs */
static void load_scenarios(struct repro *rp)
{
	rp->s = calloc((size_t)rp->cl.n, sizeof(*rp->s));
	rp->res = calloc((size_t)rp->cl.n, sizeof(*rp->res));
	rp->dirs = calloc((size_t)rp->cl.n, sizeof(*rp->dirs));
	for (int i = 0; i < rp->cl.n; i++) {
		const struct pcb_claim *cm = &rp->cl.c[i];
		int k = claim_scenario(rp, cm);

		check_design(&rp->cl, cm, CK_A, &rp->s[k].g);
		if (cm->v[CK_B])
			check_design(&rp->cl, cm, CK_B, &rp->s[k].g);
	}
}

static void print_plan(const struct repro *rp)
{
	const struct pcb_claims *cl = &rp->cl;

	printf("%d claims from %s, %d scenarios%s\n", cl->n, cl->file, rp->ns,
	       rp->o.quick ? " (quick)" : "");
	for (int k = 0; k < rp->ns; k++) {
		const struct repro_scn *s = &rp->s[k];

		printf("scenario %s (%s): %d configuration%s, about %.0f s\n", s->name,
		       s->g.cfg[0].file, s->g.n, s->g.n == 1 ? "" : "s", group_seconds(&s->g));
		for (int i = 0; i < cl->n; i++)
			if (!strcmp(cl->c[i].v[CK_SCENARIO], s->name))
				printf("  %-22s %s%s%s%s%s%s%s\n", cl->c[i].id, cl->c[i].v[CK_A],
				       cl->c[i].v[CK_B] ? " against " : "",
				       cl->c[i].v[CK_B] ? cl->c[i].v[CK_B] : "",
				       cl->c[i].v[CK_OPS] ? ", * each of " : "",
				       cl->c[i].v[CK_OPS] ? cl->c[i].v[CK_OPS] : "",
				       cl->c[i].v[CK_REAL] ? ", a share of real " : "",
				       cl->c[i].v[CK_REAL] ? cl->c[i].v[CK_REAL] : "");
	}
	printf("estimated time: %.0f s\n", rp->estimate);
}

/* each scenario once, as run runs it, its result read back; the first exit status not 0 */
static int run_scenarios(struct repro *rp, const char *command, const char *out)
{
	struct progress pg = { .node = -1 };
	char path[PATH_MAX], err[PATH_MAX + 512];
	struct pcb_clock clk;
	struct session_once once = { .held = NULL };
	/* each scenario's tables are in its result's tables.txt: stdout has the claims */
	const struct session ss = { .topo = &rp->topo, .clk = &clk, .command = command,
				    .out = out, .once = &once };
	int rc = 0;

	pcb_clock_calibrate(&clk, CALIBRATE_MS);
	pg.tty = isatty(2);
	pg.start = now_s();
	pg.estimate = rp->estimate;
	for (int k = 0; k < rp->ns && !session_interrupted(); k++) {
		struct repro_scn *s = &rp->s[k];
		int r = run_scenario(&ss, s->g.cfg, s->g.n, &pg);

		rc = rc ? rc : r;
		snprintf(s->result, sizeof(s->result), "%s", pg.result);
		/* read back as report reads it: a result the schema refuses has no figures */
		if (pg.result[0] && pcb_result_load(pg.result, &s->json, path, sizeof(path), err,
						    sizeof(err)) < 0)
			fprintf(stderr, "%s: reproduce: %s\n", prog, err);
		if (!rp->context && s->json)
			rp->context = rj_top_context(s->json);
	}
	session_once_free(&once);
	return rc;
}

/* each claim's figure from its scenario's result; what an interruption left */
static void evaluate_claims(struct repro *rp)
{
	for (int i = 0; i < rp->cl.n; i++) {
		int k = scn_index(rp->s, rp->ns, rp->cl.c[i].v[CK_SCENARIO]);

		evaluate(&rp->cl.c[i], rp->s[k].json, rp, &rp->res[i]);
		rp->dirs[i] = rp->s[k].result[0] ? rp->s[k].result : NULL;
	}
	if (session_interrupted()) {
		int ran = 0;

		for (int k = 0; k < rp->ns; k++)
			ran += rp->s[k].json && !pcb_result_interrupted(rp->s[k].json);
		snprintf(rp->note, sizeof(rp->note), "interrupted: %d of %d scenarios ran whole; "
			 "the claims of the others are n/a", ran, rp->ns);
	}
}

static void free_repro(struct repro *rp)
{
	for (int k = 0; k < rp->ns; k++) {
		group_free(&rp->s[k].g);
		json_decref(rp->s[k].json);
	}
	free(rp->s);
	free(rp->res);
	free(rp->dirs);
	pcb_claims_free(&rp->cl);
	pcb_topo_destroy(&rp->topo);
}

int cmd_reproduce(int argc, char **argv, const struct cli_ctx *ctx)
{
	const char *out = "results", *file = NULL;
	struct repro rp = { 0 };
	char err[2048], path[PATH_MAX];
	int dry = 0, rc;

	parse_args(argc, argv, &rp, &out, &file, &dry);
	if (pcb_claims_load(&rp.cl, file ? file : default_claims(path, sizeof(path)), err,
			    sizeof(err)) < 0)
		die_usage("%s", err);
	load_topology(&rp.topo, ctx->topo_spec);
	load_scenarios(&rp);
	if (dry) {
		print_plan(&rp);
		free_repro(&rp);
		return 0;
	}
	if (rp.topo.synthetic)
		die_usage("reproduce: the topology is not this machine's (%s): use --dry-run",
			  rp.topo.source);
	if (session_prepare_out(out, err, sizeof(err)) < 0)
		die_usage("%s", err);
	fprintf(stderr, "%s: reproduce: %d claims, %d scenarios, about %.0f s%s\n", prog, rp.cl.n,
		rp.ns, rp.estimate, rp.o.quick ? "" : " (--quick: about a tenth)");
	session_catch_signals();
	rc = run_scenarios(&rp, ctx->command, out);
	measure_realops(&rp);
	evaluate_claims(&rp);
	print_table(stdout, &rp);
	fflush(stdout);
	if (write_table(out, &rp, path, sizeof(path)) < 0) {
		fprintf(stderr, "%s: reproduce: cannot write the table under %s\n", prog, out);
		rc = EXIT_RUNTIME;
	} else {
		fprintf(stderr, "%s: reproduce: table in %s\n", prog, path);
	}
	free_repro(&rp);
	return rc;
}
