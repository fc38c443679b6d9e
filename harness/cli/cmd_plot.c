/* SPDX-License-Identifier: MIT */
/*
 * plot: every figure of every result under results/ (or of the results
 * named), drawn by gnuplot into RESULT/plots/ with an index.html there and
 * one over each directory of results; a per-node run's heat maps from its
 * nodes.csv; compare's CSV as Diff % bars. Every input is read and checked
 * before anything is written; each plots/ is built under a temporary name
 * and renamed into place.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../output/plot/compare.h"
#include "../output/plot/csv.h"
#include "../output/plot/nodes.h"
#include "../output/plot/plot.h"
#include "../output/plot/result.h"
#include "../output/read/load.h"
#include "../output/write/csv.h"
#include "../schema/schema.h"
#include "cli.h"
#include "session.h"

#define MAX_TARGETS 4096
#define MAX_DEPTH 4
/* SIGINT or SIGTERM: the temporary directories removed, the exit status a shell gives */
#define EXIT_INTERRUPTED 130

struct target {
	char dir[PATH_MAX];
	json_t *result;			/* a result directory */
	struct pcb_csv *nodes;		/* a per-node run's directory */
	struct pcb_plot_set *set;
	int root;			/* which collection named it, -1 for none */
};

static struct target targets[MAX_TARGETS];
static int nr_targets;
static char roots[64][PATH_MAX];
static int nr_roots;

static int is_file(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static struct target *new_target(const char *dir, int root)
{
	struct target *t;

	if (nr_targets == MAX_TARGETS)
		die_usage("plot: more than %d results", MAX_TARGETS);
	t = &targets[nr_targets++];
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

static int collect(const char *dir, int depth, int root);

static int collect_under(const char *dir, int depth, int root)
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
			found += collect(sub, depth + 1, root);
		free(ents[i]);
	}
	free(ents);
	return found;
}

/* the directories walked, by (device, inode): a tree is walked once, links and loops or not */
static struct seen_dir {
	dev_t dev;
	ino_t ino;
} *seen;
static size_t nr_seen, cap_seen;

/* whether dir is seen for the first time (and is now marked) */
static int first_visit(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return 1;
	for (size_t i = 0; i < nr_seen; i++)
		if (seen[i].dev == st.st_dev && seen[i].ino == st.st_ino)
			return 0;
	if (nr_seen == cap_seen) {
		struct seen_dir *more = realloc(seen, (cap_seen ? 2 * cap_seen : 64) * sizeof(*seen));

		if (!more)
			die_usage("plot: out of memory");
		seen = more;
		cap_seen = cap_seen ? 2 * cap_seen : 64;
	}
	seen[nr_seen++] = (struct seen_dir){ st.st_dev, st.st_ino };
	return 1;
}

/* the results in or under dir; how many */
static int collect(const char *dir, int depth, int root)
{
	if (!first_visit(dir))
		return 0;
	if (is_file(dir, "result.json")) {
		new_target(dir, root)->result = load_result(dir);
		return 1;
	}
	if (is_file(dir, "nodes.csv")) {
		char path[PATH_MAX + 16], err[4600];
		struct target *t = new_target(dir, root);

		snprintf(path, sizeof(path), "%s/nodes.csv", dir);
		t->nodes = pcb_csv_load(path, pcb_nodes_csv_header(), err, sizeof(err));
		if (t->nodes && pcb_plot_nodes_check(t->nodes, err, sizeof(err)) < 0) {
			pcb_csv_free(t->nodes);
			t->nodes = NULL;
		}
		if (!t->nodes)
			die_usage("%s", err);
		/* each node<N>/ is a result of its own */
		return 1 + collect_under(dir, depth, root);
	}
	return collect_under(dir, depth, root);
}

static void add_argument(const char *arg)
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
		collect(dir, 0, -1);
		return;
	}
	if (nr_roots == 64)
		die_usage("plot: more than 64 directories of results");
	snprintf(roots[nr_roots], PATH_MAX, "%s", dir);
	if (!collect(dir, 0, nr_roots))
		die_usage("%s: no result in it (no result.json or nodes.csv in it or its "
			  "subdirectories)", arg);
	nr_roots++;
}

