/* SPDX-License-Identifier: MIT */
/*
 * Writing a result: DIR/<scenario>-<UTC timestamp>/ with result.json, the
 * CSV files for plotting and tables.txt, built in a temporary directory and
 * renamed into place when complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../schema/schema.h"
#include "result.h"

static int write_text(const char *dir, const char *name, const char *text, char *err,
		      size_t errlen)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* a growing string for CSV and tables */
struct sbuf {
	char *p;
	size_t len;
};

static FILE *sbuf_open(struct sbuf *b)
{
	b->p = NULL;
	b->len = 0;
	return open_memstream(&b->p, &b->len);
}

/* a CSV header of result.json's names */
static void csv_header(FILE *f, const enum rj_field *cols, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", rj_name(cols[i]));
	fputc('\n', f);
}

/* a row's noise gate, ",cv_pct,unstable" (1 or 0), empty for a result without it */
static void noise_csv(FILE *f, json_t *cv, json_t *unstable)
{
	if (json_is_number(cv))
		fprintf(f, ",%.4f", json_number_value(cv));
	else
		fputc(',', f);
	if (json_is_boolean(unstable))
		fprintf(f, ",%d\n", json_is_true(unstable));
	else
		fputs(",\n", f);
}

/* functions.csv, runs.csv and histogram.csv: a row a function, run and bucket */
static void functions_csv(json_t *result, FILE *f, FILE *r, FILE *h)
{
	static const enum rj_field cols[] = {
		RJ_F_fn_design, RJ_F_fn_function, RJ_F_fn_timing, RJ_F_fn_avg_cycles,
		RJ_F_fn_stddev, RJ_F_fn_calls, RJ_F_fn_p50, RJ_F_fn_p99, RJ_F_fn_p999, RJ_F_fn_max,
		RJ_F_fn_cv_pct, RJ_F_fn_unstable,
	};
	json_t *fj;
	size_t i;

	csv_header(f, cols, sizeof(cols) / sizeof(cols[0]));
	fprintf(r, "design,function,timing,run,avg_cycles,calls\n");
	fprintf(h, "design,function,timing,cycles_lower,count\n");
	json_array_foreach(rj_top_functions(result), i, fj) {
		const char *d = rj_fn_design(fj), *fn = rj_fn_function(fj), *tm = rj_fn_timing(fj);
		json_t *x;
		size_t j;

		fprintf(f, "%s,%s,%s,%.4f,%.4f,%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT
			",%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT,
			d, fn, tm, rj_fn_avg_cycles(fj), rj_fn_stddev(fj), rj_fn_calls(fj),
			rj_fn_p50(fj), rj_fn_p99(fj), rj_fn_p999(fj), rj_fn_max(fj));
		noise_csv(f, rj_get(fj, RJ_F_fn_cv_pct), rj_get(fj, RJ_F_fn_unstable));
		json_array_foreach(rj_fn_runs(fj), j, x)
			fprintf(r, "%s,%s,%s,%zu,%.4f,%" JSON_INTEGER_FORMAT "\n", d, fn, tm, j + 1,
				rj_fnrun_avg_cycles(x), rj_fnrun_calls(x));
		json_array_foreach(rj_fn_histogram(fj), j, x)
			fprintf(h, "%s,%s,%s,%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT "\n",
				d, fn, tm, json_integer_value(json_array_get(x, 0)),
				json_integer_value(json_array_get(x, 1)));
	}
}

static void drains_csv(json_t *result, FILE *dr)
{
	static const enum rj_field cols[] = {
		RJ_F_drain_design, RJ_F_drain_design_name, RJ_F_drain_caches, RJ_F_drain_count,
		RJ_F_drain_avg_cycles, RJ_F_drain_stddev, RJ_F_drain_completion_p50,
		RJ_F_drain_completion_p99, RJ_F_drain_cv_pct, RJ_F_drain_unstable,
	};
	json_t *x;
	size_t i;

	csv_header(dr, cols, sizeof(cols) / sizeof(cols[0]));
	json_array_foreach(rj_top_drains(result), i, x) {
		fprintf(dr, "%s,%s,%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ",%.4f,%.4f,%"
			JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT, rj_drain_design(x),
			rj_drain_design_name(x), rj_drain_caches(x), rj_drain_count(x),
			rj_drain_avg_cycles(x), rj_drain_stddev(x), rj_drain_completion_p50(x),
			rj_drain_completion_p99(x));
		noise_csv(dr, rj_get(x, RJ_F_drain_cv_pct), rj_get(x, RJ_F_drain_unstable));
	}
}

