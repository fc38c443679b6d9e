/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "scenario.h"

const struct pcb_key_info pcb_keys[K_NR] = {
	[K_SCENARIO_NAME] = { "scenario", "name", "",
		"name of the result directory and the tables (default: the file name)" },
	[K_SCENARIO_DESCRIPTION] = { "scenario", "description", "",
		"one line saying what the scenario shows" },
	[K_RUN_DESIGNS] = { "run", "designs", "local_lock, spinlock",
		"designs to compare, the first is the baseline of the Diff block" },
	[K_RUN_WORKLOAD] = { "run", "workload", "charge",
		"what each worker runs (see workloads)" },
	[K_RUN_TIMING] = { "run", "timing", "batch",
		"call: every call timed; batch: MEMCG_CHARGE_BATCH/nr_pages calls between two reads" },
	[K_RUN_RUNS] = { "run", "runs", "6",
		"repetitions; a row is the mean of the run means (1..1000)" },
	[K_RUN_DURATION_MS] = { "run", "duration_ms", "2000",
		"length of each measured run in ms (1..3600000)" },
	[K_RUN_OPS] = { "run", "ops", "0",
		"if > 0, each worker stops after this many workload operations instead" },
	[K_RUN_WARMUP_MS] = { "run", "warmup_ms", "200",
		"unmeasured warm-up before each run, ms (0..60000)" },
	[K_RUN_WORK_DELIVERY] = { "run", "work_delivery", "kworker",
		"how drain work reaches its CPU in work-based designs: kworker, signal, poll" },
	[K_RUN_IRQ_MODEL] = { "run", "irq_model", "none",
		"cost of local_irq_save/restore in the lock paths: none, pushf_popf" },
	[K_RUN_ACCOUNTING] = { "run", "accounting", "memcg",
		"seed 003's kernels: memcg (charge the scenario's memcgs), none, always, "
		"static_key, static_key_on (batch charge workload, root memcg only)" },
	[K_CPUS_WORKERS] = { "cpus", "workers", "all,!0",
		"CPU set of the workers: all, node:N, isolated, housekeeping, N, N-M, !term" },
	[K_CPUS_ISOLATED] = { "cpus", "isolated", "sysfs",
		"what cpu_is_isolated() says: sysfs, none, or a CPU list" },
	[K_MEMCG_DEPTH] = { "memcg", "depth", "2",
		"levels from the root to the charged memcg, root included (2..32)" },
	[K_STOCK_SLOTS] = { "stock", "slots", "1",
		"memcgs a stock caches, NR_MEMCG_STOCK of seed 002 (1..7; > 1 uses its layout)" },
	[K_STOCK_EVICTION] = { "stock", "eviction", "random",
		"the slot a new memcg takes when all are used: random, round_robin" },
	[K_STOCK_NOCACHE] = { "stock", "nocache", "all",
		"nocache design: which CPUs opt out of caching: all, isolated" },
	[K_WORKLOAD_NR_PAGES] = { "workload", "nr_pages", "1",
		"pages per charge and uncharge (1..512; batch timing: 1..64)" },
	[K_WORKLOAD_HOLD] = { "workload", "hold", "512",
		"most pages (or objects) a worker holds per memcg before it must free (1..1048576)" },
	[K_WORKLOAD_UNCHARGE_REFILL] = { "workload", "uncharge_refill", "25",
		"percent of uncharges that go back through refill_stock() (0..100)" },
	[K_WORKLOAD_OBJECT_SIZE] = { "workload", "object_size", "8",
		"kmalloc() size in bytes; the charge adds the obj_cgroup pointer (1..8192)" },
	[K_WORKLOAD_OBJ_SHARE] = { "workload", "obj_share", "55",
		"mixed: percent of operations that allocate or free objects (0..100)" },
	[K_WORKLOAD_MEMCGS] = { "workload", "memcgs", "1",
		"multi_memcg: memcgs each worker charges in turn (1..60)" },
	[K_WORKLOAD_BURST] = { "workload", "burst", "1048576",
		"batch kmalloc: allocations timed as one burst (1..16777216)" },
	[K_WORKLOAD_SEED] = { "workload", "seed", "1",
		"seed of each worker's charge/uncharge sequence (mixed with its CPU)" },
	[K_DRAIN_RATE_HZ] = { "drain", "rate_hz", "0",
		"drain_all_stock() calls a second from the coordinator (0: none; 0..1000000)" },
	[K_DRAIN_ARRIVALS] = { "drain", "arrivals", "periodic",
		"when they come: periodic, poisson" },
	[K_DRAIN_BURST] = { "drain", "burst", "1",
		"drains back to back at each arrival (1..1000)" },
	[K_DRAIN_COUNT] = { "drain", "count", "0",
		"if > 0, exactly this many drains a run, evenly spread (overrides rate_hz)" },
	[K_DRAIN_TARGET] = { "drain", "target", "root",
		"memcg drained: root (the whole tree) or leaf (the workers' memcg)" },
	[K_DRAIN_CPU] = { "drain", "cpu", "auto",
		"the coordinator's CPU: auto (a housekeeping CPU without a worker, if any) or N" },
	[K_DRAIN_STOCKS] = { "drain", "stocks", "0",
		"stocks drain_all_stock() walks: the workers' plus idle virtual CPUs up to this "
		"many (0: workers only; ..1024)" },
	[K_INTERRUPTS_THRESHOLD_NS] = { "interrupts", "threshold_ns", "0",
		"a gap between operations longer than this is an interruption "
		"(0: 2 us or 20 operations, whichever is longer)" },
	[K_COUNTERS_EVENTS] = { "counters", "events", "",
		"perf events by libpfm4 name, read per thread at the start and end of each run" },
	[K_COUNTERS_KERNEL] = { "counters", "kernel", "no",
		"count hardware events in kernel mode too, where permitted (no, yes)" },
	[K_COUNTERS_PER_CALL] = { "counters", "per_call", "off",
		"call timing: read the counters around every timed call, by rdpmc where possible (off, on)" },
};

