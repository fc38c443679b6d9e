/* SPDX-License-Identifier: MIT */
/*
 * result.json read back is untrusted input: a file edited by hand, cut
 * short or from another tool. Before any table is printed from it, every
 * field the schema declares must have its type (rj_check()), every
 * number must be finite and of a size a measurement can have, and every
 * string one line.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../machine/state.h"
#include "../../scenario/scenario.h"
#include "load.h"
#include "model.h"
#include "query.h"
#include "rows.h"

/* larger than any count or cycle figure a run can produce */
#define PCB_RESULT_MAX_NUMBER 1e18
#define PCB_RESULT_MAX_DEPTH 16
/*
 * what is read into memory at once: jansson takes about ten times a file's
 * size; a sweep of 1000 configurations of 16 designs, with the rows a
 * 2-CPU run writes for each, is about 100 MiB
 */
#define PCB_RESULT_MAX_BYTES (1 << 30)
#define PCB_RESULT_MAX_DESIGNS (PCB_MAX_DESIGNS * PCB_MAX_CONFIGS)
/* a design's function rows: what a table prints */
#define PCB_RESULT_MAX_FUNCTIONS PCB_MAX_ROWS

/*
 * a string (as a key) holds no line break: printed, it would start a line
 * of its own in a table or a letter (a forged "To reproduce:" block, a
 * heading split in two). A run writes none (pcb_result_one_line()), but
 * in scenario.text, the scenario file as it was written, which nothing
 * prints.
 */
static int check_line(const char *s, const char *path, char *err, size_t errlen)
{
	if (!strchr(s, '\n') || !strcmp(path, "result.scenario.text"))
		return 0;
	snprintf(err, errlen, "%s: a line break in a string, which a result does not hold",
		 path);
	return -1;
}

/* v's strings (but skip) with each line break written \n */
static void one_line(json_t *v, const json_t *skip)
{
	const char *key, *s = json_string_value(v);
	size_t i;
	json_t *x;

	if (s && v != skip && strchr(s, '\n')) {
		size_t room = 2 * strlen(s) + 1;
		char *t = malloc(room);

		if (!t)
			return;
		pcb_one_line(t, room, s);
		json_string_set(v, t);
		free(t);
	}
	json_object_foreach(v, key, x)
		one_line(x, skip);
	json_array_foreach(v, i, x)
		one_line(x, skip);
}

void pcb_result_one_line(json_t *result)
{
	one_line(result, json_object_get(rj_top_scenario(result), "text"));
}

/* every number finite and of a size a run can produce, every string one line */
static int check_values(json_t *v, char *path, size_t len, int depth, char *err, size_t errlen)
{
	size_t at = strlen(path), i;
	const char *key;
	json_t *x;

	if (depth > PCB_RESULT_MAX_DEPTH) {
		snprintf(err, errlen, "%s: nested deeper than a result is", path);
		return -1;
	}
	if (json_is_real(v) || json_is_integer(v)) {
		double d = json_number_value(v);

		/* a denormal is no measurement either: a Diff % over one reads inf */
		if (!isfinite(d) || fabs(d) > PCB_RESULT_MAX_NUMBER ||
		    fpclassify(d) == FP_SUBNORMAL) {
			snprintf(err, errlen, "%s: %g is not a figure a run can produce", path, d);
			return -1;
		}
		return 0;
	}
	if (json_is_string(v))
		return check_line(json_string_value(v), path, err, errlen);
	if (json_is_object(v)) {
		json_object_foreach(v, key, x) {
			if (strchr(key, '\n')) {
				path[at] = 0;
				snprintf(err, errlen, "%s: a key with a line break, which a "
					 "result does not hold", path);
				return -1;
			}
			snprintf(path + at, len - at, ".%s", key);
			if (check_values(x, path, len, depth + 1, err, errlen) < 0)
				return -1;
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x) {
			snprintf(path + at, len - at, "[%zu]", i);
			if (check_values(x, path, len, depth + 1, err, errlen) < 0)
				return -1;
		}
	}
	path[at] = 0;
	return 0;
}

/*
 * what no run writes: more design rows than a sweep's configurations of a
 * scenario's designs, more function rows for one design than a table has
 * (the designs' rows looked up by rows.h, so linear in the rows)
 */
static int check_sizes(json_t *result, char *err, size_t errlen)
{
	json_t *designs = rj_top_designs(result), *functions = rj_top_functions(result), *dj;
	size_t i, n = json_array_size(designs);

	if (n > PCB_RESULT_MAX_DESIGNS) {
		snprintf(err, errlen, "result.designs: %zu rows, more than a sweep makes (%d)", n,
			 PCB_RESULT_MAX_DESIGNS);
		return -1;
	}
	json_array_foreach(designs, i, dj) {
		size_t fns = json_array_size(pcb_rows_where(functions, RJ_F_fn_design,
							    rj_design_design(dj)));

		if (fns > PCB_RESULT_MAX_FUNCTIONS) {
			snprintf(err, errlen, "result.functions: %zu rows of design \"%.64s\", more "
				 "than a model has functions (%d)", fns, rj_design_design(dj),
				 PCB_RESULT_MAX_FUNCTIONS);
			return -1;
		}
	}
	return 0;
}

