/* SPDX-License-Identifier: MIT */
/*
 * plot: every figure of every result under results/ (or of the results
 * named), drawn by gnuplot into RESULT/plots/ with an index.html there and
 * one over each directory of results; a per-node run's heat maps from its
 * nodes.csv (compare's CSV is plot_compare.c's). Every input is read and
 * checked before anything is written; each plots/ is built under a
 * temporary name and renamed into place.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../output/plot/csv.h"
#include "../output/plot/nodes.h"
#include "../output/plot/plot.h"
#include "../output/plot/result.h"
#include "../output/read/load.h"
#include "../output/write/csv.h"
#include "../schema/schema.h"
#include "cli.h"
#include "../session/session.h"

#define MAX_TARGETS 4096
#define MAX_ROOTS 64
#define MAX_DEPTH 4

struct target {
	char dir[PATH_MAX];
	json_t *result;			/* a result directory */
	struct pcb_csv *nodes;		/* a per-node run's directory */
	struct pcb_plot_set *set;
	int root;			/* which collection named it, -1 for none */
};

/* a directory walked, by (device, inode): a tree is walked once, links and loops or not */
struct seen_dir {
	dev_t dev;
	ino_t ino;
};

/* what plot holds from its arguments to the indexes */
struct plot_job {
	struct target *targets;
	int nr_targets, room;
	char *roots[MAX_ROOTS];		/* the directories of results named */
	int nr_roots;
	struct seen_dir *seen;
	size_t nr_seen, cap_seen;
};

static int is_file(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static struct target *new_target(struct plot_job *job, const char *dir, int root)
{
	struct target *t;

	if (job->nr_targets == MAX_TARGETS)
		die_usage("plot: more than %d results", MAX_TARGETS);
	if (job->nr_targets == job->room) {
		int room = job->room ? 2 * job->room : 16;

		t = realloc(job->targets, (size_t)room * sizeof(*t));
		if (!t)
			die_usage("plot: out of memory");
		job->targets = t;
		job->room = room;
	}
	t = &job->targets[job->nr_targets++];
	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	t->root = root;
	return t;
}

/* result.json loaded and checked as report checks it; exit 2 naming the file */
static json_t *load_result(const char *dir)
{
	char path[PATH_MAX + 16], err[PATH_MAX + 512];
	json_t *r;

	if (pcb_result_load(dir, &r, path, sizeof(path), err, sizeof(err)) < 0)
		die_usage("%s", err);
	return r;
}

static int collect(struct plot_job *job, const char *dir, int depth, int root);

static int collect_under(struct plot_job *job, const char *dir, int depth, int root)
{
	struct dirent **ents;
	int n, found = 0;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		die_usage("%s: %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		char sub[PATH_MAX];
		struct stat st;

		snprintf(sub, sizeof(sub), "%s/%s", dir, ents[i]->d_name);
		if (ents[i]->d_name[0] != '.' && strcmp(ents[i]->d_name, "plots") &&
		    !stat(sub, &st) && S_ISDIR(st.st_mode) && depth < MAX_DEPTH)
			found += collect(job, sub, depth + 1, root);
		free(ents[i]);
	}
	free(ents);
	return found;
}

/* whether dir is seen for the first time (and is now marked) */
static int first_visit(struct plot_job *job, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return 1;
	for (size_t i = 0; i < job->nr_seen; i++)
		if (job->seen[i].dev == st.st_dev && job->seen[i].ino == st.st_ino)
			return 0;
	if (job->nr_seen == job->cap_seen) {
		size_t cap = job->cap_seen ? 2 * job->cap_seen : 64;
		struct seen_dir *more = realloc(job->seen, cap * sizeof(*more));

		if (!more)
			die_usage("plot: out of memory");
		job->seen = more;
		job->cap_seen = cap;
	}
	job->seen[job->nr_seen++] = (struct seen_dir){ st.st_dev, st.st_ino };
	return 1;
}

/* the results in or under dir; how many */
static int collect(struct plot_job *job, const char *dir, int depth, int root)
{
	if (!first_visit(job, dir))
		return 0;
	if (is_file(dir, "result.json")) {
		new_target(job, dir, root)->result = load_result(dir);
		return 1;
	}
	if (is_file(dir, "nodes.csv")) {
		char path[PATH_MAX + 16], err[4600];
		struct target *t = new_target(job, dir, root);

		snprintf(path, sizeof(path), "%s/nodes.csv", dir);
		t->nodes = pcb_csv_load(path, pcb_nodes_csv_header(), err, sizeof(err));
		if (t->nodes && pcb_plot_nodes_check(t->nodes, err, sizeof(err)) < 0) {
			pcb_csv_free(t->nodes);
			t->nodes = NULL;
		}
		if (!t->nodes)
			die_usage("%s", err);
		/* each node<N>/ is a result of its own */
		return 1 + collect_under(job, dir, depth, root);
	}
	return collect_under(job, dir, depth, root);
}

static void add_argument(struct plot_job *job, const char *arg)
{
	const char *slash = strrchr(arg, '/');
	char dir[PATH_MAX];
	struct stat st;

	if (stat(arg, &st))
		die_usage("%s: %s", arg, strerror(errno));
	snprintf(dir, sizeof(dir), "%s", arg);
	if (S_ISREG(st.st_mode)) {
		/* RESULT/result.json names RESULT */
		if (strcmp(slash ? slash + 1 : arg, "result.json"))
			die_usage("%s: not a result directory or result.json", arg);
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - arg) : 1,
			 slash ? arg : ".");
		if (!*dir)
			strcpy(dir, "/");
	} else if (!S_ISDIR(st.st_mode)) {
		die_usage("%s: not a result directory or result.json", arg);
	}
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = 0;
	if (is_file(dir, "result.json") || is_file(dir, "nodes.csv")) {
		collect(job, dir, 0, -1);
		return;
	}
	if (job->nr_roots == MAX_ROOTS)
		die_usage("plot: more than %d directories of results", MAX_ROOTS);
	job->roots[job->nr_roots] = strdup(dir);
	if (!job->roots[job->nr_roots])
		die_usage("plot: out of memory");
	if (!collect(job, dir, 0, job->nr_roots))
		die_usage("%s: no result in it (no result.json or nodes.csv in it or its "
			  "subdirectories)", arg);
	job->nr_roots++;
}