static int find_key(const char *section, const char *name)
{
	for (int k = 0; k < K_NR; k++)
		if (!strcmp(pcb_keys[k].section, section) && !strcmp(pcb_keys[k].name, name))
			return k;
	return -1;
}

static int known_section(const char *section)
{
	if (!strcmp(section, "sweep"))
		return 1;
	for (int k = 0; k < K_NR; k++)
		if (!strcmp(pcb_keys[k].section, section))
			return 1;
	return 0;
}

static char *trimmed_dup(const char *s)
{
	const char *e;
	char *d;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	d = malloc((size_t)(e - s) + 1);
	if (d) {
		memcpy(d, s, (size_t)(e - s));
		d[e - s] = 0;
	}
	return d;
}

static void set_value(struct pcb_scenario *sc, int k, const char *value, int line, const char *opt)
{
	free(sc->value[k]);
	sc->value[k] = trimmed_dup(value);
	sc->line[k] = line;
	sc->opt[k] = opt;
}

/* where a key's value came from, as the start of an error message */
static void key_error(const struct pcb_scenario *sc, int k, char *err, size_t errlen,
		      const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (sc->line[k] > 0)
		snprintf(err, errlen, "%s:%d: %s.%s: %s", sc->file, sc->line[k],
			 pcb_keys[k].section, pcb_keys[k].name, msg);
	else if (sc->line[k] == -1)
		snprintf(err, errlen, "--set %s.%s: %s", pcb_keys[k].section, pcb_keys[k].name, msg);
	else if (sc->line[k] == -2)
		snprintf(err, errlen, "%s: %s.%s: %s", sc->opt[k], pcb_keys[k].section,
			 pcb_keys[k].name, msg);
	else
		snprintf(err, errlen, "%s: %s.%s (default): %s", sc->file, pcb_keys[k].section,
			 pcb_keys[k].name, msg);
}

struct parse_state {
	struct pcb_scenario *sc;
	int line;		/* the line the reader handed inih last */
	int seen[K_NR];
	char *err;
	size_t errlen;
	int failed;
	const char *text;	/* what remains to read */
};

