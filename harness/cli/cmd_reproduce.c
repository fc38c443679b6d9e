/* SPDX-License-Identifier: MIT */
/*
 * reproduce: every claim of the seeds (scenarios/seeds.ini) on this
 * machine. Each scenario the claims name runs once, as run runs it; each
 * claim's figure comes from that result.json; one table sets the seed's
 * figure and machine beside this machine's figure and whether its
 * direction agrees, with the result it came from. The table is written to
 * DIR/reproduce-<UTC timestamp>/ (reproduce.txt, reproduce.csv). A claim
 * is judged in reproduce_judge.c, the table made in reproduce_table.c.
 */
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../machine/aslr.h"
#include "../machine/datadir.h"
#include "../machine/kmod.h"
#include "../output/read/load.h"
#include "../output/read/merge.h"
#include "../output/result.h"
#include "../schema/schema.h"
#include "cli.h"
#include "reproduce.h"
#include "../session/session.h"

/* scenarios/seeds.ini, from here or from the data directory, into path */
/* the seeds' claims: of the models (seeds.ini), or of the kernel's own code (seeds-kernel.ini) */
static const char *default_claims(const struct repro *rp, char *path, size_t len)
{
	const char *f = strstr(rp->backend, "=instrumented") ? "scenarios/seeds-kernel.ini" :
			"scenarios/seeds.ini";

	/* the data directory's, as the scenarios the claims name (scenario_path()) */
	return pcb_data_path(f, path, len);
}

static int scn_index(struct repro_scn *s, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s[i].name, name))
			return i;
	return -1;
}

/*
 * The claim's design (want) as one of g's configurations ran it, or its
 * backend skipped it: that design's refusal into *skip; 1 if found
 */
static int find_design(const struct scn_group *g, const char *want, char **skip,
		       char *names, size_t len)
{
	char label[PCB_LABEL_LEN + 64];

	for (int k = 0; k < g->n; k++) {
		const struct pcb_scenario *sc = &g->cfg[k];

		for (int d = 0; d < sc->nr_designs + sc->nr_backend_skipped; d++) {
			const struct pcb_design *de = d < sc->nr_designs ? sc->design[d] :
						      sc->backend_skipped[d - sc->nr_designs];

			snprintf(label, sizeof(label), "%s%s%s", de->name, sc->label[0] ? " " : "",
				 sc->label);
			if (strcmp(label, want)) {
				snprintf(names + strlen(names), len - strlen(names), "%s'%s'",
					 names[0] ? ", " : "", label);
				continue;
			}
			/* another kernel's design: its figures come with --with's result */
			if (d >= sc->nr_designs && sc->backend == PCB_BACKEND_INSTRUMENTED)
				return 1;
			if (d >= sc->nr_designs && !*skip &&
			    asprintf(skip, "%s: not in the %s backend: %s", de->name,
				     pcb_backend_name[sc->backend], de->kernel_refused) < 0)
				*skip = NULL;
			return 1;
		}
	}
	return 0;
}

/*
 * a selector's design must be one the scenario runs, or one its backend
 * refuses (the claim is then skipped, *skip saying why)
 */
static void check_design(const struct pcb_claims *cl, const struct pcb_claim *c, int key,
			 const struct scn_group *g, char **skip)
{
	const struct pcb_claim_at at = { .cl = cl, .c = c, .key = key };
	char want[512], names[2048] = "", err[3072];

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
	if (find_design(g, want, skip, names, sizeof(names)))
		return;
	pcb_claim_error(&at, err, sizeof(err), "'%s': scenario %s runs no design '%s' "
			"(it runs %s)", c->v[key], c->v[CK_SCENARIO], want, names);
	die_usage("%s", err);
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
		{ "backend", required_argument, NULL, 'B' },
		{ "with", required_argument, NULL, 'W' },
		{ "set", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, keep_aslr = 0, nsets = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'q': rp->o.quick = 1; break;
		case 'n': *dry = 1; break;
		case 'o': *out = optarg; break;
		case 'c': *file = optarg; break;
		case 'A': keep_aslr = 1; break;
		case 'B':
			snprintf(rp->backend, sizeof(rp->backend), "run.backend=%.40s", optarg);
			break;
		case 's':
			if (nsets == (int)(sizeof(rp->sets) / sizeof(rp->sets[0])) - 1)
				die_usage("reproduce: more than %d --set", nsets);
			rp->sets[1 + nsets++] = optarg;
			break;
		case 'W': rp->with = optarg; break;
		case 'h': fputs(reproduce_usage, stdout); exit(0);
		default: die_usage("reproduce: see pcpbench reproduce --help");
		}
	}
	if (optind < argc)
		die_usage("reproduce: unexpected '%s' (see pcpbench reproduce --help)", argv[optind]);
	/* --backend's first, as a --set, then every --set in order; none: o has none */
	rp->sets[0] = rp->backend;
	rp->o.sets = rp->backend[0] ? rp->sets : rp->sets + 1;
	rp->o.nsets = (rp->backend[0] ? 1 : 0) + nsets;
	pcb_aslr_reexec(keep_aslr);
}

