/* SPDX-License-Identifier: MIT */
/*
 * A set of figures: each figure's data file opened and closed, its label
 * and the index's text made safe, then gnuplot run on the data the figures
 * wrote (result.c, nodes.c, compare.c), each figure's script of plots/
 * once for SVG and once for PNG, and an index.html beside the images.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../machine/datadir.h"
#include "../write/textout.h"
#include "plot.h"

/* a tab would split a label, a line break end its line, a '#' first make it a comment */
void pcb_plot_label(FILE *f, const char *s)
{
	int quote = s[strspn(s, " ")] == '#' || strchr(s, '"');

	if (quote)
		fputc('"', f);
	for (int n; *s; s += n ? n : 1) {
		n = pcb_control_bytes(s);
		fputc(n ? ' ' : *s == '"' ? '\'' : *s, f);
	}
	if (quote)
		fputc('"', f);
}

FILE *pcb_plot_add(struct pcb_plot_set *set, const char *dir, const char *name,
		   const char *script, char *err, size_t errlen)
{
	struct pcb_plot *p;
	char path[4400];
	FILE *f;

	if (set->n == PCB_PLOT_MAX) {
		snprintf(err, errlen, "more than %d figures", PCB_PLOT_MAX);
		return NULL;
	}
	p = &set->plot[set->n];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->script, sizeof(p->script), "%s", script);
	snprintf(path, sizeof(path), "%s/%s.dat", dir, name);
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	set->n++;
	return f;
}

int pcb_plot_close(struct pcb_plot_set *set, FILE *f, char *err, size_t errlen)
{
	int bad = ferror(f);

	if (fclose(f) || bad || set->plot[set->n - 1].series < 0) {
		snprintf(err, errlen, "%s.dat: %s", set->plot[set->n - 1].name,
			 bad || set->plot[set->n - 1].series >= 0 ? strerror(errno) : "out of memory");
		return -1;
	}
	/* a figure with nothing to draw is not drawn; its data file stays for a look */
	if (!set->plot[set->n - 1].series)
		set->n--;
	return 0;
}

static int executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

int pcb_plot_env_find(struct pcb_plot_env *env, char *err, size_t errlen)
{
	const char *g = getenv("PCPBENCH_GNUPLOT"), *s = getenv("PCPBENCH_PLOTS");
	char probe[4200];

	if (!g || !*g)
		g = "gnuplot";
	env->gnuplot[0] = 0;
	env->interrupted = NULL;
	if (strchr(g, '/')) {
		if (executable(g))
			snprintf(env->gnuplot, sizeof(env->gnuplot), "%s", g);
	} else {
		const char *path = getenv("PATH") ?: "/usr/bin:/bin";

		while (*path && !env->gnuplot[0]) {
			size_t len = strcspn(path, ":");

			snprintf(probe, sizeof(probe), "%.*s/%s", (int)len, path, g);
			if (len && executable(probe))
				snprintf(env->gnuplot, sizeof(env->gnuplot), "%s", probe);
			path += len + !!path[len];
		}
	}
	if (!env->gnuplot[0]) {
		snprintf(err, errlen, "gnuplot not found as '%s' (Debian: apt-get install "
			 "gnuplot-nox; PCPBENCH_GNUPLOT names another)", g);
		return -1;
	}
	snprintf(env->scripts, sizeof(env->scripts), "%s",
		 s && *s ? s : pcb_data_path("plots", probe, sizeof(probe)));
	snprintf(probe, sizeof(probe), "%s/common.gp", env->scripts);
	if (access(probe, R_OK)) {
		snprintf(err, errlen, "%s: the gnuplot scripts are not there (%s; PCPBENCH_PLOTS "
			 "names the plots/ directory of a checkout)", env->scripts, strerror(errno));
		return -1;
	}
	/* gnuplot runs in each result's directory: the scripts by an absolute path */
	if (env->scripts[0] != '/' && realpath(env->scripts, probe))
		snprintf(env->scripts, sizeof(env->scripts), "%s", probe);
	return 0;
}

/* s as a gnuplot single-quoted string's inside: ' doubled */
static size_t gp_quote(char *out, size_t len, const char *s)
{
	size_t at = 0;

	for (; *s && at + 3 < len; s++) {
		if (*s == '\n')
			continue;
		if (*s == '\'')
			out[at++] = '\'';
		out[at++] = *s;
	}
	out[at] = 0;
	return at;
}