static char *reader(char *str, int num, void *stream)
{
	struct parse_state *ps = stream;
	const char *nl;
	size_t len;

	if (!*ps->text)
		return NULL;
	nl = strchr(ps->text, '\n');
	len = nl ? (size_t)(nl - ps->text) + 1 : strlen(ps->text);
	if (len > (size_t)num - 1)
		len = (size_t)num - 1;
	memcpy(str, ps->text, len);
	str[len] = 0;
	ps->text += len;
	ps->line++;

	/* a [section] header is checked on its own line, keys or not */
	{
		const char *p = str, *end;

		while (isspace((unsigned char)*p))
			p++;
		end = strchr(p, ']');
		if (*p == '[' && end && !ps->failed) {
			char name[64];
			size_t n = (size_t)(end - p - 1);

			snprintf(name, sizeof(name), "%.*s", (int)n, p + 1);
			if (!known_section(name)) {
				snprintf(ps->err, ps->errlen, "%s:%d: [%s]: unknown section "
					 "(sections: scenario, run, cpus, memcg, stock, workload, drain, interrupts, counters, sweep)",
					 ps->sc->file, ps->line, name);
				ps->failed = 1;
				return NULL;
			}
		}
	}
	return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse_state *ps = user;
	struct pcb_scenario *sc = ps->sc;
	int k;

	if (ps->failed)
		return 0;
	if (!*section) {
		snprintf(ps->err, ps->errlen, "%s:%d: %s: key outside a [section]", sc->file,
			 ps->line, name);
		goto fail;
	}
	if (!strcmp(section, "sweep")) {
		char sect[64], key[64];
		const char *dot = strchr(name, '.');

		k = -1;
		if (dot && (size_t)(dot - name) < sizeof(sect)) {
			snprintf(sect, sizeof(sect), "%.*s", (int)(dot - name), name);
			snprintf(key, sizeof(key), "%s", dot + 1);
			k = find_key(sect, key);
		}
		if (k < 0 || k == K_SCENARIO_NAME || k == K_SCENARIO_DESCRIPTION) {
			snprintf(ps->err, ps->errlen, "%s:%d: sweep.%s: not a key to sweep "
				 "(write section.key = value, value, ...)", sc->file, ps->line, name);
			goto fail;
		}
		if (sc->sweep[k]) {
			snprintf(ps->err, ps->errlen, "%s:%d: sweep.%s: swept twice", sc->file,
				 ps->line, name);
			goto fail;
		}
		sc->sweep[k] = trimmed_dup(value);
		sc->sweep_line[k] = ps->line;
		if (!sc->sweep[k] || !*sc->sweep[k]) {
			snprintf(ps->err, ps->errlen, "%s:%d: sweep.%s: no values", sc->file,
				 ps->line, name);
			goto fail;
		}
		return 1;
	}
	k = find_key(section, name);
	if (k < 0) {
		snprintf(ps->err, ps->errlen, "%s:%d: %s.%s: unknown key (`pcpbench list` "
			 "shows the keys)", sc->file, ps->line, section, name);
		goto fail;
	}
	if (ps->seen[k]) {
		snprintf(ps->err, ps->errlen, "%s:%d: %s.%s: set twice (first on line %d)",
			 sc->file, ps->line, section, name, ps->seen[k]);
		goto fail;
	}
	ps->seen[k] = ps->line;
	set_value(sc, k, value, ps->line, NULL);
	if (!sc->value[k]) {
		snprintf(ps->err, ps->errlen, "out of memory");
		goto fail;
	}
	return 1;
fail:
	ps->failed = 1;
	return 0;
}

static void set_defaults(struct pcb_scenario *sc)
{
	for (int k = 0; k < K_NR; k++)
		set_value(sc, k, pcb_keys[k].def, 0, NULL);
}

static char *read_file(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(err, errlen, "%s: out of memory", path);
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[len] = 0;
	if (strlen(buf) != len) {
		snprintf(err, errlen, "%s: not a text file (NUL byte)", path);
		free(buf);
		return NULL;
	}
	return buf;
}

int pcb_scenario_load_text(struct pcb_scenario *sc, const char *file, const char *text,
			   char *err, size_t errlen)
{
	struct parse_state ps = { .sc = sc, .err = err, .errlen = errlen };
	const char *base;
	int rc;

	memset(sc, 0, sizeof(*sc));
	snprintf(sc->file, sizeof(sc->file), "%s", file);
	set_defaults(sc);
	sc->text = strdup(text);
	if (!sc->text) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}

	ps.text = sc->text;
	rc = ini_parse_stream(reader, &ps, handler, &ps);
	if (ps.failed)
		return -1;
	if (rc > 0) {
		snprintf(err, errlen, "%s:%d: syntax error: expected [section], key = value, "
			 "or a comment", file, rc);
		return -1;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s: cannot be parsed", file);
		return -1;
	}

	/* the name defaults to the file name without .scn */
	if (!*sc->value[K_SCENARIO_NAME]) {
		char name[64];

		base = strrchr(file, '/');
		base = base ? base + 1 : file;
		snprintf(name, sizeof(name), "%s", base);
		if (strlen(name) > 4 && !strcmp(name + strlen(name) - 4, ".scn"))
			name[strlen(name) - 4] = 0;
		free(sc->value[K_SCENARIO_NAME]);
		sc->value[K_SCENARIO_NAME] = strdup(name);
	}
	return 0;
}