/* a count or a figure of a row, empty where the row has none (an older result's) */
static void csv_opt(FILE *f, json_t *row, enum rj_field field, const char *end)
{
	json_t *v = rj_get(row, field);

	if (json_is_integer(v))
		fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_number(v))
		fprintf(f, "%.4f", json_number_value(v));
	fputs(end, f);
}

/* a row a contended or timed lock, per design, function and side */
static void contention_csv(json_t *result, FILE *f)
{
	static const enum rj_field cols[] = {
		RJ_F_cont_design, RJ_F_cont_function, RJ_F_cont_side, RJ_F_cont_calls,
		RJ_F_cont_contended, RJ_F_cont_wait_avg_cycles, RJ_F_cont_wait_max_cycles,
		RJ_F_cont_held, RJ_F_cont_hold_avg_cycles, RJ_F_cont_hold_max_cycles,
	};
	const size_t n = sizeof(cols) / sizeof(cols[0]);
	json_t *x;
	size_t i;

	csv_header(f, cols, n);
	json_array_foreach(rj_top_contention(result), i, x) {
		fprintf(f, "%s,", rj_cont_design(x));
		for (size_t c = 1; c < n; c++) {
			json_t *v = rj_get(x, cols[c]);

			if (json_is_string(v))
				fprintf(f, "%s%s", json_string_value(v), c + 1 < n ? "," : "\n");
			else
				csv_opt(f, x, cols[c], c + 1 < n ? "," : "\n");
		}
	}
}

static void counters_csv(json_t *result, FILE *c)
{
	static const enum rj_field cols[] = {
		RJ_F_ctr_design, RJ_F_ctr_thread, RJ_F_ctr_event, RJ_F_ctr_status,
		RJ_F_ctr_value, RJ_F_ctr_enabled_ns, RJ_F_ctr_running_ns,
	};
	json_t *x;
	size_t i;

	csv_header(c, cols, sizeof(cols) / sizeof(cols[0]));
	json_array_foreach(rj_top_counters(result), i, x)
		fprintf(c, "%s,%s,%s,%s,%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT ",%"
			JSON_INTEGER_FORMAT "\n", rj_ctr_design(x), rj_ctr_thread(x),
			rj_ctr_event(x), rj_ctr_status(x), rj_ctr_value(x), rj_ctr_enabled_ns(x),
			rj_ctr_running_ns(x));
}

/* the CSV files beside result.json, for plotting */
static int write_csvs(json_t *result, const char *dir, char *err, size_t errlen)
{
	static const char *const name[] = {
		"functions.csv", "runs.csv", "histogram.csv", "counters.csv", "drains.csv",
		"contention.csv",
	};
	enum { NR_CSV = sizeof(name) / sizeof(name[0]) };
	struct sbuf b[NR_CSV];
	FILE *f[NR_CSV];
	int rc = 0;

	for (int i = 0; i < NR_CSV; i++)
		f[i] = sbuf_open(&b[i]);
	functions_csv(result, f[0], f[1], f[2]);
	counters_csv(result, f[3]);
	drains_csv(result, f[4]);
	contention_csv(result, f[5]);
	for (int i = 0; i < NR_CSV; i++)
		fclose(f[i]);
	for (int i = 0; i < NR_CSV; i++) {
		if (!rc)
			rc = write_text(dir, name[i], b[i].p, err, errlen);
		free(b[i].p);
	}
	return rc;
}

