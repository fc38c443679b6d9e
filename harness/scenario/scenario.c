/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "ini_lines.h"
#include "scenario.h"

static int known_section(const char *section)
{
	int n = pcb_nr_keys();

	if (!strcmp(section, "sweep"))
		return 1;
	for (int k = 0; k < n; k++)
		if (!strcmp(pcb_key_get(k)->section, section))
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

void pcb_scenario_set_value(struct pcb_scenario *sc, int k, const char *value, int line,
			    const char *opt)
{
	free(sc->value[k]);
	sc->value[k] = trimmed_dup(value);
	sc->line[k] = line;
	sc->opt[k] = opt;
}

/* where a key's value came from, as the start of an error message */
void pcb_scenario_key_error(const struct pcb_scenario *sc, int k, char *err, size_t errlen,
			    const char *fmt, ...)
{
	const struct pcb_key *key = pcb_key_get(k);
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (sc->line[k] > 0)
		snprintf(err, errlen, "%s:%d: %s.%s: %s", sc->file, sc->line[k],
			 key->section, key->name, msg);
	else if (sc->line[k] == -1)
		snprintf(err, errlen, "--set %s.%s: %s", key->section, key->name, msg);
	else if (sc->line[k] == -2)
		snprintf(err, errlen, "%s: %s.%s: %s", sc->opt[k], key->section,
			 key->name, msg);
	else
		snprintf(err, errlen, "%s: %s.%s (default): %s", sc->file, key->section,
			 key->name, msg);
}

int pcb_scenario_key_given(const struct pcb_scenario *sc, int k)
{
	return k >= 0 && k < PCB_MAX_KEYS && sc->line[k] != 0;
}

const struct pcb_design *pcb_scenario_design(const struct pcb_scenario *sc, int i)
{
	return i >= 0 && i < sc->nr_designs ? sc->design[i] : NULL;
}

struct parse_state {
	struct pcb_scenario *sc;
	struct pcb_ini_lines in;
	int seen[PCB_MAX_KEYS];
};

/* a line for inih (ini_lines.c); a [section] header is checked on its own line */
static char *reader(char *str, int num, void *stream)
{
	struct parse_state *ps = stream;

	if (!pcb_ini_next_line(str, num, &ps->in))
		return NULL;

	/* a [section] header is checked on its own line, keys or not */
	{
		const char *p = str, *end;

		while (isspace((unsigned char)*p))
			p++;
		end = strchr(p, ']');
		if (*p == '[' && end && !ps->in.failed) {
			char name[64];
			size_t n = (size_t)(end - p - 1);

			snprintf(name, sizeof(name), "%.*s", (int)n, p + 1);
			if (!known_section(name)) {
				snprintf(ps->in.err, ps->in.errlen, "%s:%d: [%s]: unknown section "
					 "(`pcpbench list` shows the keys)",
					 ps->sc->file, ps->in.line, name);
				ps->in.failed = 1;
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

	if (ps->in.failed)
		return 0;
	if (!*section) {
		snprintf(ps->in.err, ps->in.errlen, "%s:%d: %s: key outside a [section]", sc->file,
			 ps->in.line, name);
		goto fail;
	}
	if (!strcmp(section, "sweep")) {
		char sect[64], key[64];
		const char *dot = strchr(name, '.');

		k = -1;
		if (dot && (size_t)(dot - name) < sizeof(sect)) {
			snprintf(sect, sizeof(sect), "%.*s", (int)(dot - name), name);
			snprintf(key, sizeof(key), "%s", dot + 1);
			k = pcb_key_find(sect, key);
		}
		if (k < 0) {
			snprintf(ps->in.err, ps->in.errlen, "%s:%d: sweep.%s: not a key to sweep "
				 "(write section.key = value, value, ...)", sc->file, ps->in.line, name);
			goto fail;
		}
		if (pcb_key_get(k)->no_sweep) {
			snprintf(ps->in.err, ps->in.errlen, "%s:%d: sweep.%s: not a key to sweep: a "
				 "result holds one value of it (give each value a scenario of its "
				 "own, and `pcpbench compare` the results)", sc->file, ps->in.line,
				 name);
			goto fail;
		}
		if (sc->sweep[k]) {
			snprintf(ps->in.err, ps->in.errlen, "%s:%d: sweep.%s: swept twice", sc->file,
				 ps->in.line, name);
			goto fail;
		}
		sc->sweep[k] = trimmed_dup(value);
		sc->sweep_line[k] = ps->in.line;
		if (!sc->sweep[k] || !*sc->sweep[k]) {
			snprintf(ps->in.err, ps->in.errlen, "%s:%d: sweep.%s: no values", sc->file,
				 ps->in.line, name);
			goto fail;
		}
		return 1;
	}
	k = pcb_key_find(section, name);
	if (k < 0) {
		snprintf(ps->in.err, ps->in.errlen, "%s:%d: %s.%s: unknown key (`pcpbench list` "
			 "shows the keys)", sc->file, ps->in.line, section, name);
		goto fail;
	}
	if (ps->seen[k]) {
		snprintf(ps->in.err, ps->in.errlen, "%s:%d: %s.%s: set twice (first on line %d)",
			 sc->file, ps->in.line, section, name, ps->seen[k]);
		goto fail;
	}
	ps->seen[k] = ps->in.line;
	pcb_scenario_set_value(sc, k, value, ps->in.line, NULL);
	if (!sc->value[k]) {
		snprintf(ps->in.err, ps->in.errlen, "out of memory");
		goto fail;
	}
	return 1;
fail:
	ps->in.failed = 1;
	return 0;
}

static void set_defaults(struct pcb_scenario *sc)
{
	int n = pcb_nr_keys();

	for (int k = 0; k < n; k++)
		pcb_scenario_set_value(sc, k, pcb_key_get(k)->def, 0, NULL);
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
	struct parse_state ps = { .sc = sc, .in = { .file = sc->file, .err = err,
						      .errlen = errlen } };
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

	ps.in.text = sc->text;
	rc = ini_parse_stream(reader, &ps, handler, &ps);
	if (ps.in.failed)
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
	k = pcb_key_find(section, name);
	if (k < 0) {
		snprintf(err, errlen, "--set %s.%s: unknown key (`pcpbench list` shows the keys)",
			 section, name);
		return -1;
	}
	pcb_scenario_set_value(sc, k, eq + 1, -1, NULL);
	/* --set wins over a [sweep] of the same key: one value, and the label says so */
	free(sc->sweep[k]);
	sc->sweep[k] = NULL;
	return 0;
}

void pcb_scenario_override(struct pcb_scenario *sc, int key, const char *value,
			   const char *option)
{
	pcb_scenario_set_value(sc, key, value, -2, option);
}

void pcb_scenario_free(struct pcb_scenario *sc)
{
	for (int k = 0; k < PCB_MAX_KEYS; k++) {
		free(sc->value[k]);
		free(sc->sweep[k]);
	}
	free(sc->text);
	free(sc->config);
	hwloc_bitmap_free(sc->workers);
	hwloc_bitmap_free(sc->workers_asked);
	hwloc_bitmap_free(sc->isolated);
	memset(sc, 0, sizeof(*sc));
}