/*
 * Results written before designs[] had design_name (the reference result of
 * f5501e3): a design's label is its name, then a space and its configuration
 * in a sweep, and design names have no space; the name is taken from there
 */
static void read_old_form(json_t *result)
{
	json_t *designs = rj_get(result, RJ_F_top_designs), *dj;
	size_t i;

	json_array_foreach(designs, i, dj) {
		const char *label = json_string_value(rj_get(dj, RJ_F_design_design));

		if (!json_is_object(dj) || rj_get(dj, RJ_F_design_design_name) || !label)
			continue;
		rj_put(dj, RJ_F_design_design_name,
		       json_stringn(label, strcspn(label, " ")));
	}
}

int pcb_result_check(json_t *result, char *err, size_t errlen)
{
	char path[1024] = "result";

	read_old_form(result);
	if (rj_check(result, RJ_K_top, err, errlen) < 0 || pcb_model_check(result, err, errlen) < 0 ||
	    check_sizes(result, err, errlen) < 0)
		return -1;
	return check_values(result, path, sizeof(path), 0, err, errlen);
}

int pcb_result_interrupted(json_t *result)
{
	json_t *ctx = rj_top_context(result);

	return rj_ctx_has_complete(ctx) && !rj_ctx_complete(ctx);
}

/*
 * path parsed as JSON if it is a regular file, opened once: a FIFO is not
 * waited on and a file swapped in after the check is not read. The file is
 * read whole, in large reads (json_loadfd() reads a byte a call), and
 * refused past PCB_RESULT_MAX_BYTES. NULL with err set for what is not a
 * regular file or is too large, NULL with jerr for bad JSON.
 */
static json_t *load_regular(const char *path, json_error_t *jerr, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	size_t len = 0, cap;
	struct stat st;
	char *buf;
	json_t *j;
	ssize_t n;

	err[0] = 0;
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	if (st.st_size > PCB_RESULT_MAX_BYTES) {
		snprintf(err, errlen, "%s: %lld bytes, more than a result read at once may have "
			 "(%d MiB)", path, (long long)st.st_size, PCB_RESULT_MAX_BYTES >> 20);
		close(fd);
		return NULL;
	}
	/* one byte more than the file, to see it grow while it is read */
	cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
		return NULL;
	}
	while (len < cap && (n = read(fd, buf + len, cap - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (!err[0] && len == cap)
		snprintf(err, errlen, "%s: changed while it was read", path);
	j = err[0] ? NULL : json_loadb(buf, len, 0, jerr);
	free(buf);
	return j;
}

int pcb_result_load(const char *arg, json_t **out, char *path, size_t pathlen, char *err,
		    size_t errlen)
{
	json_error_t jerr;
	struct stat st;
	const char *format;
	char why[512];
	json_t *result;

	*out = NULL;
	snprintf(path, pathlen, "%s", arg);
	if (stat(arg, &st) < 0) {
		snprintf(err, errlen, "%s: no such file or directory", arg);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		size_t n = strlen(arg);

		/* "dir/" names the same directory as "dir" */
		while (n > 1 && arg[n - 1] == '/')
			n--;
		snprintf(path, pathlen, "%.*s/result.json", (int)n, arg);
		if (stat(path, &st) < 0) {
			snprintf(err, errlen, "%s: no result.json in this directory", arg);
			return -1;
		}
	}
	result = load_regular(path, &jerr, err, errlen);
	if (!result && err[0])
		return -1;
	if (!result) {
		if (jerr.line > 0)
			snprintf(err, errlen, "%s:%d: %s", path, jerr.line, jerr.text);
		else
			snprintf(err, errlen, "%s: %s", path, jerr.text);
		return -1;
	}
	format = json_string_value(rj_get(result, RJ_F_top_format));
	if (!format || strcmp(format, PCB_RESULT_FORMAT)) {
		if (format)
			snprintf(err, errlen, "%s: format \"%.64s\", not %s, which this pcpbench "
				 "reads", path, format, PCB_RESULT_FORMAT);
		else
			snprintf(err, errlen, "%s: not a %s file", path, PCB_RESULT_FORMAT);
		json_decref(result);
		return -1;
	}
	if (pcb_result_check(result, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: %s", path, why);
		json_decref(result);
		return -1;
	}
	*out = result;
	return 0;
}
