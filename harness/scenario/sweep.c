/* SPDX-License-Identifier: MIT */
#include <ctype.h>
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

	for (int k = 0; k < PCB_MAX_KEYS; k++)
		if (sc->sweep[k])
			n *= list_item(sc->sweep[k], -1, NULL, 0);
	return n;
}

void pcb_sweep_apply(struct pcb_scenario *sc, int index)
{
	sc->label[0] = 0;
	for (int k = 0; k < PCB_MAX_KEYS; k++) {
		char v[128];
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
