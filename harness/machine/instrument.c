/* SPDX-License-Identifier: MIT */
/*
 * The instrumented kernel's debugfs files, read (instrument.h): its build
 * file as key-value lines, its counters as one line a CPU and function
 * under a header naming the columns, both checked line by line, and
 * vmlinux's build id from the kernel's own ELF notes.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "instrument.h"
#include "state_read.h"

/* the counters' columns, as the instrument's header names them */
static const char counters_header[] = "cpu function cycles calls contended wait_cycles wait_max";
/* CPUs a counters file may name: NR_CPUS on x86_64 at the most */
#define MAX_CPUS 8192

static const char *root(void)
{
	const char *r = getenv("PCPBENCH_SYSROOT");

	return r ? r : "";
}

/* the file rel under the root, whole; NULL with err */
static char *read_text(const char *rel, char *err, size_t errlen)
{
	char *text = pcb_state_file_all(root(), rel);

	if (!text)
		snprintf(err, errlen, "%s%s: %s", root(), rel, strerror(errno));
	return text;
}

/*
 * prim_NAME_cycles_median: NAME (lower case and _, at most 23 bytes) and
 * its number into b's next primitive; 1 where key is none, 0, or -1 on a
 * bad value or one primitive too many
 */
static int prim_line(struct pcb_instr_build *b, const char *key, const char *val)
{
	static const char pre[] = "prim_", post[] = "_cycles_median";
	size_t n = strlen(key), len;
	long v;
	char *end;

	if (strncmp(key, pre, sizeof(pre) - 1) || n <= sizeof(pre) + sizeof(post) - 2 ||
	    strcmp(key + n - (sizeof(post) - 1), post))
		return 1;
	len = n - (sizeof(pre) - 1) - (sizeof(post) - 1);
	key += sizeof(pre) - 1;
	if (len >= sizeof(b->prim[0].name) || strspn(key, "abcdefghijklmnopqrstuvwxyz_") < len ||
	    b->nr_prims == PCB_INSTR_MAX_PRIMS)
		return -1;
	errno = 0;
	v = strtol(val, &end, 10);
	if (errno || end == val || *end || v < 0)
		return -1;
	snprintf(b->prim[b->nr_prims].name, sizeof(b->prim[0].name), "%.*s", (int)len, key);
	b->prim[b->nr_prims++].cycles = v;
	return 0;
}