int pcb_scenario_load(struct pcb_scenario *sc, const char *path, char *err, size_t errlen)
{
	char *text = read_file(path, err, errlen);
	int rc;

	if (!text) {
		memset(sc, 0, sizeof(*sc));
		return -1;
	}
	rc = pcb_scenario_load_text(sc, path, text, err, errlen);
	free(text);
	return rc;
}

int pcb_scenario_set(struct pcb_scenario *sc, const char *assignment, char *err, size_t errlen)
{
	const char *eq = strchr(assignment, '=');
	const char *dot = strchr(assignment, '.');
	char section[64], name[64];
	int k;

	if (!eq || !dot || dot > eq || (size_t)(dot - assignment) >= sizeof(section) ||
	    (size_t)(eq - dot - 1) >= sizeof(name)) {
		snprintf(err, errlen, "--set %s: expected section.key=value", assignment);
		return -1;
	}
	memcpy(section, assignment, (size_t)(dot - assignment));
	section[dot - assignment] = 0;
	memcpy(name, dot + 1, (size_t)(eq - dot - 1));
	name[eq - dot - 1] = 0;
	k = find_key(section, name);
	if (k < 0) {
		snprintf(err, errlen, "--set %s.%s: unknown key (`pcpbench list` shows the keys)",
			 section, name);
		return -1;
	}
	set_value(sc, k, eq + 1, -1, NULL);
	/* --set wins over a [sweep] of the same key: one value, and the label says so */
	free(sc->sweep[k]);
	sc->sweep[k] = NULL;
	return 0;
}

void pcb_scenario_override(struct pcb_scenario *sc, enum pcb_key_id key, const char *value,
			   const char *option)
{
	set_value(sc, key, value, -2, option);
}

