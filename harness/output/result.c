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
#include "present/tables.h"
#include "read/load.h"
#include "result.h"
#include "write/csv.h"

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

void pcb_utc_timestamp(char *buf, size_t len, int compact)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* the CSV files beside result.json, for plotting */
static int write_csvs(json_t *result, const char *dir, char *err, size_t errlen)
{
	int rc = 0;

	for (int i = 0; i < pcb_nr_result_csv && !rc; i++) {
		struct sbuf b;
		FILE *f = sbuf_open(&b);

		pcb_csv_write(f, result, &pcb_result_csv[i]);
		fclose(f);
		rc = write_text(dir, pcb_result_csv[i].file, b.p, err, errlen);
		free(b.p);
	}
	return rc;
}

/* what fill_dir() may have written in dir, and dir */
static void remove_tree(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/result.json", dir);
	unlink(path);
	for (int i = 0; i < pcb_nr_result_csv; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, pcb_result_csv[i].file);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/tables.txt", dir);
	unlink(path);
	rmdir(dir);
}

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

/* result.json as it is written: its reals to 10 significant digits */
#define RESULT_JSON_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(10))

json_t *pcb_result_settled(json_t *result)
{
	char *text = json_dumps(result, RESULT_JSON_FLAGS);
	json_t *back = text ? json_loads(text, 0, NULL) : NULL;

	free(text);
	if (back)
		pcb_result_one_line(back);
	return back;
}

/* result.json, the CSV files and tables.txt into the new directory tmp */
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
	if (json_dump_file(result, jpath, RESULT_JSON_FLAGS) < 0) {
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