static int run_gnuplot(const struct pcb_plot_env *env, const struct pcb_plot *p,
		       const char *dir, const char *fmt, char *err, size_t errlen)
{
	char vars[8192], qtitle[600], qscripts[4400], script[4200], out[4400];
	struct stat st;
	int status;
	pid_t pid;

	gp_quote(qtitle, sizeof(qtitle), p->title);
	gp_quote(qscripts, sizeof(qscripts), env->scripts);
	/* gnuplot runs in dir, so that a byte of its name (a line break, a quote) is never in a string */
	snprintf(vars, sizeof(vars), "dir='.'; name='%s'; fmt='%s'; n=%d; ttl='%s'; "
		 "scripts='%s'; %s", p->name, fmt, p->series, qtitle, qscripts, p->vars);
	snprintf(script, sizeof(script), "%s/%s.gp", env->scripts, p->script);
	snprintf(out, sizeof(out), "%s/%s.%s", dir, p->name, fmt);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		/* gnuplot's messages are diagnostics: stdout lists what was written */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		if (chdir(dir) < 0) {
			fprintf(stderr, "pcpbench: %s: %s\n", dir, strerror(errno));
			_exit(127);
		}
		execl(env->gnuplot, "gnuplot", "-e", vars, script, (char *)NULL);
		fprintf(stderr, "pcpbench: %s: %s\n", env->gnuplot, strerror(errno));
		_exit(127);
	}
	/* a stop asked for ends gnuplot within a poll, however long its figure would take */
	for (;;) {
		const struct timespec poll = { 0, 10 * 1000 * 1000 };
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			snprintf(err, errlen, "waitpid: %s", strerror(errno));
			return -1;
		}
		if (env->interrupted && env->interrupted())
			kill(pid, SIGKILL);
		nanosleep(&poll, NULL);
	}
	if (env->interrupted && env->interrupted()) {
		snprintf(err, errlen, "interrupted");
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(err, errlen, "gnuplot failed on %s for %s/%s.dat", script, dir, p->name);
		return -1;
	}
	if (stat(out, &st) || !st.st_size) {
		snprintf(err, errlen, "%s: gnuplot wrote nothing (%s)", out, script);
		return -1;
	}
	return 0;
}

void pcb_plot_html(FILE *f, const char *s)
{
	for (int n; *s; s += n ? n : 1) {
		n = pcb_control_bytes(s);
		if (!n && strchr("<>&\"", *s))
			fprintf(f, "&#%d;", *s);
		else
			fputc(n ? ' ' : *s, f);
	}
}

int pcb_plot_render(const struct pcb_plot_env *env, const struct pcb_plot_set *set,
		    const char *dir, const char *heading, char *err, size_t errlen)
{
	char path[4400];
	FILE *f;

	for (int i = 0; i < set->n; i++)
		for (int k = 0; k < 2; k++) {
			if (env->interrupted && env->interrupted()) {
				snprintf(err, errlen, "interrupted");
				return -1;
			}
			if (run_gnuplot(env, &set->plot[i], dir, k ? "png" : "svg", err,
					errlen) < 0)
				return -1;
		}
	snprintf(path, sizeof(path), "%s/index.html", dir);
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", f);
	pcb_plot_html(f, heading);
	fputs("</title></head>\n<body>\n<h1>", f);
	pcb_plot_html(f, heading);
	fputs("</h1>\n", f);
	for (int i = 0; i < set->n; i++) {
		const struct pcb_plot *p = &set->plot[i];

		fputs("<h2>", f);
		pcb_plot_html(f, p->title);
		fprintf(f, "</h2>\n<p><img src=\"%s.svg\" alt=\"%s\"></p>\n"
			"<p><a href=\"%s.svg\">%s.svg</a> <a href=\"%s.png\">%s.png</a> "
			"<a href=\"%s.dat\">%s.dat</a></p>\n", p->name, p->name, p->name, p->name,
			p->name, p->name, p->name, p->name);
	}
	if (!set->n)
		fputs("<p>nothing to plot</p>\n", f);
	fputs("</body></html>\n", f);
	if (ferror(f) | fclose(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
