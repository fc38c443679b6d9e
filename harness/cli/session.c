/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../machine/aslr.h"
#include "../machine/state.h"
#include "../output/result.h"
#include "../output/write/json.h"
#include "../output/write/json_context.h"
#include "../run/runner.h"
#include "../schema/schema.h"
#include "cli.h"
#include "session.h"

/* SIGINT and SIGTERM caught by handler, each blocked while the other's runs */
static void catch_stops(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* the second: the process ends, as the signal would have ended it */
static void on_second_stop(int sig)
{
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * The first ends the run in progress. The handler it leaves in place is
 * the record that a stop was asked for: session_interrupted() reads it.
 */
static void on_first_stop(int sig)
{
	pcb_run_stop();
	catch_stops(on_second_stop);
}

void session_catch_signals(void)
{
	catch_stops(on_first_stop);
}

int session_interrupted(void)
{
	struct sigaction sa;

	return sigaction(SIGINT, NULL, &sa) == 0 && sa.sa_handler == on_second_stop;
}

int session_remove_tree(const char *dir)
{
	char *const paths[] = { (char *)dir, NULL };
	FTS *fts = fts_open(paths, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	FTSENT *e;
	int failed = 0;

	if (!fts)
		return -1;
	for (;;) {
		errno = 0;
		e = fts_read(fts);
		if (!e)
			break;
		/* a directory goes after what is in it (FTS_DP) */
		if (e->fts_info == FTS_D)
			continue;
		/* FTS_DNR: a directory that cannot be read keeps what is in it */
		if (e->fts_info == FTS_DNR || (remove(e->fts_accpath) && errno != ENOENT))
			failed = 1;
	}
	/* the walk itself failed */
	failed |= errno != 0;
	fts_close(fts);
	return failed ? -1 : 0;
}

/*
 * A result's temporary directory whose process is gone: .NAME-TS.tmp.PID,
 * a directory of this user with pcpbench's mark inside; nothing else
 */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *tmp = strstr(e->d_name, ".tmp.");
		char path[PATH_MAX];
		long pid;
		char *end;

		if (e->d_name[0] != '.' || !tmp)
			continue;
		pid = strtol(tmp + 5, &end, 10);
		if (*end || pid <= 0 || (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!pcb_tmpdir_ours(path))
			continue;
		if (session_remove_tree(path) == 0)
			fprintf(stderr, "%s: removed %s, left by a run that died\n", prog, path);
	}
	closedir(d);
}

int session_prepare_out(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s", dir);
	for (char *p = path + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(path, 0777) < 0 && errno != EEXIST) {
				snprintf(err, errlen, "--out %s: cannot create %s: %s", dir, path,
					 strerror(errno));
				return -1;
			}
			*p = '/';
		}
	if (mkdir(path, 0777) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "--out %s: %s", dir, strerror(errno));
		return -1;
	}
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--out %s: not a directory", dir);
		return -1;
	}
	if (access(path, W_OK | X_OK) < 0) {
		snprintf(err, errlen, "--out %s: cannot write there: %s", dir, strerror(errno));
		return -1;
	}
	remove_stale(path);
	return 0;
}

/* where the per-CPU lock files are: PCPBENCH_LOCK_DIR (the tests'), else /tmp */
static const char *lock_dir(void)
{
	const char *d = getenv("PCPBENCH_LOCK_DIR");

	return d && *d ? d : "/tmp";
}

static bool regular(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

void session_lock_cpus(struct session_once *once, hwloc_const_bitmap_t cpus, char *busy,
		       size_t len)
{
	/* CPUs this process holds already: a second flock() would be refused by the first */
	hwloc_bitmap_t held = once->held ? once->held : (once->held = hwloc_bitmap_alloc());
	unsigned int cpu;

	busy[0] = 0;
	hwloc_bitmap_foreach_begin(cpu, cpus) {
		char path[PATH_MAX];
		int fd;

		if (held && hwloc_bitmap_isset(held, cpu))
			continue;
		if (held)
			hwloc_bitmap_set(held, cpu);
		/*
		 * One place for every user, so that any two runs see each other. A
		 * symlink there is not followed and a FIFO not waited on: only a
		 * regular file is locked, and nothing is ever written to it.
		 */
		snprintf(path, sizeof(path), "%s/pcpbench-cpu%u.lock", lock_dir(), cpu);
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
		if (fd < 0 && errno != ELOOP)
			fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 ? errno == ELOOP : !regular(fd)) {
			fprintf(stderr, "%s: %s is not a regular file (a symlink or FIFO put there?): "
				"CPU %u is not locked against another pcpbench\n", prog, path, cpu);
			if (fd >= 0)
				close(fd);
			continue;
		}
		/* held until the process ends; a CPU another pcpbench holds is named */
		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
			snprintf(busy + strlen(busy), len - strlen(busy), "%s%u", busy[0] ? "," : "",
				 cpu);
			close(fd);
		}
	} hwloc_bitmap_foreach_end();
}