static int get_long(struct pcb_scenario *sc, int k, long min, long max, long *out,
		    char *err, size_t errlen)
{
	const char *s = sc->value[k];
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno) {
		key_error(sc, k, err, errlen, "'%s' is not an integer", s);
		return -1;
	}
	if (v < min || v > max) {
		key_error(sc, k, err, errlen, "%ld is out of range (%ld..%ld)", v, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

static int get_choice(struct pcb_scenario *sc, int k, const char *const *choices, int n,
		      int *out, char *err, size_t errlen)
{
	char list[256] = "";

	for (int i = 0; i < n; i++) {
		if (!strcmp(sc->value[k], choices[i])) {
			*out = i;
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 choices[i]);
	}
	key_error(sc, k, err, errlen, "'%s' is not one of: %s", sc->value[k], list);
	return -1;
}

static int get_designs(struct pcb_scenario *sc, char *err, size_t errlen)
{
	char *copy = strdup(sc->value[K_RUN_DESIGNS]), *save = NULL, *tok;
	int rc = 0;

	sc->nr_designs = 0;
	for (tok = strtok_r(copy, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		const struct pcb_design *d = pcb_design_find(tok);

		if (!d) {
			char list[256] = "";

			for (int i = 0; pcb_designs[i]; i++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 i ? ", " : "", pcb_designs[i]->name);
			key_error(sc, K_RUN_DESIGNS, err, errlen, "unknown design '%s' (designs: %s)",
				  tok, list);
			rc = -1;
			break;
		}
		for (int i = 0; i < sc->nr_designs; i++)
			if (sc->design[i] == d) {
				key_error(sc, K_RUN_DESIGNS, err, errlen, "design '%s' listed twice", tok);
				rc = -1;
			}
		if (rc)
			break;
		if (sc->nr_designs == PCB_MAX_DESIGNS) {
			key_error(sc, K_RUN_DESIGNS, err, errlen, "more than %d designs", PCB_MAX_DESIGNS);
			rc = -1;
			break;
		}
		sc->design[sc->nr_designs++] = d;
	}
	if (!rc && !sc->nr_designs) {
		key_error(sc, K_RUN_DESIGNS, err, errlen, "no design given");
		rc = -1;
	}
	free(copy);
	return rc;
}

int pcb_scenario_finish(struct pcb_scenario *sc, struct pcb_topo *topo, char *err, size_t errlen)
{
	static const char *const timings[] = { "call", "batch" };
	const char *workloads[PCB_WL_NR];
	char msg[512];
	long v;
	int c;

	for (int i = 0; i < PCB_WL_NR; i++)
		workloads[i] = pcb_workloads[i].name;

	if (strlen(sc->value[K_SCENARIO_NAME]) >= sizeof(sc->name)) {
		key_error(sc, K_SCENARIO_NAME, err, errlen, "longer than %zu characters",
			  sizeof(sc->name) - 1);
		return -1;
	}
	for (const char *p = sc->value[K_SCENARIO_NAME]; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_.", *p)) {
			key_error(sc, K_SCENARIO_NAME, err, errlen,
				  "'%s': use letters, digits, '-', '_' and '.' only",
				  sc->value[K_SCENARIO_NAME]);
			return -1;
		}
	if (!*sc->value[K_SCENARIO_NAME]) {
		key_error(sc, K_SCENARIO_NAME, err, errlen, "empty");
		return -1;
	}
	snprintf(sc->name, sizeof(sc->name), "%s", sc->value[K_SCENARIO_NAME]);

	if (get_designs(sc, err, errlen) < 0)
		return -1;
	if (get_choice(sc, K_RUN_WORKLOAD, workloads, PCB_WL_NR, &c, err, errlen) < 0)
		return -1;
	sc->workload = (enum pcb_workload)c;
	if (get_choice(sc, K_RUN_TIMING, timings, 2, &c, err, errlen) < 0)
		return -1;
	sc->timing = (enum pcb_timing)c;
	if (get_long(sc, K_RUN_RUNS, 1, 1000, &v, err, errlen) < 0)
		return -1;
	sc->runs = (int)v;
	if (get_long(sc, K_RUN_DURATION_MS, 1, 3600000, &sc->duration_ms, err, errlen) < 0 ||
	    get_long(sc, K_RUN_OPS, 0, 1L << 40, &sc->ops, err, errlen) < 0 ||
	    get_long(sc, K_RUN_WARMUP_MS, 0, 60000, &sc->warmup_ms, err, errlen) < 0)
		return -1;
	if (get_long(sc, K_MEMCG_DEPTH, 2, 32, &v, err, errlen) < 0)
		return -1;
	sc->memcg_depth = (int)v;
	if (get_long(sc, K_WORKLOAD_NR_PAGES, 1, 512, &v, err, errlen) < 0)
		return -1;
	sc->nr_pages = (unsigned int)v;
	if (sc->timing == PCB_TIMING_BATCH && sc->nr_pages > 64) {
		key_error(sc, K_WORKLOAD_NR_PAGES, err, errlen, "%u: batch timing drives the stock "
			  "between empty and MEMCG_CHARGE_BATCH (64) pages, so nr_pages must be "
			  "at most 64 (or use run.timing = call)", sc->nr_pages);
		return -1;
	}
	if (get_long(sc, K_WORKLOAD_HOLD, 1, 1L << 20, &sc->hold, err, errlen) < 0)
		return -1;
	if (sc->hold < (long)sc->nr_pages) {
		key_error(sc, K_WORKLOAD_HOLD, err, errlen, "%ld is less than nr_pages (%u)",
			  sc->hold, sc->nr_pages);
		return -1;
	}
	{
		static const char *const deliveries[] = { "kworker", "signal", "poll" };
		static const char *const irq[] = { "none", "pushf_popf" };
		static const char *const eviction[] = { "random", "round_robin" };
		static const char *const nocache[] = { "all", "isolated" };

		if (get_choice(sc, K_RUN_WORK_DELIVERY, deliveries, 3, &sc->delivery, err, errlen) < 0 ||
		    get_choice(sc, K_RUN_IRQ_MODEL, irq, 2, &sc->irq_model, err, errlen) < 0 ||
		    get_choice(sc, K_STOCK_EVICTION, eviction, 2, &sc->eviction_round_robin, err, errlen) < 0 ||
		    get_choice(sc, K_STOCK_NOCACHE, nocache, 2, &sc->nocache_isolated_only, err, errlen) < 0)
			return -1;
	}
	{
		static const char *const acct[] = { "memcg", "none", "always", "static_key",
						    "static_key_on" };

		if (get_choice(sc, K_RUN_ACCOUNTING, acct, 5, &sc->accounting, err, errlen) < 0)
			return -1;
		if (sc->accounting != PCB_ACCT_MEMCG &&
		    (sc->workload != PCB_WL_CHARGE || sc->timing != PCB_TIMING_BATCH)) {
			key_error(sc, K_RUN_ACCOUNTING, err, errlen, "%s needs run.workload = charge "
				  "and run.timing = batch", sc->value[K_RUN_ACCOUNTING]);
			return -1;
		}
	}
	if (get_long(sc, K_STOCK_SLOTS, 1, 7, &v, err, errlen) < 0)
		return -1;
	sc->slots = (int)v;
	if (get_long(sc, K_WORKLOAD_OBJECT_SIZE, 1, 8192, &v, err, errlen) < 0)
		return -1;
	sc->object_size = (unsigned int)v;
	if (get_long(sc, K_WORKLOAD_OBJ_SHARE, 0, 100, &v, err, errlen) < 0)
		return -1;
	sc->obj_share = (int)v;
	if (get_long(sc, K_WORKLOAD_MEMCGS, 1, 60, &v, err, errlen) < 0)
		return -1;
	sc->memcgs = (int)v;
	if (sc->memcg_depth - 1 + sc->memcgs > 64) {
		key_error(sc, K_WORKLOAD_MEMCGS, err, errlen, "%d memcgs below a depth of %d need "
			  "more than 64 memcg ids", sc->memcgs, sc->memcg_depth);
		return -1;
	}
	if (get_long(sc, K_WORKLOAD_BURST, 1, 1L << 24, &sc->burst, err, errlen) < 0)
		return -1;
	if (sc->timing == PCB_TIMING_BATCH && sc->workload != PCB_WL_CHARGE &&
	    sc->workload != PCB_WL_KMALLOC) {
		key_error(sc, K_RUN_TIMING, err, errlen, "batch timing is defined for the charge "
			  "and kmalloc workloads; use call timing for %s",
			  pcb_workloads[sc->workload].name);
		return -1;
	}
	if (get_long(sc, K_WORKLOAD_UNCHARGE_REFILL, 0, 100, &v, err, errlen) < 0)
		return -1;
	sc->uncharge_refill = (int)v;
	if (get_long(sc, K_WORKLOAD_SEED, 0, LONG_MAX, &v, err, errlen) < 0)
		return -1;
	sc->seed = (unsigned long)v;

	{
		static const char *const yesno[] = { "no", "yes" }, *const offon[] = { "off", "on" };
		int kernel, per_call;

		if (get_choice(sc, K_COUNTERS_KERNEL, yesno, 2, &kernel, err, errlen) < 0 ||
		    get_choice(sc, K_COUNTERS_PER_CALL, offon, 2, &per_call, err, errlen) < 0)
			return -1;
		if (pcb_counters_parse(sc->value[K_COUNTERS_EVENTS], kernel, &sc->counters, msg,
				       sizeof(msg)) < 0) {
			key_error(sc, K_COUNTERS_EVENTS, err, errlen, "%s", msg);
			return -1;
		}
		if (per_call && sc->timing != PCB_TIMING_CALL) {
			key_error(sc, K_COUNTERS_PER_CALL, err, errlen, "per-call counter reads need "
				  "run.timing = call");
			return -1;
		}
		if (per_call && !sc->counters.n) {
			key_error(sc, K_COUNTERS_PER_CALL, err, errlen, "no counters.events to read");
			return -1;
		}
		sc->counters.per_call = per_call;
	}

	{
		static const char *const arrivals[] = { "periodic", "poisson" };
		static const char *const targets[] = { "root", "leaf" };
		char *end;

		errno = 0;
		sc->drain_rate_hz = strtod(sc->value[K_DRAIN_RATE_HZ], &end);
		if (*end || errno || !*sc->value[K_DRAIN_RATE_HZ] || sc->drain_rate_hz < 0 ||
		    sc->drain_rate_hz > 1e6) {
			key_error(sc, K_DRAIN_RATE_HZ, err, errlen, "'%s' is not a rate from 0 to 1000000",
				  sc->value[K_DRAIN_RATE_HZ]);
			return -1;
		}
		if (get_choice(sc, K_DRAIN_ARRIVALS, arrivals, 2, &sc->drain_poisson, err, errlen) < 0 ||
		    get_choice(sc, K_DRAIN_TARGET, targets, 2, &sc->drain_target_leaf, err, errlen) < 0)
			return -1;
		if (get_long(sc, K_DRAIN_BURST, 1, 1000, &v, err, errlen) < 0)
			return -1;
		sc->drain_burst = (int)v;
		if (get_long(sc, K_DRAIN_COUNT, 0, 100000000, &sc->drain_count, err, errlen) < 0)
			return -1;
		if (get_long(sc, K_DRAIN_STOCKS, 0, 1024, &v, err, errlen) < 0)
			return -1;
		sc->drain_stocks = (int)v;
		if (get_long(sc, K_INTERRUPTS_THRESHOLD_NS, 0, 1000000000L, &sc->gap_threshold_ns,
			     err, errlen) < 0)
			return -1;
		if (!strcmp(sc->value[K_DRAIN_CPU], "auto")) {
			sc->drain_cpu = -1;
		} else if (get_long(sc, K_DRAIN_CPU, 0, 1 << 20, &v, err, errlen) < 0) {
			return -1;
		} else if (!hwloc_bitmap_isset(topo->all, (unsigned int)v)) {
			key_error(sc, K_DRAIN_CPU, err, errlen, "CPU %ld is not here", v);
			return -1;
		} else {
			sc->drain_cpu = (int)v;
		}
	}

	if (pcb_topo_set_isolated(topo, sc->value[K_CPUS_ISOLATED], msg, sizeof(msg)) < 0) {
		key_error(sc, K_CPUS_ISOLATED, err, errlen, "%s", msg);
		return -1;
	}
	if (!sc->workers)
		sc->workers = hwloc_bitmap_alloc();
	if (pcb_cpuset_parse(topo, sc->value[K_CPUS_WORKERS], sc->workers, msg, sizeof(msg)) < 0) {
		key_error(sc, K_CPUS_WORKERS, err, errlen, "%s", msg);
		return -1;
	}
	if (hwloc_bitmap_iszero(sc->workers)) {
		char all[256];

		pcb_cpuset_format(topo->all, all, sizeof(all));
		key_error(sc, K_CPUS_WORKERS, err, errlen, "'%s' leaves no CPU (CPUs here: %s)",
			  sc->value[K_CPUS_WORKERS], all);
		return -1;
	}
	return 0;
}

/* the n-th comma-separated item of list, trimmed, into buf; count returned */
static int list_item(const char *list, int n, char *buf, size_t len)
{
	int count = 0;
	const char *p = list;

	for (;;) {
		const char *end = strchr(p, ',');
		size_t l = end ? (size_t)(end - p) : strlen(p);

		if (count == n && buf) {
			while (l && isspace((unsigned char)*p)) {
				p++;
				l--;
			}
			while (l && isspace((unsigned char)p[l - 1]))
				l--;
			snprintf(buf, len, "%.*s", (int)l, p);
		}
		count++;
		if (!end)
			return count;
		p = end + 1;
	}
}

int pcb_scenario_combos(const struct pcb_scenario *sc)
{
	int n = 1;

	for (int k = 0; k < K_NR; k++)
		if (sc->sweep[k])
			n *= list_item(sc->sweep[k], -1, NULL, 0);
	return n;
}

void pcb_scenario_apply_combo(struct pcb_scenario *sc, int index)
{
	sc->label[0] = 0;
	for (int k = 0; k < K_NR; k++) {
		char v[128];
		int n;

		if (!sc->sweep[k])
			continue;
		n = list_item(sc->sweep[k], -1, NULL, 0);
		list_item(sc->sweep[k], index % n, v, sizeof(v));
		index /= n;
		set_value(sc, k, v, sc->sweep_line[k], NULL);
		snprintf(sc->label + strlen(sc->label), sizeof(sc->label) - strlen(sc->label),
			 "%s%s=%s", sc->label[0] ? " " : "", pcb_keys[k].name, v);
	}
}

void pcb_scenario_free(struct pcb_scenario *sc)
{
	for (int k = 0; k < K_NR; k++) {
		free(sc->value[k]);
		free(sc->sweep[k]);
	}
	free(sc->text);
	hwloc_bitmap_free(sc->workers);
	memset(sc, 0, sizeof(*sc));
}
