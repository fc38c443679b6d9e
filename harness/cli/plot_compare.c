/* SPDX-License-Identifier: MIT */
/*
 * plot --compare: compare's CSV as Diff % bars, a function a group and a
 * bar a design and result, drawn by gnuplot beside the CSV (or in --out)
 * as NAME.svg, NAME.png and NAME.dat. The CSV is read and checked before
 * anything is written; a failure leaves no --out directory plot made.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../output/plot/compare.h"
#include "../output/plot/csv.h"
#include "../output/plot/plot.h"
#include "../output/write/csv.h"
#include "cli.h"
#include "../session/session.h"

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
	session_remove_tmp(tmp);
	free(set);
	return rc;
}

int plot_compare(const char *file, const char *out)
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
