// SPDX-License-Identifier: MIT
/*
 * A model's rules across its keys (pcb/keys.h's pcb_refusal): built into
 * the program, where a scenario's finish applies them, and into the
 * kernel backend's module, which applies them again to the plan it is
 * handed (kmod/plan.c), so that the two refuse the same configurations.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pcb/keys.h"

int pcb_refuse(struct pcb_refusal *r, int key, const char *fmt, ...)
{
	va_list ap;

	r->key = key;
	r->timing_first = false;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
	return -1;
}

long pcb_key_value(const struct pcb_key *k, const void *config)
{
	const unsigned char *p = (const unsigned char *)config + k->offset;
	int i;
	long l;

	if (k->size == sizeof(int)) {
		memcpy(&i, p, sizeof(i));
		return i;
	}
	if (k->size == sizeof(long)) {
		memcpy(&l, p, sizeof(l));
		return l;
	}
	return 0;
}

/* the value k's default puts in its field: 0, or -1 where it is no integer or choice */
static int key_default(const struct pcb_key *k, long *v)
{
	const char *s = k->def;
	bool neg = *s == '-';
	long n = 0;

	if (k->type == PCB_KEY_CHOICE) {
		for (n = 0; k->choices[n]; n++) {
			if (!strcmp(k->choices[n], s)) {
				*v = n;
				return 0;
			}
		}
		return -1;
	}
	if (k->type != PCB_KEY_INT)
		return -1;
	s += neg;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		n = n * 10 + (*s - '0');
	}
	*v = neg ? -n : n;
	return 0;
}

int pcb_rule_unread(const struct pcb_key *keys, const struct pcb_own_key *own, size_t n,
		    const void *config, const char *run, struct pcb_refusal *r)
{
	for (size_t i = 0; i < n; i++) {
		const struct pcb_key *k = &keys[own[i].key];
		long v = pcb_key_value(k, config), def;

		if (own[i].read || !k->size || key_default(k, &def) < 0 || v == def)
			continue;
		if (k->type == PCB_KEY_CHOICE && v >= 0)
			return pcb_refuse(r, own[i].key, "%s: read by %s alone; this is %s",
					  k->choices[v], own[i].by, run);
		return pcb_refuse(r, own[i].key, "%ld: read by %s alone; this is %s", v,
				  own[i].by, run);
	}
	return 0;
}
