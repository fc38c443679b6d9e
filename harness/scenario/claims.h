/* SPDX-License-Identifier: MIT */
/*
 * The seeds' claims (scenarios/seeds.ini, read with inih): each section one
 * claim, the seed's figure with the file and line it is quoted from, the
 * machine it was measured on, the scenario that models it, which figure of
 * that scenario's result.json is this machine's, and the sign or bound of
 * that figure that agrees with the seed. pcpbench reproduce runs them.
 */
#ifndef PCB_CLAIMS_H
#define PCB_CLAIMS_H

#include <limits.h>
#include <stddef.h>

/* how this machine's figure comes from the selectors a and b */
enum pcb_claim_value {
	PCB_CLAIM_DIFF_PCT,		/* 100 * (a - b) / b, as a Diff % */
	PCB_CLAIM_RATIO,		/* a / b */
	PCB_CLAIM_VALUE,		/* a */
	PCB_CLAIM_DIFF,			/* a - b, as a Diff (cycles) */
	PCB_CLAIM_SHARE,		/* 100 sum(n (a - b)) / real: a share of a real operation */
};

/* a share's operations: how many calls of a function one real operation makes */
#define PCB_CLAIM_MAX_OPS 8
struct pcb_claim_op {
	char fn[48];
	double n;
};

/* what of this machine's figure agrees with the seed */
enum pcb_claim_expect {
	PCB_EXPECT_POSITIVE,		/* above 0 */
	PCB_EXPECT_NEGATIVE,		/* below 0 */
	PCB_EXPECT_BELOW,		/* below limit */
};

/* the keys of a claim, for errors that name the line */
enum pcb_claim_key {
	CK_CLAIM, CK_SEED, CK_LINE, CK_FIGURE, CK_BASE_FIGURE, CK_BASE_LINE, CK_UNIT,
	CK_MACHINE, CK_SCENARIO, CK_VALUE, CK_A, CK_B, CK_EXPECT, CK_LIMIT, CK_SIZE,
	CK_MECHANISM, CK_OPS, CK_REAL, CK_SEED_SIGN, CK_NR,
};
extern const char *const pcb_claim_key_name[CK_NR];

/* inih's MAX_SECTION (50) less its NUL */
#define PCB_CLAIM_ID_MAX 49

struct pcb_claim {
	char id[64];			/* the section */
	int section_line;
	char *v[CK_NR];			/* as written, NULL if absent */
	int line[CK_NR];		/* where */
	int seed_line, base_line;	/* 0 when there is no base figure */
	int value, expect;
	double limit;
	double seed_figure;		/* the figure, as a number */
	int same_quantity;		/* size = same: this machine's figure is the seed's quantity */
	const char *not_same;		/* size = not: why it cannot be, else NULL */
	/* value = share: ops "FUNCTION N, ..." a real operation of kind real makes */
	struct pcb_claim_op op[PCB_CLAIM_MAX_OPS];
	int nr_ops;
	int real;			/* enum pcb_realop_kind */
};

struct pcb_claims {
	char file[PATH_MAX];
	int n;
	struct pcb_claim *c;
};

/* read and check a claims file; -1 with "FILE:LINE: key: why" in err */
int pcb_claims_load(struct pcb_claims *cl, const char *path, char *err, size_t errlen);
void pcb_claims_free(struct pcb_claims *cl);
/* what an error about a claim names: key of claim c in cl's file, -1 for the claim itself */
struct pcb_claim_at {
	const struct pcb_claims *cl;
	const struct pcb_claim *c;
	int key;
};

/* "FILE:LINE: [id] key: msg" for the key at names */
void pcb_claim_error(const struct pcb_claim_at *at, char *err, size_t errlen, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));
/*
 * The size of this machine's figure here (ok: it exists; settled: its
 * direction is significant, or untested) against the seed's: "within 2x",
 * "Nx off" (into buf), "opposite sign", "n.s.", "n/a" or "not comparable";
 * *why the mechanism or the reason the claim gives, or NULL
 */
struct pcb_claim_here {
	int ok;				/* the figure exists */
	int settled;			/* its direction is significant, or untested */
	double here;			/* this machine's figure */
	const char *mechanism;		/* the claim's, filled in from its result (NULL: none) */
};
const char *pcb_claim_size(const struct pcb_claim *c, const struct pcb_claim_here *h, char *buf,
			   size_t len, const char **why);
/*
 * What a mechanism's {FIELD}s name, filled in from the claim's result
 * (reproduce_judge.c): the machine's CPUs and nodes, the host, and the
 * drains' line cycles, online and idle virtual CPUs, and work delivery
 */
enum pcb_mechanism_field {
	PCB_MECH_CPUS, PCB_MECH_NODES, PCB_MECH_HOST, PCB_MECH_LINE, PCB_MECH_ONLINE,
	PCB_MECH_VIRTUAL, PCB_MECH_WAKE, PCB_MECH_NR
};

extern const char *const pcb_mechanism_field[PCB_MECH_NR];
/*
 * mechanism with each {FIELD} replaced by its value[], into buf; -1 with
 * the unknown or unclosed field in buf where there is one
 */
int pcb_mechanism_fill(const char *mechanism, const char *const value[PCB_MECH_NR], char *buf,
		       size_t len);
/* sel (functions:DESIGN:*[:FIELD]) with op's function for the *, into buf */
void pcb_claim_op_selector(const char *sel, const struct pcb_claim_op *op, char *buf, size_t len);
/* a selector's syntax: functions:DESIGN:FUNCTION[:FIELD], drains:DESIGN[:FIELD],
 * contention:DESIGN:FUNCTION|*[:FIELD]; -1 with why in err */
int pcb_selector_check(const char *sel, char *err, size_t errlen);
/* whether a (checked) selector names a function: functions and contention rows have one */
int pcb_selector_has_function(const char *sel);
/* the design label a selector names, into buf */
void pcb_selector_design(const char *sel, char *buf, size_t len);

#endif
