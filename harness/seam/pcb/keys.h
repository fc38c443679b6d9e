/* SPDX-License-Identifier: MIT */
/*
 * Scenario keys (the model interface, base.h), each declared once with
 * its type, range, default and the field its value lands in. The harness
 * declares its own (scenario/keys.c), each model its own (in its folder);
 * the reader, `pcpbench list`, result.json's settings and every error
 * message come from these tables. Registration, read in userspace; a
 * kernel build has a model's tables and its rules (pcb_refusal) alone, to
 * check a configuration it is handed again (kmod/plan.c), never to read one.
 */
#ifndef PCB_SEAM_KEYS_H
#define PCB_SEAM_KEYS_H

#include "pcb/base.h"

struct pcb_design;
struct pcb_scenario;

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

/*
 * For a model's finish(), defined by the harness (scenario/): the id of
 * the key section.name, or -1
 */
int pcb_key_find(const char *section, const char *name);
/* "FILE:LINE: section.key: msg" for a key, wherever its value came from */
void pcb_scenario_key_error(const struct pcb_scenario *sc, int key, char *err, size_t errlen,
			    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* whether a key was written (in the file, by --set or an option), not defaulted */
int pcb_scenario_key_given(const struct pcb_scenario *sc, int key);
/*
 * A configuration refused by a model's rules (struct pcb_model_config's
 * rules(), on the settings' values alone): key, the index in the model's
 * keys[] of the key at fault, or PCB_RULE_TIMING for run.timing; with
 * timing_first, run.timing where the scenario wrote it, else key; msg what
 * follows "section.key: " in the refusal.
 */
#define PCB_RULE_TIMING (-1)
struct pcb_refusal {
	int key;
	bool timing_first;
	char msg[224];
};
/* r filled in as pcb_refusal says, msg from fmt: -1, for a rules() to return */
int pcb_refuse(struct pcb_refusal *r, int key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* the int or long field of config key k names; 0 where it names none */
long pcb_key_value(const struct pcb_key *k, const void *config);
/*
 * A model's key that only some of its workloads (or one timing) read: key
 * its index in the model's keys[], read whether the configuration being
 * run reads it, by the readers as the refusal names them ("the mixed
 * workload")
 */
struct pcb_own_key {
	int key;
	bool read;
	const char *by;
};
/*
 * The first of own[0..n) at a value other than its key's default where it
 * is not read (it would be recorded and not applied) refused: -1 with
 * "VALUE: read by BY alone; this is RUN" in r; else 0. Integer and choice
 * keys, compared as the values their fields hold.
 */
int pcb_rule_unread(const struct pcb_key *keys, const struct pcb_own_key *own, size_t n,
		    const void *config, const char *run, struct pcb_refusal *r);
/* "; text" appended to note (text alone where note is empty), for a model's kernel() */
void pcb_note_append(char *note, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* the scenario's designs in run.designs order; NULL past the last */
const struct pcb_design *pcb_scenario_design(const struct pcb_scenario *sc, int i);

#endif
