/* SPDX-License-Identifier: MIT */
/*
 * The seeds' claims as reproduce reads them: the seed's quantity made from
 * its figures by the claim's value (a Diff %, a ratio, a Diff in cycles),
 * and the size verdict of this machine's figure against it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/measure/realop.h"
#include "harness/scenario/claims.h"
#include "testing.h"

static const char fixture[] =
	"[pct]\n"
	"claim = a Diff %\nseed = 000.txt\nline = 130\nfigure = 19.15\nunit = %\n"
	"machine = m\nscenario = s\na = functions:x:f\nb = functions:y:f\nexpect = positive\n"
	"size = same\nmechanism = the calls run back to back\n"
	"[both]\n"
	"claim = two times\nseed = 000.txt\nline = 4006\nfigure = 99918\nbase_figure = 81341\n"
	"base_line = 4001\nmachine = m\nscenario = s\na = functions:x:f\nb = functions:y:f\n"
	"expect = positive\nsize = same\n"
	"[cycles]\n"
	"claim = a Diff (cycles)\nseed = 000.txt\nline = 130\nfigure = 10.25\nunit = cycles\n"
	"machine = m\nscenario = s\nvalue = diff\na = functions:x:f\nb = functions:y:f\n"
	"expect = positive\nsize = same\n"
	"[other]\n"
	"claim = throughput\nseed = 002.txt\nline = 50\nfigure = 14.13\nmachine = m\n"
	"scenario = s\na = functions:x:f\nb = functions:y:f\nexpect = negative\n"
	"size = not: throughput in the seed\n"
	"[share]\n"
	"claim = a share\nseed = 000.txt\nline = 325\nfigure = -0.70\nmachine = m\n"
	"scenario = s\nvalue = share\nreal = mmap_write\n"
	"ops = consume_obj_stock 3, refill_obj_stock 3,mod_objcg_state 6 , consume_stock 0.5\n"
	"a = functions:x:*:raw_avg_cycles\nb = functions:y:*\nexpect = negative\nsize = same\n"
	"[mmtests]\n"
	"claim = a slowdown as mmtests prints it\nseed = 004.txt\nline = 894\nfigure = -1.35\n"
	"machine = m\nscenario = s\na = functions:x:f\nb = functions:y:f\nexpect = positive\n"
	"seed_sign = inverted\nsize = same\n";

static const struct pcb_claim *find(const struct pcb_claims *cl, const char *id)
{
	for (int i = 0; i < cl->n; i++)
		if (!strcmp(cl->c[i].id, id))
			return &cl->c[i];
	return NULL;
}

/* the verdict on here, and the why it gives */
static void check_size(const struct pcb_claim *c, int ok, double here, const char *want,
		       const char *want_why)
{
	char buf[64];
	const char *why = (const char *)1;
	const struct pcb_claim_here h = { .ok = ok, .settled = 1, .here = here,
					  .mechanism = c->v[CK_MECHANISM] };
	const char *got = pcb_claim_size(c, &h, buf, sizeof(buf), &why);

	CHECK(!strcmp(got, want), "%s at %g: '%s', not '%s'", c->id, here, got, want);
	CHECK(want_why ? why && !strcmp(why, want_why) : !why, "%s at %g: why '%s'", c->id, here,
	      why ? why : "(none)");
}

/* a percentage: its size against ours, a factor 2 either way, and an unsettled direction */
static void pct(const struct pcb_claims *cl)
{
	const struct pcb_claim *c = find(cl, "pct");
	const struct pcb_claim_here h = { .ok = 1, .settled = 0, .here = 813.05 };
	const char *why;
	char buf[64];

	CHECK_NEAR(c->seed_figure, 19.15, 1e-9);
	check_size(c, 1, 38.3, "within 2x", NULL);		/* a factor 2.0 exactly */
	check_size(c, 1, 9.575, "within 2x", NULL);
	check_size(c, 1, 813.05, "42.5x off", "the calls run back to back");
	check_size(c, 1, 9.5, "2.0x off", "the calls run back to back");
	check_size(c, 1, -3, "opposite sign", "the calls run back to back");
	check_size(c, 0, 0, "n/a", NULL);
	CHECK(!strcmp(pcb_claim_size(c, &h, buf, sizeof(buf), &why), "n.s.") && !why,
	      "an unsettled direction has no size");
}

/* the seed's two times make its Diff %: 100 (99918 - 81341) / 81341 */
static void both(const struct pcb_claims *cl)
{
	const struct pcb_claim *c = find(cl, "both");

	CHECK_NEAR(c->seed_figure, 100.0 * (99918 - 81341) / 81341, 1e-9);
	check_size(c, 1, 404.42, "17.7x off", NULL);
	check_size(c, 1, 30, "within 2x", NULL);
}

