/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sweep.h"

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

int pcb_sweep_combos(const struct pcb_scenario *sc)
{
	int n = 1;

	/* an unchecked sweep may make more than an int counts: INT_MAX then */
	for (int k = 0; k < PCB_MAX_KEYS; k++)
		if (sc->sweep[k]) {
			int values = list_item(sc->sweep[k], -1, NULL, 0);

			n = n > INT_MAX / values ? INT_MAX : n * values;
		}
	return n;
}

/* sweep.section.key on its line, as errors name it */
static void sweep_error(const struct pcb_scenario *sc, int k, char *err, size_t errlen,
			const char *what)
{
	const struct pcb_key *key = pcb_key_get(k);

	snprintf(err, errlen, "%s:%d: sweep.%s.%s: %s", sc->file, sc->sweep_line[k], key->section,
		 key->name, what);
}

/* key k's values: none empty or too long, none twice; their count, or -1 with err */
static int check_values(const struct pcb_scenario *sc, int k, size_t *longest, char *err,
			size_t errlen)
{
	char msg[PCB_SWEEP_VALUE_LEN * 2 + 64];
	int n = list_item(sc->sweep[k], -1, NULL, 0);

	*longest = 0;
	for (int i = 0; i < n; i++) {
		char a[PCB_SWEEP_VALUE_LEN + 1], b[PCB_SWEEP_VALUE_LEN + 1];

		list_item(sc->sweep[k], i, a, sizeof(a));
		if (strlen(a) >= PCB_SWEEP_VALUE_LEN || !*a) {
			sweep_error(sc, k, err, errlen, !*a ? "an empty value" :
				    "a value longer than the label can hold");
			return -1;
		}
		*longest = strlen(a) > *longest ? strlen(a) : *longest;
		for (int j = 0; j < i; j++) {
			list_item(sc->sweep[k], j, b, sizeof(b));
			if (!pcb_key_same_value(pcb_key_get(k), a, b))
				continue;
			if (!strcmp(a, b))
				snprintf(msg, sizeof(msg), "'%s' is listed twice", a);
			else
				snprintf(msg, sizeof(msg), "'%s' and '%s' are one value, listed "
					 "twice", b, a);
			sweep_error(sc, k, err, errlen, msg);
			return -1;
		}
	}
	return n;
}

int pcb_sweep_check(const struct pcb_scenario *sc, char *err, size_t errlen)
{
	double combos = 1;
	size_t label = 0;
	char msg[128];

	for (int k = 0; k < PCB_MAX_KEYS; k++) {
		size_t longest;
		int n;

		if (!sc->sweep[k])
			continue;
		n = check_values(sc, k, &longest, err, errlen);
		if (n < 0)
			return -1;
		combos *= n;
		label += strlen(pcb_key_get(k)->name) + 2 + longest;
		if (combos > PCB_MAX_CONFIGS) {
			snprintf(msg, sizeof(msg), "the [sweep] makes %.0f configurations or more "
				 "(at most %d)", combos, PCB_MAX_CONFIGS);
			sweep_error(sc, k, err, errlen, msg);
			return -1;
		}
		if (label >= PCB_LABEL_LEN) {
			sweep_error(sc, k, err, errlen, "the configurations' labels would be longer "
				    "than the tables can name");
			return -1;
		}
	}
	return (int)combos;
}

void pcb_sweep_apply(struct pcb_scenario *sc, int index)
{
	sc->label[0] = 0;
	for (int k = 0; k < PCB_MAX_KEYS; k++) {
		char v[PCB_SWEEP_VALUE_LEN];
		int n;

		if (!sc->sweep[k])
			continue;
		n = list_item(sc->sweep[k], -1, NULL, 0);
		list_item(sc->sweep[k], index % n, v, sizeof(v));
		index /= n;
		pcb_scenario_set_value(sc, k, v, sc->sweep_line[k], NULL);
		snprintf(sc->label + strlen(sc->label), sizeof(sc->label) - strlen(sc->label),
			 "%s%s=%s", sc->label[0] ? " " : "", pcb_key_get(k)->name, v);
	}
}