/* a configuration's designs the kernel backend refuses are skipped, not refused */
static void skip_refused(struct pcb_scenario *sc, int c, void *arg)
{
	(void)c;
	(void)arg;
	sc->backend_skip_refused = 1;
}

/*
 * The scenario at p as the backend asked for runs it (s->g); where that
 * refuses it, the refusal in s->refused and s->g as the userspace backend
 * loads it, for the claims' checks; an error of the scenario's own exits 2
 */
static void load_scenario(struct repro *rp, struct repro_scn *s, const char *p)
{
	struct run_opts o = rp->o;
	char err[1024], uerr[1024];

	o.hook = skip_refused;
	if (group_load(&s->g, p, &o, &rp->topo, err, sizeof(err)) == 0)
		return;
	/* as the userspace backend loads it: the --set keys without --backend's */
	o.sets = rp->sets + 1;
	o.nsets = rp->o.nsets - 1;
	if (!rp->backend[0] || group_load(&s->g, p, &o, &rp->topo, uerr, sizeof(uerr)) < 0)
		die_usage("%s", err);
	snprintf(s->refused, sizeof(s->refused), "%s", err);
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
	load_scenario(rp, &rp->s[k], p);
	return k;
}

/*
 * The configurations left with no design (the backend refused them all)
 * taken out of s's group; none left, s is not run
 */
static void drop_empty(struct repro_scn *s)
{
	struct scn_group *g = &s->g;
	int n = 0;

	for (int c = 0; c < g->n; c++) {
		if (g->cfg[c].nr_designs) {
			if (n != c)
				g->cfg[n] = g->cfg[c];
			n++;
			continue;
		}
		pcb_scenario_free(&g->cfg[c]);
	}
	g->n = n;
	if (!n && !s->refused[0])
		snprintf(s->refused, sizeof(s->refused), "%s: every design it runs is refused by "
			 "the kernel backend", s->name);
}

/* every scenario the claims name, loaded and checked before anything runs */
static void load_scenarios(struct repro *rp)
{
	rp->s = calloc((size_t)rp->cl.n, sizeof(*rp->s));
	rp->res = calloc((size_t)rp->cl.n, sizeof(*rp->res));
	rp->dirs = calloc((size_t)rp->cl.n, sizeof(*rp->dirs));
	rp->skip = calloc((size_t)rp->cl.n, sizeof(*rp->skip));
	for (int i = 0; i < rp->cl.n; i++) {
		const struct pcb_claim *cm = &rp->cl.c[i];
		int k = claim_scenario(rp, cm);

		check_design(&rp->cl, cm, CK_A, &rp->s[k].g, &rp->skip[i]);
		if (cm->v[CK_B])
			check_design(&rp->cl, cm, CK_B, &rp->s[k].g, &rp->skip[i]);
	}
	for (int k = 0; k < rp->ns; k++) {
		struct repro_scn *s = &rp->s[k];

		if (!s->refused[0])
			drop_empty(s);
		for (int i = 0; i < rp->cl.n; i++)
			if (s->refused[0] && !strcmp(rp->cl.c[i].v[CK_SCENARIO], s->name) &&
			    !rp->skip[i])
				rp->skip[i] = strdup(s->refused);
		if (s->refused[0])
			group_free(&s->g);
		rp->estimate += group_seconds(&s->g);
	}
}