/* tmp (complete) becomes final; what final held goes */
static int swap_in(const char *tmp, const char *final, char *err, size_t errlen)
{
	char old[PATH_MAX + 16];
	struct stat st;

	if (!stat(final, &st)) {
		snprintf(old, sizeof(old), "%s-old", tmp);
		if (rename(final, old)) {
			snprintf(err, errlen, "%s: %s", final, strerror(errno));
			return -1;
		}
		if (rename(tmp, final)) {
			snprintf(err, errlen, "%s: %s", final, strerror(errno));
			rename(old, final);
			return -1;
		}
		/* the new plots/ is in place: what cannot go of the old one is said */
		if (session_remove_tree(old) < 0)
			fprintf(stderr, "%s: %s replaced, but its old files could not all be "
				"removed: %s is left (remove it by hand)\n", prog, final, old);
		return 0;
	}
	if (rename(tmp, final)) {
		snprintf(err, errlen, "%s: %s", final, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * mkdtemp() of tmp (ending XXXXXX), with the mode mkdir() would have given
 * it (0777 less the umask, as result directories have) rather than 0700:
 * it becomes plots/, which a web server or another user must open
 */
static char *make_tmp_dir(char *tmp)
{
	mode_t mask = umask(0);

	umask(mask);
	if (!mkdtemp(tmp))
		return NULL;
	if (chmod(tmp, 0777 & ~mask)) {
		int e = errno;

		rmdir(tmp);
		errno = e;
		return NULL;
	}
	return tmp;
}

static int plot_target(const struct pcb_plot_env *env, struct target *t)
{
	char tmp[PATH_MAX + 32], final[PATH_MAX + 16], err[8192], heading[PATH_MAX + 256];
	int rc;

	t->set = calloc(1, sizeof(*t->set));
	snprintf(tmp, sizeof(tmp), "%s/.plots-XXXXXX", t->dir);
	if (!t->set || !make_tmp_dir(tmp)) {
		fprintf(stderr, "%s: %s: %s\n", prog, tmp, strerror(errno));
		return -1;
	}
	if (t->result) {
		snprintf(heading, sizeof(heading), "%s (%s)", t->dir,
			 rj_sc_name(rj_top_scenario(t->result)));
		rc = pcb_plot_result_data(t->result, tmp, t->set, err, sizeof(err));
	} else {
		snprintf(heading, sizeof(heading), "%s (per node)", t->dir);
		rc = pcb_plot_nodes_data(t->nodes, tmp, t->set, err, sizeof(err));
	}
	snprintf(final, sizeof(final), "%s/plots", t->dir);
	if (rc < 0 || pcb_plot_render(env, t->set, tmp, heading, err, sizeof(err)) < 0 ||
	    session_interrupted() || swap_in(tmp, final, err, sizeof(err)) < 0) {
		/* interrupted, gnuplot may have been too: the old plots/ stays as it was */
		if (!session_interrupted())
			fprintf(stderr, "%s: %s: %s\n", prog, t->dir, err);
		session_remove_tmp(tmp);
		return -1;
	}
	printf("%s/index.html:", final);
	for (int i = 0; i < t->set->n; i++)
		printf(" %s", t->set->plot[i].name);
	printf("\n");
	return 0;
}

/* the process's umask, read without changing it for long */
static mode_t current_umask(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

/* root/index.html: every result under root with its figures */
static int write_root_index(const struct plot_job *job, int r)
{
	const char *root = job->roots[r];
	char path[PATH_MAX + 16], tmp[PATH_MAX + 32];
	size_t rl = strlen(root);
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/index.html", root);
	/* a name of its own, made with O_EXCL: never a path planted there (mkstemp()) */
	snprintf(tmp, sizeof(tmp), "%s/.index.html-XXXXXX", root);
	fd = mkstemp(tmp);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, tmp, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return -1;
	}
	/* mkstemp() makes it 0600; the index is as readable as the plots beside it */
	fchmod(fd, 0644 & ~current_umask());
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pcpbench plots"
	      "</title></head>\n<body>\n<h1>pcpbench plots: ", f);
	pcb_plot_html(f, root);
	fputs("</h1>\n", f);
	for (int i = 0; i < job->nr_targets; i++) {
		const struct target *t = &job->targets[i];
		const char *rel = t->dir + rl + 1;

		if (t->root != r || !t->set)
			continue;
		fputs("<h2><a href=\"", f);
		pcb_plot_html(f, rel);
		fputs("/plots/index.html\">", f);
		pcb_plot_html(f, rel);
		fputs("</a></h2>\n<p>", f);
		for (int k = 0; k < t->set->n; k++) {
			fputs("<a href=\"", f);
			pcb_plot_html(f, rel);
			fprintf(f, "/plots/%s.svg\"><img src=\"", t->set->plot[k].name);
			pcb_plot_html(f, rel);
			fprintf(f, "/plots/%s.svg\" alt=\"%s\" width=\"480\"></a>\n",
				t->set->plot[k].name, t->set->plot[k].name);
		}
		fputs("</p>\n", f);
	}
	fputs("</body></html>\n", f);
	if ((ferror(f) | fclose(f)) || rename(tmp, path)) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	printf("%s\n", path);
	return 0;
}

/* what a plot_job holds, freed */
static void free_job(struct plot_job *job)
{
	for (int i = 0; i < job->nr_targets; i++) {
		json_decref(job->targets[i].result);
		pcb_csv_free(job->targets[i].nodes);
		free(job->targets[i].set);
	}
	free(job->targets);
	for (int r = 0; r < job->nr_roots; r++)
		free(job->roots[r]);
	free(job->seen);
}

/* the figures of every result named (results/ if none), then each directory's index */
static int plot_results(struct plot_job *job, char **names, int named)
{
	struct pcb_plot_env env;
	int failed = 0, no_env = 0;
	char err[8192];

	/* every argument is read and checked before anything is written */
	for (int i = 0; i < named; i++)
		add_argument(job, names[i]);
	if (!named) {
		struct stat st;

		if (stat("results", &st) || !S_ISDIR(st.st_mode))
			die_usage("plot: no results/ here (run from the checkout's top, or name "
				  "RESULT directories)");
		add_argument(job, "results");
	}
	if (pcb_plot_env_find(&env, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		failed = no_env = 1;
	}
	/* Ctrl-C: the result being drawn keeps its old plots/, the temporary one goes */
	session_catch_signals();
	env.interrupted = session_interrupted;
	/* a result gnuplot fails on keeps its old plots/; the others are drawn */
	for (int i = 0; !no_env && i < job->nr_targets && !session_interrupted(); i++)
		failed |= plot_target(&env, &job->targets[i]) < 0;
	for (int r = 0; !failed && r < job->nr_roots && !session_interrupted(); r++)
		failed |= write_root_index(job, r) < 0;
	if (session_interrupted()) {
		fprintf(stderr, "%s: plot interrupted: the results drawn so far have their new "
			"plots/, the others their old one\n", prog);
		return EXIT_INTERRUPTED;
	}
	return failed ? EXIT_RUNTIME : 0;
}

int cmd_plot(int argc, char **argv, const struct cli_ctx *ctx)
{
	const char *compare = NULL, *out = NULL;
	struct plot_job job = { .nr_targets = 0 };
	int named = 0, rc;

	if (asks_help(argc, argv)) {
		plot_help(stdout);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--compare") || !strcmp(argv[i], "--out")) {
			if (i + 1 >= argc)
				die_usage("plot: %s needs a file (see pcpbench plot --help)", argv[i]);
			*(argv[i][2] == 'c' ? &compare : &out) = argv[i + 1];
			i++;
		} else if (argv[i][0] == '-') {
			die_usage("plot: unknown argument '%s' (see pcpbench plot --help)", argv[i]);
		} else {
			argv[++named] = argv[i];
		}
	}
	if (compare) {
		if (named)
			die_usage("plot: --compare takes no RESULT ('%s')", argv[1]);
		session_catch_signals();
		return plot_compare(compare, out);
	}
	if (out)
		die_usage("plot: --out goes with --compare (see pcpbench plot --help)");
	rc = plot_results(&job, argv + 1, named);
	free_job(&job);
	return rc;
}
