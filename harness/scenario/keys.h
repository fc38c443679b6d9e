/* SPDX-License-Identifier: MIT */
/*
 * Scenario keys, each declared once with its type, range, default and the
 * field its value lands in. The harness declares its own (scenario/keys.c),
 * each model its own (in its folder); the reader, `pcpbench list`,
 * result.json's settings and every error message come from these tables.
 */
#ifndef PCB_SCENARIO_KEYS_H
#define PCB_SCENARIO_KEYS_H

#include <stdbool.h>
#include <stddef.h>

enum pcb_key_type {
	PCB_KEY_STRING,			/* kept as written */
	PCB_KEY_INT,			/* an integer in min..max, into an int or a long */
	PCB_KEY_DOUBLE,			/* a finite number in dmin..dmax */
	PCB_KEY_CHOICE,			/* one of choices[], its index into an int */
	PCB_KEY_SPECIAL,		/* read by code that knows it (CPU sets, designs) */
};

struct pcb_key {
	const char *section;
	const char *name;
	const char *def;
	const char *help;
	enum pcb_key_type type;
	long min, max;			/* PCB_KEY_INT */
	double dmin, dmax;		/* PCB_KEY_DOUBLE */
	const char *const *choices;	/* PCB_KEY_CHOICE, NULL-terminated */
	size_t offset;			/* where the value lands: the harness's or the model's settings */
	unsigned char size;		/* and its width, bytes (0: nowhere) */
	bool no_sweep;			/* cannot be swept */
};

#define PCB_FIELD(st, field) .offset = offsetof(st, field), \
	.size = (unsigned char)sizeof(((st *)0)->field)

#define PCB_KEY_INT_FIELD(sect, key, dflt, lo, hi, st, field, text)	\
	{ .section = sect, .name = key, .def = dflt, .help = text,	\
	  .type = PCB_KEY_INT, .min = lo, .max = hi, PCB_FIELD(st, field) }

#define PCB_KEY_DOUBLE_FIELD(sect, key, dflt, lo, hi, st, field, text) \
	{ .section = sect, .name = key, .def = dflt, .help = text,	\
	  .type = PCB_KEY_DOUBLE, .dmin = lo, .dmax = hi, PCB_FIELD(st, field) }

#define PCB_KEY_CHOICE_FIELD(sect, key, dflt, list, st, field, text)	\
	{ .section = sect, .name = key, .def = dflt, .help = text,	\
	  .type = PCB_KEY_CHOICE, .choices = list, PCB_FIELD(st, field) }

#define PCB_KEY_SPECIAL_KEY(sect, key, dflt, text)			\
	{ .section = sect, .name = key, .def = dflt, .help = text,	\
	  .type = PCB_KEY_SPECIAL }

/* "1..1000" or "kworker, signal, poll": what a key accepts, for help and errors */
void pcb_key_accepts(const struct pcb_key *k, char *buf, size_t len);

#endif