static void print_plan(const struct repro *rp)
{
	const struct pcb_claims *cl = &rp->cl;

	printf("%d claims from %s, %d scenarios%s%s%s\n", cl->n, cl->file, rp->ns,
	       rp->o.quick ? " (quick)" : "", rp->backend[0] ? ", " : "", rp->backend);
	for (int k = 0; k < rp->ns; k++) {
		const struct repro_scn *s = &rp->s[k];

		if (s->g.n)
			printf("scenario %s (%s): %d configuration%s, about %.0f s\n", s->name,
			       s->g.cfg[0].file, s->g.n, s->g.n == 1 ? "" : "s",
			       group_seconds(&s->g));
		else
			printf("scenario %s: not run\n", s->name);
		for (int i = 0; i < cl->n; i++) {
			if (strcmp(cl->c[i].v[CK_SCENARIO], s->name))
				continue;
			if (rp->skip[i])
				printf("  %-22s skipped: %s\n", cl->c[i].id, rp->skip[i]);
			else
				printf("  %-22s %s%s%s%s%s%s%s\n", cl->c[i].id, cl->c[i].v[CK_A],
				       cl->c[i].v[CK_B] ? " against " : "",
				       cl->c[i].v[CK_B] ? cl->c[i].v[CK_B] : "",
				       cl->c[i].v[CK_OPS] ? ", * each of " : "",
				       cl->c[i].v[CK_OPS] ? cl->c[i].v[CK_OPS] : "",
				       cl->c[i].v[CK_REAL] ? ", a share of real " : "",
				       cl->c[i].v[CK_REAL] ? cl->c[i].v[CK_REAL] : "");
		}
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
		int r;

		if (!s->g.n)
			continue;
		r = run_scenario(&ss, s->g.cfg, s->g.n, &pg);

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

/*
 * --with DIR: each scenario's newest result there (DIR/NAME-<UTC
 * timestamp>/, as reproduce --out wrote it on another kernel) merged into
 * this one's, so that a claim sets one kernel's design against another's
 */
static void merge_with(struct repro *rp)
{
	for (int k = 0; rp->with && k < rp->ns; k++) {
		struct repro_scn *s = &rp->s[k];
		char pattern[PATH_MAX], path[PATH_MAX], err[PATH_MAX + 512];
		json_t *other = NULL;
		glob_t g;

		if (!s->json)
			continue;
		/* NAME-<UTC timestamp>: not another scenario's whose name NAME begins */
		snprintf(pattern, sizeof(pattern), "%s/%s-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]T*"
			 "/result.json", rp->with, s->name);
		if (glob(pattern, 0, NULL, &g) != 0) {
			fprintf(stderr, "%s: reproduce: --with %s: no result of %s there\n", prog,
				rp->with, s->name);
			continue;
		}
		/* the names sort by their timestamp: the newest last */
		if (pcb_result_load(g.gl_pathv[g.gl_pathc - 1], &other, path, sizeof(path), err,
				    sizeof(err)) < 0 ||
		    pcb_result_merge(s->json, other, path, err, sizeof(err)) < 0)
			fprintf(stderr, "%s: reproduce: --with: %s\n", prog, err);
		else
			fprintf(stderr, "%s: reproduce: %s: merged %s\n", prog, s->name, path);
		json_decref(other);
		globfree(&g);
	}
}

/* each claim's figure from its scenario's result; what an interruption left */
static void evaluate_claims(struct repro *rp)
{
	int skipped = 0;

	for (int i = 0; i < rp->cl.n; i++) {
		int k = scn_index(rp->s, rp->ns, rp->cl.c[i].v[CK_SCENARIO]);

		if (rp->skip[i]) {
			skipped++;
			snprintf(rp->res[i].why, sizeof(rp->res[i].why), "skipped: %s", rp->skip[i]);
			continue;
		}
		reproduce_evaluate(&rp->cl.c[i], rp->s[k].json, rp, &rp->res[i]);
		rp->dirs[i] = rp->s[k].result[0] ? rp->s[k].result : NULL;
	}
	reproduce_mark(rp);
	if (session_interrupted()) {
		int ran = 0, to_run = 0;

		for (int k = 0; k < rp->ns; k++) {
			ran += rp->s[k].json && !pcb_result_interrupted(rp->s[k].json);
			to_run += rp->s[k].g.n > 0;
		}
		snprintf(rp->note, sizeof(rp->note), "interrupted: %d of %d scenarios ran whole; "
			 "the claims of the others are n/a", ran, to_run);
	} else if (skipped) {
		snprintf(rp->note, sizeof(rp->note), "%s: %d of %d claims skipped: not in that "
			 "backend (each says why)", rp->backend, skipped, rp->cl.n);
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
	for (int i = 0; rp->skip && i < rp->cl.n; i++)
		free(rp->skip[i]);
	free(rp->skip);
	pcb_claims_free(&rp->cl);
	pcb_topo_destroy(&rp->topo);
}

int cmd_reproduce(int argc, char **argv, const struct cli_ctx *ctx)
{
	const char *out = "results", *file = NULL;
	struct pcb_kmod kmod = { .loaded = 0 };
	struct repro rp = { 0 };
	char err[2048], path[PATH_MAX];
	int dry = 0, rc;

	parse_args(argc, argv, &rp, &out, &file, &dry);
	if (rp.with && !strstr(rp.backend, "=instrumented"))
		die_usage("reproduce: --with merges the instrumented backend's results: give "
			  "--backend instrumented");
	if (pcb_claims_load(&rp.cl, file ? file : default_claims(&rp, path, sizeof(path)), err,
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
	/* a refusal of the module's, as run's, before anything is written */
	for (int k = 0; k < rp.ns; k++)
		for (int c = 0; c < rp.s[k].g.n; c++)
			session_load_module(&rp.s[k].g.cfg[c], &kmod, "reproduce");
	if (session_prepare_out(out, err, sizeof(err)) < 0) {
		pcb_kmod_unload(&kmod);
		die_usage("%s", err);
	}
	fprintf(stderr, "%s: reproduce: %d claims, %d scenarios, about %.0f s%s\n", prog, rp.cl.n,
		rp.ns, rp.estimate, rp.o.quick ? "" : " (--quick: about a tenth)");
	session_catch_signals();
	rc = run_scenarios(&rp, ctx->command, out);
	pcb_kmod_unload(&kmod);
	measure_realops(&rp);
	merge_with(&rp);
	evaluate_claims(&rp);
	reproduce_print_table(stdout, &rp);
	fflush(stdout);
	if (reproduce_write_table(out, &rp, path, sizeof(path)) < 0) {
		fprintf(stderr, "%s: reproduce: cannot write the table under %s\n", prog, out);
		rc = EXIT_RUNTIME;
	} else {
		fprintf(stderr, "%s: reproduce: table in %s\n", prog, path);
	}
	free_repro(&rp);
	return rc;
}
