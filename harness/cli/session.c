/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
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

#include "../run/runner.h"
#include "cli.h"
#include "session.h"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	/* the second one ends the process at once, as the signal would have */
	if (stop_requested++) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

void session_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int session_interrupted(void)
{
	return stop_requested != 0;
}

static int remove_failed;

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	/* FTW_DNR: a directory that cannot be read keeps what is in it */
	if (flag == FTW_DNR || remove(path))
		remove_failed = 1;
	return 0;
}

int session_remove_tree(const char *dir)
{
	remove_failed = 0;
	if (nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT)
		return -1;
	return remove_failed ? -1 : 0;
}

/* a result's temporary directory whose process is gone: .NAME-TS.tmp.PID */
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

void session_lock_cpus(hwloc_const_bitmap_t cpus, char *busy, size_t len)
{
	/* CPUs this process holds already: a second flock() would be refused by the first */
	static hwloc_bitmap_t held;
	unsigned int cpu;

	if (!held)
		held = hwloc_bitmap_alloc();
	busy[0] = 0;
	hwloc_bitmap_foreach_begin(cpu, cpus) {
		char path[PATH_MAX];
		int fd;

		if (held && hwloc_bitmap_isset(held, cpu))
			continue;
		if (held)
			hwloc_bitmap_set(held, cpu);
		/* one place for every user, so that any two runs see each other */
		snprintf(path, sizeof(path), "/tmp/pcpbench-cpu%u.lock", cpu);
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
		if (fd < 0)
			fd = open(path, O_RDONLY | O_CLOEXEC);
		/* held until the process ends; a CPU another pcpbench holds is named */
		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
			snprintf(busy + strlen(busy), len - strlen(busy), "%s%u", busy[0] ? "," : "",
				 cpu);
			close(fd);
		}
	} hwloc_bitmap_foreach_end();
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

int run_scenario(const struct session *ss, struct pcb_scenario *cfg, int ncfg,
		 struct progress *pg)
{
	struct pcb_scenario *first = &cfg[0];
	int total = 0, nruns = 0, broken = 0, rc = 0, interrupted = -1, *order;
	char busy[512];
	struct pcb_design_result *res;
	struct slot *slots;
	char started[32], path[PATH_MAX], err[1024];
	json_t *context, *result, *oj;

	for (int c = 0; c < ncfg; c++) {
		total += cfg[c].nr_designs;
		nruns += cfg[c].nr_designs * cfg[c].runs;
	}
	res = calloc((size_t)total, sizeof(*res));
	slots = calloc((size_t)total, sizeof(*slots));
	order = calloc((size_t)nruns * 2, sizeof(*order));
	if (!res || !slots || !order) {
		fprintf(stderr, "%s: out of memory\n", first->name);
		free(res);
		free(slots);
		free(order);
		return EXIT_RUNTIME;
	}
	total = 0;
	for (int c = 0; c < ncfg; c++)
		for (int d = 0; d < cfg[c].nr_designs; d++) {
			slots[total].sc = &cfg[c];
			slots[total].d = cfg[c].design[d];
			if (pcb_design_result_init(&res[total], &cfg[c], cfg[c].design[d], ss->clk) < 0)
				rc = EXIT_RUNTIME;
			total++;
		}
	nruns = make_order(slots, total, first->order, (unsigned long)first->seed, order);
	for (int c = 0; c < ncfg; c++)
		session_lock_cpus(cfg[c].workers, busy, sizeof(busy));
	if (busy[0])
		fprintf(stderr, "%s: note: another pcpbench holds CPU %s: its work disturbs these "
			"figures\n", first->name, busy);
	pcb_utc_timestamp(started, sizeof(started), 0);
	context = pcb_result_context(ss->topo, ss->clk, ss->command, started);
	oj = json_array();
	pg->scenario = first->name;
	pg->result[0] = 0;
	for (int k = 0; k < nruns && rc == 0; k++) {
		struct slot *sl = &slots[order[2 * k]];
		int run = order[2 * k + 1];

		if (session_interrupted()) {
			interrupted = k;
			break;
		}
		pg->config = sl->sc->label;
		progress_line(pg, sl->d, run, sl->sc->runs, k, nruns);
		if (pcb_run_design(ss->topo, ss->clk, &res[order[2 * k]], run, err, sizeof(err)) < 0) {
			if (pg->tty)
				fprintf(stderr, "\n");
			fprintf(stderr, "%s: %s: %s\n", pg->scenario, res[order[2 * k]].label, err);
			rc = EXIT_RUNTIME;
		}
		json_array_append_new(oj, json_pack("{s:s,s:i}", "design", res[order[2 * k]].label,
						    "run", run + 1));
	}
	if (pg->tty)
		fprintf(stderr, "\r\033[K");
	if (rc == 0 && interrupted >= 0) {
		/* what finished: designs with runs, each with the runs it has */
		int kept = 0;

		for (int d = 0; d < total; d++) {
			if (!res[d].runs_done) {
				pcb_design_result_free(&res[d]);
				continue;
			}
			res[d].runs = res[d].runs_done;
			res[kept++] = res[d];
		}
		fprintf(stderr, "%s: interrupted after %d of %d runs: the result has what finished "
			"and says complete: false\n", first->name, interrupted, nruns);
		total = kept;
		rc = EXIT_RUNTIME;
	}
	if (total > 0 && (rc == 0 || interrupted >= 0)) {
		for (int d = 0; d < total; d++)
			broken |= res[d].check_failed;
		json_object_set_new(context, "complete", json_boolean(interrupted < 0));
		result = pcb_result_build(context, first, res, total);
		if (busy[0]) {
			char note[600];

			snprintf(note, sizeof(note), "another pcpbench held CPU %s when this run "
				 "started: its work disturbs these figures", busy);
			json_array_append_new(json_object_get(result, "notes"), json_string(note));
		}
		json_object_set_new(result, "run_order", json_pack("{s:s,s:I,s:o}",
			"mode", pcb_order_name[first->order], "seed", (json_int_t)first->seed,
			"runs", oj));
		oj = NULL;
		if (pg->node >= 0)
			json_object_set_new(result, "node", json_integer(pg->node));
		if (ss->tables &&
		    pcb_tables_print_opts(stdout, result, ss->tables, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", pg->scenario, err);
			rc = EXIT_RUNTIME;
		}
		fflush(stdout);
		if (pg->result_at)
			snprintf(path, sizeof(path), "%s", pg->result_at);
		if ((pg->result_at ? pcb_result_write_at(result, pg->result_at, err, sizeof(err)) :
		     pcb_result_write(result, ss->out, path, sizeof(path), err, sizeof(err))) < 0) {
			fprintf(stderr, "%s: %s\n", pg->scenario, err);
			rc = EXIT_RUNTIME;
		} else {
			fprintf(stderr, "%s: result in %s\n", first->name,
				pg->result_name ? pg->result_name : path);
			snprintf(pg->result, sizeof(pg->result), "%s", path);
		}
		if (broken) {
			fprintf(stderr, "%s: the %s was broken (see the notes)\n", first->name,
				first->model->invariant_name);
			rc = EXIT_RUNTIME;
		}
		json_decref(result);
	}
	json_decref(oj);
	for (int d = 0; d < total; d++)
		pcb_design_result_free(&res[d]);
	free(res);
	free(slots);
	free(order);
	json_decref(context);
	return rc;
}