/* a mechanism's fields, as a result fills them in; an unknown one named */
static void mechanism(void)
{
	const char *value[PCB_MECH_NR] = { [PCB_MECH_CPUS] = "16 CPUs",
					   [PCB_MECH_HOST] = "bare metal",
					   [PCB_MECH_LINE] = "212 cycles" };
	char buf[160];

	CHECK(pcb_mechanism_fill("a line move between {cpus} ({line} a line, on {host})",
				 value, buf, sizeof(buf)) == 0 &&
	      !strcmp(buf, "a line move between 16 CPUs (212 cycles a line, on bare metal)"),
	      "filled: '%s'", buf);
	CHECK(pcb_mechanism_fill("{wake}, no {", value, buf, sizeof(buf)) < 0 &&
	      !strcmp(buf, "{"), "an unclosed field: '%s'", buf);
	CHECK(pcb_mechanism_fill("woken by {wake}", value, buf, sizeof(buf)) == 0 &&
	      !strcmp(buf, "woken by (unknown here)"), "a field the result lacks: '%s'", buf);
	CHECK(pcb_mechanism_fill("on {guest}'s {cpus}", value, buf, sizeof(buf)) < 0 &&
	      !strcmp(buf, "{guest}"), "an unknown field: '%s'", buf);
	CHECK(pcb_mechanism_fill("{cpus} {cpus}", value, buf, 9) == 0 &&
	      !strcmp(buf, "16 CPUs "), "cut to the buffer: '%s'", buf);
	CHECK(pcb_mechanism_fill("", value, buf, sizeof(buf)) == 0 && !buf[0], "empty");
}

/* value = diff: cycles against cycles */
static void cycles(const struct pcb_claims *cl)
{
	const struct pcb_claim *c = find(cl, "cycles");

	CHECK(c->value == PCB_CLAIM_DIFF, "value = diff");
	CHECK_NEAR(c->seed_figure, 10.25, 1e-9);
	check_size(c, 1, 13.01, "within 2x", NULL);
	check_size(c, 1, 1.0, "10.2x off", NULL);
}

/* size = not: its reason, whatever the figure */
static void other(const struct pcb_claims *cl)
{
	const struct pcb_claim *c = find(cl, "other");

	CHECK(!c->same_quantity && c->not_same && !strcmp(c->not_same, "throughput in the seed"),
	      "size = not: its reason");
	check_size(c, 1, 1.04, "not comparable", "throughput in the seed");
	check_size(c, 0, 0, "not comparable", "throughput in the seed");
}

/* mmtests prints a slowdown below 0: the seed's quantity is its negation */
static void mmtests(const struct pcb_claims *cl)
{
	const struct pcb_claim *c = find(cl, "mmtests");

	CHECK_NEAR(c->seed_figure, 1.35, 1e-9);
	check_size(c, 1, 2.0, "within 2x", NULL);
	check_size(c, 1, -1.35, "opposite sign", NULL);
}

/* a share's ops, and the selectors each makes */
static void share(const struct pcb_claims *cl)
{
	const struct pcb_claim *c = find(cl, "share");
	char sel[128];

	CHECK(c->value == PCB_CLAIM_SHARE && c->real == PCB_REALOP_MMAP_WRITE, "share of mmap_write");
	CHECK(c->nr_ops == 4, "4 ops, not %d", c->nr_ops);
	if (c->nr_ops != 4)
		return;
	CHECK(!strcmp(c->op[0].fn, "consume_obj_stock") && c->op[0].n == 3, "op 0");
	CHECK(!strcmp(c->op[2].fn, "mod_objcg_state") && c->op[2].n == 6, "op 2");
	CHECK(!strcmp(c->op[3].fn, "consume_stock") && c->op[3].n == 0.5, "op 3");
	pcb_claim_op_selector(c->v[CK_A], &c->op[2], sel, sizeof(sel));
	CHECK(!strcmp(sel, "functions:x:mod_objcg_state:raw_avg_cycles"), "%s", sel);
	pcb_claim_op_selector(c->v[CK_B], &c->op[3], sel, sizeof(sel));
	CHECK(!strcmp(sel, "functions:y:consume_stock"), "%s", sel);
}

int main(void)
{
	char path[] = "/tmp/pcpbench-claims-XXXXXX", err[512] = "";
	struct pcb_claims cl = { 0 };
	int fd = mkstemp(path);

	CHECK(fd >= 0 && write(fd, fixture, sizeof(fixture) - 1) == (ssize_t)sizeof(fixture) - 1,
	      "fixture written");
	if (fd >= 0)
		close(fd);
	CHECK(pcb_claims_load(&cl, path, err, sizeof(err)) == 0, "fixture read: %s", err);
	unlink(path);
	if (cl.n != 6) {
		CHECK(cl.n == 6, "6 claims, not %d", cl.n);
		return check_summary();
	}
	pct(&cl);
	both(&cl);
	mechanism();
	cycles(&cl);
	other(&cl);
	mmtests(&cl);
	share(&cl);
	pcb_claims_free(&cl);
	return check_summary();
}