void session_once_free(struct session_once *once)
{
	/* the lock files stay open: their locks are held until the process ends */
	hwloc_bitmap_free(once->held);
	once->held = NULL;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_line(struct progress *p, const struct pcb_design *d, int run, int runs,
			  int done, int total)
{
	double el = now_s() - p->start;

	if (!p->tty)
		return;
	fprintf(stderr, "\r\033[K[%s] ", p->scenario);
	if (p->node >= 0)
		fprintf(stderr, "node %d (%d/%d) ", p->node, p->node_i + 1, p->nr_nodes);
	fprintf(stderr, "%s%s%s run %d/%d (%d of %d)  elapsed %.0fs, about %.0fs left",
		d->name, *p->config ? " " : "", p->config, run + 1, runs, done + 1,
		total, el, fmax(0, p->estimate - el));
	fflush(stderr);
}


/* one design of one configuration, and the runs it has */
struct slot {
	struct pcb_scenario *sc;
	const struct pcb_design *d;
};

/*
 * The order of a scenario's runs, as (slot, run) pairs: every run of a design
 * before the next (blocked), each round of runs over every design and
 * configuration in turn (interleaved), or each round in an order drawn from
 * the scenario's seed (shuffled). Interleaved and shuffled orders spread a
 * drifting host over every design alike.
 */
static int make_order(const struct slot *slots, int n, int mode, unsigned long seed, int *order)
{
	int max_runs = 0, k = 0;
	uint64_t rng = (seed + 1) * 0x9E3779B97F4A7C15ULL;

	for (int i = 0; i < n; i++)
		max_runs = slots[i].sc->runs > max_runs ? slots[i].sc->runs : max_runs;
	if (mode == PCB_ORDER_BLOCKED) {
		for (int i = 0; i < n; i++)
			for (int r = 0; r < slots[i].sc->runs; r++) {
				order[k++] = i;
				order[k++] = r;
			}
		return k / 2;
	}
	for (int r = 0; r < max_runs; r++) {
		int perm[n];

		for (int i = 0; i < n; i++)
			perm[i] = i;
		for (int i = n - 1; mode == PCB_ORDER_SHUFFLED && i > 0; i--) {
			int j = (int)((pcb_rng_next(&rng) >> 33) % (uint64_t)(i + 1)), t;

			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		for (int i = 0; i < n; i++)
			if (r < slots[perm[i]].sc->runs) {
				order[k++] = perm[i];
				order[k++] = r;
			}
	}
	return k / 2;
}

/* one scenario's runs as run_scenario() makes them, and what they leave */
struct scn_run {
	const struct session *ss;
	struct pcb_scenario *cfg;
	int ncfg;
	struct progress *pg;
	struct pcb_design_result *res;	/* one a slot */
	struct slot *slots;
	int *order;			/* (slot, run) pairs */
	int total, nruns;		/* slots, runs */
	int interrupted;		/* the run a stop came before, -1 if none */
	char busy[512];			/* CPUs another pcpbench holds */
	json_t *context, *runs;		/* the result's context and run order */
};

/* room for every design's result and slot, and the order of their runs; -1 if none */
static int alloc_run(struct scn_run *r)
{
	int total = 0, nruns = 0;

	for (int c = 0; c < r->ncfg; c++) {
		total += r->cfg[c].nr_designs;
		nruns += r->cfg[c].nr_designs * r->cfg[c].runs;
	}
	r->res = calloc((size_t)total, sizeof(*r->res));
	r->slots = calloc((size_t)total, sizeof(*r->slots));
	r->order = calloc((size_t)nruns * 2, sizeof(*r->order));
	if (!r->res || !r->slots || !r->order) {
		fprintf(stderr, "%s: out of memory\n", r->cfg[0].name);
		free(r->res);
		free(r->slots);
		free(r->order);
		return -1;
	}
	return 0;
}

/* a slot for each design of each configuration, its result made ready; 0 or EXIT_RUNTIME */
static int init_slots(struct scn_run *r)
{
	int rc = 0;

	r->total = 0;
	for (int c = 0; c < r->ncfg; c++) {
		struct pcb_scenario *sc = &r->cfg[c];

		for (int d = 0; d < sc->nr_designs; d++) {
			r->slots[r->total].sc = sc;
			r->slots[r->total].d = sc->design[d];
			if (pcb_design_result_init(&r->res[r->total], sc, sc->design[d],
						   r->ss->clk) < 0)
				rc = EXIT_RUNTIME;
			r->total++;
		}
	}
	return rc;
}

/* every configuration's workers locked against another pcpbench, which a note names */
static void lock_workers(struct scn_run *r)
{
	for (int c = 0; c < r->ncfg; c++)
		session_lock_cpus(r->ss->once, r->cfg[c].workers, r->busy, sizeof(r->busy));
	if (r->busy[0])
		fprintf(stderr, "%s: note: another pcpbench holds CPU %s: its work disturbs these "
			"figures\n", r->cfg[0].name, r->busy);
}

/* each bad setting once a session, however many scenarios it runs */
static void warn_state(struct session_once *once, const struct pcb_state *st)
{
	char cpus[512];

	for (int i = 0; i < st->nr; i++) {
		const struct pcb_state_item *it = &st->item[i];
		int seen = 0;

		if (it->verdict != PCB_STATE_BAD)
			continue;
		for (int w = 0; w < once->nr_warned && !seen; w++)
			seen = !strcmp(once->warned[w], it->setting);
		if (seen)
			continue;
		if (once->nr_warned < SESSION_WARNED)
			snprintf(once->warned[once->nr_warned++], sizeof(once->warned[0]), "%s",
				 it->setting);
		cpus[0] = 0;
		if (it->cpus) {
			snprintf(cpus, sizeof(cpus), " on CPU ");
			pcb_cpuset_format(it->cpus, cpus + 8, sizeof(cpus) - 8);
		}
		fprintf(stderr, "%s: warning: %s%s: %s (%s): figures taken so are untrustworthy "
			"(pcpbench check says why)\n", prog, it->setting, cpus, it->value, it->note);
	}
}

/*
 * The machine's state for every configuration's workers into the
 * context (as check reads it), and this process's ASLR
 */
static void record_state(struct scn_run *r)
{
	hwloc_bitmap_t workers = hwloc_bitmap_alloc();
	struct pcb_state_opts o = {
		.workers = workers, .tsc_step = r->ss->clk->step, .sample_ms = 100,
		.aslr = pcb_aslr_status(),
	};
	struct pcb_state st;
	char err[PATH_MAX + 64];

	rj_set_ctx_aslr(r->context, *o.aslr ? o.aslr : "not re-executed");
	if (!workers)
		return;
	for (int c = 0; c < r->ncfg; c++)
		hwloc_bitmap_or(workers, workers, r->cfg[c].workers);
	if (pcb_state_read(&st, &o, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: note: %s: the result records no machine state\n",
			r->cfg[0].name, err);
	} else {
		rj_set_ctx_machine_root(r->context, st.root);
		rj_set_ctx_machine_state(r->context, pcb_state_json(&st));
		warn_state(r->ss->once, &st);
		pcb_state_free(&st);
	}
	hwloc_bitmap_free(workers);
}

/* run number run of slot i, the k-th of the scenario's; 0 or EXIT_RUNTIME */
static int run_one(struct scn_run *r, int i, int run, int k)
{
	struct progress *pg = r->pg;
	struct slot *sl = &r->slots[i];
	char err[1024];
	int rc = 0;

	pg->config = sl->sc->label;
	progress_line(pg, sl->d, run, pcb_runs_room(sl->sc), k, r->nruns);
	if (pcb_run_design(r->ss->topo, r->ss->clk, &r->res[i], run, err, sizeof(err)) < 0) {
		if (pg->tty)
			fprintf(stderr, "\n");
		fprintf(stderr, "%s: %s: %s\n", pg->scenario, r->res[i].label, err);
		rc = EXIT_RUNTIME;
	}
	json_array_append_new(r->runs, json_pack("{s:s,s:i}", "design", r->res[i].label,
						 "run", run + 1));
	return rc;
}

/* the runs in their order, until one fails or a stop is asked for; 0 or EXIT_RUNTIME */
static int run_in_order(struct scn_run *r)
{
	int rc = 0;

	for (int k = 0; k < r->nruns && rc == 0; k++) {
		if (session_interrupted()) {
			r->interrupted = k;
			break;
		}
		rc = run_one(r, r->order[2 * k], r->order[2 * k + 1], k);
	}
	return rc;
}

/* run.runs = auto: what the stopping rule says of a result after the runs it has */
static enum pcb_runs_verdict auto_verdict(const struct pcb_design_result *res)
{
	const struct pcb_scenario *sc = res->sc;
	struct pcb_runs_rule rule = {
		.min_runs = sc->runs, .max_runs = pcb_runs_room(sc), .ci_target = sc->ci_target,
	};
	const double *rows[PCB_MAX_FN + 1];
	int n = 0;

	/* every row the tables print with a STDDEV: the functions that ran, the drains */
	for (int f = 0; f < sc->model->nr_fn; f++)
		if (res->fn[f].total.calls)
			rows[n++] = res->fn[f].run_mean;
	if (res->drain.active)
		rows[n++] = res->drain.run_mean;
	return pcb_runs_verdict(&rule, rows, n, res->runs_done);
}

/*
 * run.runs = auto, after the planned runs: rounds of one more run of each
 * design and configuration the rule wants more of, in slot order, until
 * it wants none; 0 or EXIT_RUNTIME
 */
static int run_more(struct scn_run *r)
{
	int rc = 0, more = 1, any = 0;

	while (more && rc == 0 && r->interrupted < 0) {
		more = 0;
		for (int i = 0; i < r->total && rc == 0 && r->interrupted < 0; i++) {
			struct pcb_design_result *res = &r->res[i];
			enum pcb_runs_verdict v;

			if (!res->sc->runs_auto || res->runs_done < res->runs)
				continue;
			any = 1;
			/* a run a stop cut short: what finished is kept, as in run_in_order() */
			if (session_interrupted()) {
				r->interrupted = r->nruns;
				break;
			}
			v = auto_verdict(res);
			res->runs_met = v == PCB_RUNS_MET;
			if (v != PCB_RUNS_MORE || pcb_design_result_more(res) < 0)
				continue;
			rc = run_one(r, i, res->runs - 1, r->nruns++);
			more = 1;
		}
	}
	if (any && rc == 0 && r->interrupted < 0 && session_interrupted())
		r->interrupted = r->nruns;
	return rc;
}

/* after a stop: what finished, designs with runs, each with the runs it has */
static void keep_finished(struct scn_run *r)
{
	int kept = 0, finished = 0;

	for (int d = 0; d < r->total; d++) {
		/* the runs that finished: a run a stop cut short is not one of them */
		finished += r->res[d].runs_done;
		if (!r->res[d].runs_done) {
			pcb_design_result_free(&r->res[d]);
			continue;
		}
		r->res[d].runs = r->res[d].runs_done;
		r->res[kept++] = r->res[d];
	}
	if (finished)
		fprintf(stderr, "%s: interrupted after %d of %d runs: the result has what "
			"finished and says complete: false\n", r->cfg[0].name, finished, r->nruns);
	else
		fprintf(stderr, "%s: interrupted before a run finished: no result written\n",
			r->cfg[0].name);
	r->total = kept;
}

/* a note a bad setting of the machine's state, as the run warned */
static void state_notes(json_t *notes, json_t *context)
{
	json_t *it;
	size_t i;

	json_array_foreach(rj_ctx_machine_state(context), i, it) {
		char note[1024];

		if (strcmp(rj_mst_verdict(it), "bad"))
			continue;
		snprintf(note, sizeof(note), "machine state: %s%s%s: %s (%s): figures taken so "
			 "are untrustworthy (see pcpbench check)", rj_mst_setting(it),
			 rj_mst_has_cpus(it) ? " on CPU " : "",
			 rj_mst_has_cpus(it) ? rj_mst_cpus(it) : "", rj_mst_value(it),
			 rj_mst_has_note(it) ? rj_mst_note(it) : "");
		json_array_append_new(notes, json_string(note));
	}
}

/* the result's JSON: the designs' figures, whether it is complete, its notes, its run order */
static json_t *build_result(struct scn_run *r)
{
	struct pcb_scenario *first = &r->cfg[0];
	json_t *result;

	json_object_set_new(r->context, "complete", json_boolean(r->interrupted < 0));
	result = pcb_result_build(r->context, first, r->res, r->total);
	if (r->busy[0]) {
		char note[600];

		snprintf(note, sizeof(note), "another pcpbench held CPU %s when this run "
			 "started: its work disturbs these figures", r->busy);
		json_array_append_new(json_object_get(result, "notes"), json_string(note));
	}
	state_notes(json_object_get(result, "notes"), r->context);
	json_object_set_new(result, "run_order", json_pack("{s:s,s:I,s:o}",
		"mode", pcb_order_name[first->order], "seed", (json_int_t)first->seed,
		"runs", r->runs));
	r->runs = NULL;
	if (r->pg->node >= 0)
		json_object_set_new(result, "node", json_integer(r->pg->node));
	return result;
}

/* the result's tables on stdout, unless the session keeps them in the result; -1 if not */
static int print_tables(const struct scn_run *r, json_t *result)
{
	const struct pcb_table_opts *tables = r->ss->tables;
	char err[1024];
	int rc = 0;

	if (tables && pcb_tables_print_opts(stdout, result, tables, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", r->pg->scenario, err);
		rc = -1;
	}
	fflush(stdout);
	return rc;
}

/* the result under the session's directory, or where pg says; -1 if it cannot be */
static int write_result(const struct scn_run *r, json_t *result)
{
	struct progress *pg = r->pg;
	char path[PATH_MAX], err[1024];

	if (pg->result_at)
		snprintf(path, sizeof(path), "%s", pg->result_at);
	if ((pg->result_at ? pcb_result_write_at(result, pg->result_at, err, sizeof(err)) :
	     pcb_result_write(result, r->ss->out, path, sizeof(path), err, sizeof(err))) < 0) {
		fprintf(stderr, "%s: %s\n", pg->scenario, err);
		return -1;
	}
	fprintf(stderr, "%s: result in %s\n", r->cfg[0].name,
		pg->result_name ? pg->result_name : path);
	snprintf(pg->result, sizeof(pg->result), "%s", path);
	return 0;
}

/* the result of what ran, printed and written: rc, else EXIT_RUNTIME if that or a check failed */
static int finish_result(struct scn_run *r, int rc)
{
	struct pcb_scenario *first = &r->cfg[0];
	int broken = 0;
	json_t *result;

	for (int d = 0; d < r->total; d++)
		broken |= r->res[d].check_failed;
	result = build_result(r);
	if (print_tables(r, result) < 0)
		rc = EXIT_RUNTIME;
	if (write_result(r, result) < 0)
		rc = EXIT_RUNTIME;
	if (broken) {
		fprintf(stderr, "%s: the %s was broken (see the notes)\n", first->name,
			first->model->invariant_name);
		rc = EXIT_RUNTIME;
	}
	json_decref(result);
	return rc;
}

/* what run_scenario() holds, freed */
static void free_run(struct scn_run *r)
{
	json_decref(r->runs);
	for (int d = 0; d < r->total; d++)
		pcb_design_result_free(&r->res[d]);
	free(r->res);
	free(r->slots);
	free(r->order);
	json_decref(r->context);
}

int run_scenario(const struct session *ss, struct pcb_scenario *cfg, int ncfg,
		 struct progress *pg)
{
	struct scn_run r = { .ss = ss, .cfg = cfg, .ncfg = ncfg, .pg = pg, .interrupted = -1 };
	char started[32];
	int rc;

	if (alloc_run(&r) < 0)
		return EXIT_RUNTIME;
	rc = init_slots(&r);
	r.nruns = make_order(r.slots, r.total, cfg[0].order, (unsigned long)cfg[0].seed, r.order);
	lock_workers(&r);
	pcb_utc_timestamp(started, sizeof(started), 0);
	r.context = pcb_result_context(ss->topo, ss->clk, ss->command, started);
	record_state(&r);
	r.runs = json_array();
	pg->scenario = cfg[0].name;
	pg->result[0] = 0;
	if (rc == 0)
		rc = run_in_order(&r);
	if (rc == 0 && r.interrupted < 0)
		rc = run_more(&r);
	if (pg->tty)
		fprintf(stderr, "\r\033[K");
	if (rc == 0 && r.interrupted >= 0) {
		keep_finished(&r);
		rc = EXIT_RUNTIME;
	}
	if (r.total > 0 && (rc == 0 || r.interrupted >= 0))
		rc = finish_result(&r, rc);
	free_run(&r);
	return rc;
}