static void remove_tree(const char *dir)
{
	static const char *const files[] = {
		"result.json", "functions.csv", "runs.csv", "histogram.csv", "counters.csv",
		"drains.csv", "contention.csv", "tables.txt",
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* result.json, the CSV files and tables.txt into the new directory tmp */
int pcb_tmpdir_make(const char *path)
{
	char mark[PATH_MAX + 32];
	int fd, e;

	if (mkdir(path, 0777) < 0)
		return -1;
	snprintf(mark, sizeof(mark), "%s/" PCB_TMPDIR_MARK, path);
	fd = open(mark, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		e = errno;
		rmdir(path);
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

void pcb_tmpdir_seal(const char *path)
{
	char mark[PATH_MAX + 32];

	snprintf(mark, sizeof(mark), "%s/" PCB_TMPDIR_MARK, path);
	unlink(mark);
}

bool pcb_tmpdir_ours(const char *path)
{
	char mark[PATH_MAX + 32];
	struct stat st;

	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return false;
	snprintf(mark, sizeof(mark), "%s/" PCB_TMPDIR_MARK, path);
	return lstat(mark, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid();
}

static int fill_dir(json_t *result, const char *tmp, char *err, size_t errlen)
{
	char jpath[PATH_MAX];
	struct sbuf tb;
	FILE *t;
	int rc;

	if (pcb_tmpdir_make(tmp) < 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	snprintf(jpath, sizeof(jpath), "%s/result.json", tmp);
	if (json_dump_file(result, jpath, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) < 0) {
		snprintf(err, errlen, "%s: cannot write", jpath);
		goto fail;
	}
	if (write_csvs(result, tmp, err, errlen) < 0)
		goto fail;
	t = sbuf_open(&tb);
	rc = pcb_tables_print(t, result, err, errlen);
	fclose(t);
	if (rc == 0)
		rc = write_text(tmp, "tables.txt", tb.p, err, errlen);
	free(tb.p);
	if (rc == 0)
		return 0;
fail:
	remove_tree(tmp);
	return -1;
}

int pcb_result_write_at(json_t *result, const char *path, char *err, size_t errlen)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	const char *base = strrchr(path, '/');

	snprintf(dir, sizeof(dir), "%.*s", base ? (int)(base - path) : 1, base ? path : ".");
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp.%d", dir, base ? base + 1 : path, (int)getpid());
	if (fill_dir(result, tmp, err, errlen) < 0)
		return -1;
	pcb_tmpdir_seal(tmp);
	if (access(path, F_OK) == 0 || rename(tmp, path) < 0) {
		snprintf(err, errlen, "rename %s -> %s: %s", tmp, path,
			 access(path, F_OK) == 0 ? "it exists" : strerror(errno));
		remove_tree(tmp);
		return -1;
	}
	return 0;
}

int pcb_result_write(json_t *result, const char *dir, char *path, size_t pathlen,
		     char *err, size_t errlen)
{
	const char *name = rj_sc_name(rj_top_scenario(result));
	char tmp[PATH_MAX], ts[32];

	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	pcb_utc_timestamp(ts, sizeof(ts), 1);
	snprintf(tmp, sizeof(tmp), "%s/.%s-%s.tmp.%d", dir, name, ts, (int)getpid());
	if (fill_dir(result, tmp, err, errlen) < 0)
		return -1;
	pcb_tmpdir_seal(tmp);

	for (int n = 1; n < 100; n++) {
		if (n == 1)
			snprintf(path, pathlen, "%s/%s-%s", dir, name, ts);
		else
			snprintf(path, pathlen, "%s/%s-%s-%d", dir, name, ts, n);
		/* rename() would replace an empty directory: refuse to */
		if (access(path, F_OK) == 0)
			continue;
		if (rename(tmp, path) == 0)
			return 0;
		if (errno != EEXIST && errno != ENOTEMPTY) {
			snprintf(err, errlen, "rename %s -> %s: %s", tmp, path, strerror(errno));
			goto fail;
		}
	}
	snprintf(err, errlen, "%s: no free result name", dir);
fail:
	remove_tree(tmp);
	return -1;
}