/* a temporary directory of plot's removed, or the user told what is left */
static void remove_tmp(const char *dir)
{
	if (session_remove_tree(dir) < 0)
		fprintf(stderr, "%s: could not remove %s (remove it by hand)\n", prog, dir);
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
		remove_tmp(tmp);
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
static int write_root_index(int r)
{
	char path[PATH_MAX + 16], tmp[PATH_MAX + 32];
	size_t rl = strlen(roots[r]);
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/index.html", roots[r]);
	/* a name of its own, made with O_EXCL: never a path planted there (mkstemp()) */
	snprintf(tmp, sizeof(tmp), "%s/.index.html-XXXXXX", roots[r]);
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
	pcb_plot_html(f, roots[r]);
	fputs("</h1>\n", f);
	for (int i = 0; i < nr_targets; i++) {
		struct target *t = &targets[i];
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

/* compare's CSV read and checked, or exit 2 naming the file and line */
static struct pcb_csv *load_compare(const char *file)
{
	char err[8192];
	struct pcb_csv *csv = pcb_csv_load(file, pcb_compare_csv_header(), err, sizeof(err));

	if (csv && pcb_plot_compare_check(csv, err, sizeof(err)) < 0) {
		pcb_csv_free(csv);
		csv = NULL;
	}
	if (!csv)
		die_usage("%s", err);
	return csv;
}

/* the figure's directory (out, else FILE's) and name (FILE's less .csv, as a file name) */
static void compare_names(const char *file, const char *out, char *dir, size_t dirlen,
			  char *name, size_t namelen)
{
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	size_t len;

	if (out)
		snprintf(dir, dirlen, "%s", out);
	else
		snprintf(dir, dirlen, "%.*s", base == file ? 1 : (int)(base - file - 1),
			 base == file ? "." : file);
	if (!*dir)
		snprintf(dir, dirlen, "/");
	len = strlen(base);
	if (len > 4 && !strcmp(base + len - 4, ".csv"))
		len -= 4;
	snprintf(name, namelen, "%.*s", (int)(len ? len : 1), len ? base : "compare");
	for (char *c = name; *c; c++)
		if (!(*c == '-' || *c == '_' || (*c >= '0' && *c <= '9') ||
		      ((*c | 0x20) >= 'a' && (*c | 0x20) <= 'z')))
			*c = '_';
}

/* --out made if it is not there (*created says so), or exit 2 when it is no directory */
static void make_out(const char *out, int *created, struct pcb_csv *csv)
{
	struct stat st;

	*created = !mkdir(out, 0777);
	if (!*created && errno != EEXIST) {
		pcb_csv_free(csv);
		die_usage("--out %s: %s", out, strerror(errno));
	}
	if (stat(out, &st) || !S_ISDIR(st.st_mode)) {
		pcb_csv_free(csv);
		die_usage("--out %s: not a directory", out);
	}
}

/* each figure's .svg, .png and .dat from tmp into dir, the images listed on stdout */
static int move_figures(const struct pcb_plot_set *set, const char *tmp, const char *dir)
{
	static const char *const ext[] = { "svg", "png", "dat" };

	for (int i = 0; i < set->n; i++)
		for (int k = 0; k < 3; k++) {
			char from[PATH_MAX + 200], to[PATH_MAX + 200];

			snprintf(from, sizeof(from), "%s/%s.%s", tmp, set->plot[i].name, ext[k]);
			snprintf(to, sizeof(to), "%s/%s.%s", dir, set->plot[i].name, ext[k]);
			if (rename(from, to)) {
				fprintf(stderr, "%s: %s: %s\n", prog, to, strerror(errno));
				return EXIT_RUNTIME;
			}
			if (k < 2)
				printf("%s\n", to);
		}
	return 0;
}

/* the figure drawn in a temporary directory beside dir, then moved into dir */
static int draw_compare(struct pcb_plot_env *env, struct pcb_csv *csv, const char *file,
			const char *dir, const char *name)
{
	char tmp[PATH_MAX + 32], err[8192];
	struct pcb_plot_set *set = calloc(1, sizeof(*set));
	int rc = 0;

	snprintf(tmp, sizeof(tmp), "%s/.plots-XXXXXX", dir);
	if (!set || !mkdtemp(tmp)) {
		fprintf(stderr, "%s: %s: %s\n", prog, tmp, strerror(errno));
		free(set);
		return -1;
	}
	env->interrupted = session_interrupted;
	if (pcb_plot_compare_data(csv, name, tmp, set, err, sizeof(err)) < 0 ||
	    pcb_plot_render(env, set, tmp, file, err, sizeof(err)) < 0 || session_interrupted()) {
		if (!session_interrupted())
			fprintf(stderr, "%s: %s\n", prog, err);
		rc = session_interrupted() ? EXIT_INTERRUPTED : EXIT_RUNTIME;
	}
	if (!rc)
		rc = move_figures(set, tmp, dir);
	remove_tmp(tmp);
	free(set);
	return rc;
}

/* compare's CSV: DIR/NAME.svg, .png and .dat for FILE NAME.csv */
static int plot_compare(const char *file, const char *out)
{
	char dir[PATH_MAX], name[128], err[8192];
	struct pcb_csv *csv = load_compare(file);
	struct pcb_plot_env env;
	int rc, created = 0;

	compare_names(file, out, dir, sizeof(dir), name, sizeof(name));
	if (pcb_plot_env_find(&env, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		pcb_csv_free(csv);
		return EXIT_RUNTIME;
	}
	if (out)
		make_out(out, &created, csv);
	rc = draw_compare(&env, csv, file, dir, name);
	if (rc < 0) {
		/* no temporary directory: nothing was drawn, and --out goes if plot made it */
		if (created)
			rmdir(out);
		pcb_csv_free(csv);
		return EXIT_RUNTIME;
	}
	/* a failure leaves no --out directory that plot made */
	if (rc && created && session_remove_tree(out) < 0)
		fprintf(stderr, "%s: could not remove %s, made for the figure\n", prog, out);
	if (rc == EXIT_INTERRUPTED)
		fprintf(stderr, "%s: plot interrupted: nothing written\n", prog);
	pcb_csv_free(csv);
	return rc;
}

int cmd_plot(int argc, char **argv, const struct cli_ctx *ctx)
{
	const char *compare = NULL, *out = NULL;
	struct pcb_plot_env env;
	int named = 0, failed = 0, no_env = 0;
	char err[8192];

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
	/* every argument is read and checked before anything is written */
	for (int i = 1; i <= named; i++)
		add_argument(argv[i]);
	if (!named) {
		struct stat st;

		if (stat("results", &st) || !S_ISDIR(st.st_mode))
			die_usage("plot: no results/ here (run from the checkout's top, or name "
				  "RESULT directories)");
		add_argument("results");
	}
	if (pcb_plot_env_find(&env, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		failed = no_env = 1;
	}
	/* Ctrl-C: the result being drawn keeps its old plots/, the temporary one goes */
	session_catch_signals();
	env.interrupted = session_interrupted;
	/* a result gnuplot fails on keeps its old plots/; the others are drawn */
	for (int i = 0; !no_env && i < nr_targets && !session_interrupted(); i++)
		failed |= plot_target(&env, &targets[i]) < 0;
	for (int r = 0; !failed && r < nr_roots && !session_interrupted(); r++)
		failed |= write_root_index(r) < 0;
	for (int i = 0; i < nr_targets; i++) {
		json_decref(targets[i].result);
		pcb_csv_free(targets[i].nodes);
		free(targets[i].set);
	}
	if (session_interrupted()) {
		fprintf(stderr, "%s: plot interrupted: the results drawn so far have their new "
			"plots/, the others their old one\n", prog);
		return EXIT_INTERRUPTED;
	}
	return failed ? EXIT_RUNTIME : 0;
}