/* one "key value" line of the build file into b */
static int build_line(struct pcb_instr_build *b, const char *key, const char *val)
{
	static const struct {
		const char *key;
		size_t off, len;
	} str[] = {
		{ "variant", offsetof(struct pcb_instr_build, variant), sizeof(b->variant) },
		{ "series", offsetof(struct pcb_instr_build, series), sizeof(b->series) },
		{ "config", offsetof(struct pcb_instr_build, config), sizeof(b->config) },
		{ "instrument", offsetof(struct pcb_instr_build, instrument), sizeof(b->instrument) },
		{ "stock_lock", offsetof(struct pcb_instr_build, stock_lock), sizeof(b->stock_lock) },
	};
	long *num = !strcmp(key, "stock_size") ? &b->stock_size :
		    !strcmp(key, "stock_align") ? &b->stock_align :
		    !strcmp(key, "stock_offset_in_line") ? &b->stock_offset :
		    !strcmp(key, "obj_stock_size") ? &b->obj_stock_size :
		    !strcmp(key, "obj_stock_align") ? &b->obj_stock_align :
		    !strcmp(key, "obj_stock_offset_in_line") ? &b->obj_stock_offset :
		    !strcmp(key, "empty_cycles_min") ? &b->empty_min :
		    !strcmp(key, "empty_cycles_median") ? &b->empty_median :
		    !strcmp(key, "prim_repeat") ? &b->prim_repeat : NULL;
	char *end;
	int rc = prim_line(b, key, val);

	if (rc <= 0)
		return rc;
	for (size_t i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		if (!strcmp(key, str[i].key)) {
			snprintf((char *)b + str[i].off, str[i].len, "%s", val);
			return 0;
		}
	if (!num)
		return 0;	/* a later instrument's line: kept for it */
	errno = 0;
	*num = strtol(val, &end, 10);
	return errno || end == val || *end || *num < 0 ? -1 : 0;
}

/* the GNU build id among the ELF notes of /sys/kernel/notes, hex into id[41] */
static void notes_build_id(char *id)
{
	char path[PATH_MAX];
	unsigned char buf[4096];
	size_t n, at = 0;
	FILE *f;

	id[0] = 0;
	snprintf(path, sizeof(path), "%s/sys/kernel/notes", root());
	f = pcb_state_fopen(path);
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (at + 12 <= n) {
		uint32_t namesz, descsz, type;
		size_t name_at = at + 12, desc_at;

		memcpy(&namesz, buf + at, 4);
		memcpy(&descsz, buf + at + 4, 4);
		memcpy(&type, buf + at + 8, 4);
		if (namesz > sizeof(buf) || descsz > sizeof(buf))
			return;
		desc_at = name_at + ((namesz + 3u) & ~3u);
		if (desc_at + descsz > n)
			return;
		if (type == 3 && namesz == 4 && !memcmp(buf + name_at, "GNU", 4) && descsz <= 20) {
			for (uint32_t i = 0; i < descsz; i++)
				sprintf(id + 2 * i, "%02x", buf[desc_at + i]);
			return;
		}
		at = desc_at + ((descsz + 3u) & ~3u);
	}
}

int pcb_instr_probe(struct pcb_instr_build *b, char *err, size_t errlen)
{
	char *text, *line, *save = NULL, *rel_text;
	int lineno = 0;

	memset(b, 0, sizeof(*b));
	b->stock_size = b->stock_align = b->stock_offset = b->empty_min = b->empty_median = -1;
	b->obj_stock_size = b->obj_stock_align = b->obj_stock_offset = -1;
	b->prim_repeat = 1;
	text = pcb_state_file_all(root(), PCB_INSTR_DIR "/build");
	if (!text) {
		snprintf(err, errlen, "this kernel has no instrument: %s%s/build: %s (boot a kernel "
			 "scripts/kernel.sh built, with debugfs mounted: docs/kernel.md)", root(),
			 PCB_INSTR_DIR, strerror(errno));
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *val = strchr(line, ' ');

		lineno++;
		if (val)
			*val++ = 0;
		if (!val || !line[0] || build_line(b, line, val) < 0) {
			snprintf(err, errlen, "%s%s/build:%d: not the instrument's: '%.60s'", root(),
				 PCB_INSTR_DIR, lineno, line);
			free(text);
			return -1;
		}
	}
	free(text);
	if (b->prim_repeat < 1 || (b->nr_prims && b->empty_median < 0)) {
		snprintf(err, errlen, "%s%s/build: prim_repeat %ld%s: not the instrument's", root(),
			 PCB_INSTR_DIR, b->prim_repeat, b->prim_repeat < 1 ? "" :
			 ", primitives without empty_cycles_median");
		return -1;
	}
	if (!b->variant[0] || !b->instrument[0] || !b->stock_lock[0] || b->stock_size < 0) {
		snprintf(err, errlen, "%s%s/build: no variant, instrument, stock_lock or stock_size "
			 "line: not the instrument's", root(), PCB_INSTR_DIR);
		return -1;
	}
	rel_text = pcb_state_file_all(root(), "/proc/sys/kernel/osrelease");
	if (rel_text) {
		rel_text[strcspn(rel_text, "\n")] = 0;
		snprintf(b->release, sizeof(b->release), "%s", rel_text);
		free(rel_text);
	}
	notes_build_id(b->build_id);
	return 0;
}

int pcb_instr_fn(const struct pcb_instr_sums *s, const char *name)
{
	for (int f = 0; f < s->nr_fns; f++)
		if (!strcmp(s->fn[f], name))
			return f;
	return -1;
}

struct pcb_instr_sum pcb_instr_get(const struct pcb_instr_sums *s, int cpu, int f)
{
	struct pcb_instr_sum zero = { 0 };

	if (cpu < 0 || cpu >= s->nr_cpus || f < 0 || f >= s->nr_fns)
		return zero;
	return s->sum[(size_t)cpu * PCB_INSTR_MAX_FNS + (size_t)f];
}

void pcb_instr_sums_free(struct pcb_instr_sums *s)
{
	free(s->sum);
	memset(s, 0, sizeof(*s));
}

/* room for CPUs below cpu + 1; -1 out of memory */
static int grow(struct pcb_instr_sums *s, int cpu)
{
	int nr = s->nr_cpus;
	struct pcb_instr_sum *more;

	if (cpu < nr)
		return 0;
	nr = cpu + 1 > 2 * nr ? cpu + 1 : 2 * nr;
	nr = nr > MAX_CPUS ? MAX_CPUS : nr;
	more = realloc(s->sum, (size_t)nr * PCB_INSTR_MAX_FNS * sizeof(*more));
	if (!more)
		return -1;
	memset(more + (size_t)s->nr_cpus * PCB_INSTR_MAX_FNS, 0,
	       (size_t)(nr - s->nr_cpus) * PCB_INSTR_MAX_FNS * sizeof(*more));
	s->sum = more;
	s->nr_cpus = nr;
	return 0;
}

/* one counters line into s; 0, or -1 with what is wrong in why */
static int counters_line(struct pcb_instr_sums *s, const char *line, char *why, size_t len)
{
	char name[PCB_INSTR_FN_LEN + 1];
	struct pcb_instr_sum v;
	int cpu, f, used = 0;

	/* no field is negative, and no function name has a '-': scanf would take "-1" as a huge count */
	if (strchr(line, '-') ||
	    sscanf(line, "%d %48s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 "%n",
		   &cpu, name, &v.cycles, &v.calls, &v.contended, &v.wait_cycles, &v.wait_max,
		   &used) != 7 || line[used] || strlen(name) >= PCB_INSTR_FN_LEN) {
		snprintf(why, len, "not seven fields (%s)", counters_header);
		return -1;
	}
	if (cpu < 0 || cpu >= MAX_CPUS) {
		snprintf(why, len, "CPU %d: past the %d a kernel can have", cpu, MAX_CPUS);
		return -1;
	}
	f = pcb_instr_fn(s, name);
	if (f < 0) {
		if (s->nr_fns == PCB_INSTR_MAX_FNS) {
			snprintf(why, len, "more than %d functions", PCB_INSTR_MAX_FNS);
			return -1;
		}
		f = s->nr_fns++;
		snprintf(s->fn[f], sizeof(s->fn[f]), "%s", name);
	}
	if (grow(s, cpu) < 0) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	if (s->sum[(size_t)cpu * PCB_INSTR_MAX_FNS + (size_t)f].calls ||
	    s->sum[(size_t)cpu * PCB_INSTR_MAX_FNS + (size_t)f].contended) {
		snprintf(why, len, "CPU %d's %s a second time", cpu, name);
		return -1;
	}
	s->sum[(size_t)cpu * PCB_INSTR_MAX_FNS + (size_t)f] = v;
	return 0;
}

int pcb_instr_parse(struct pcb_instr_sums *s, const char *file, const char *text, char *err,
		    size_t errlen)
{
	const char *line = text;
	int lineno = 0;

	memset(s, 0, sizeof(*s));
	while (*line) {
		size_t n = strcspn(line, "\n");
		char buf[256], why[128];

		lineno++;
		if (n >= sizeof(buf)) {
			snprintf(err, errlen, "%s:%d: a line of %zu bytes: not the instrument's", file,
				 lineno, n);
			goto bad;
		}
		memcpy(buf, line, n);
		buf[n] = 0;
		if (lineno == 1 && strcmp(buf, counters_header)) {
			snprintf(err, errlen, "%s:1: '%.80s', not the instrument's header '%s'", file,
				 buf, counters_header);
			goto bad;
		}
		if (lineno > 1 && counters_line(s, buf, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "%s:%d: %s: '%.80s'", file, lineno, why, buf);
			goto bad;
		}
		line += n + (line[n] == '\n');
	}
	if (!lineno) {
		snprintf(err, errlen, "%s: empty: not the instrument's", file);
		goto bad;
	}
	return 0;
bad:
	pcb_instr_sums_free(s);
	return -1;
}

int pcb_instr_read(struct pcb_instr_sums *s, char *err, size_t errlen)
{
	char file[PATH_MAX];
	char *text = read_text(PCB_INSTR_DIR "/memcg_stock", err, errlen);
	int rc;

	memset(s, 0, sizeof(*s));
	if (!text)
		return -1;
	snprintf(file, sizeof(file), "%s%s/memcg_stock", root(), PCB_INSTR_DIR);
	rc = pcb_instr_parse(s, file, text, err, errlen);
	free(text);
	return rc;
}
