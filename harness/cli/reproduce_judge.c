/* SPDX-License-Identifier: MIT */
/*
 * A claim judged on this machine's result: its figure (a value, a
 * difference, a ratio, or a share of a real operation timed here),
 * whether its direction agrees with the seed's, and whether the run
 * means settle it (Welch's test, marked with every other claim so tested
 * as the tables' Diff rows are, or a count's Poisson interval).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../measure/stats.h"
#include "../output/read/figures.h"
#include "../output/read/load.h"
#include "reproduce.h"

/* sel's run means, count x each, added into sum (n runs); the runs, 0 where they differ */
static int add_runs(json_t *result, const char *sel, double count, double *sum, int n)
{
	double r[PCB_MAX_RUN_MEANS];
	int m = pcb_figure_runs(result, sel, r, PCB_MAX_RUN_MEANS);

	if (n >= 0 && m != n)
		return 0;
	for (int k = 0; k < m; k++)
		sum[k] += count * r[k];
	return m;
}

/*
 * a's run means against b's, as the tables test a difference (read/interval.h):
 * marked with every other claim's so tested (mark_claims())
 */
static void welch_test(struct outcome *o, const double *a, int na, const double *b, int nb)
{
	const struct pcb_runs x = { a, na, na ? pcb_mean(a, na) : 0 };
	const struct pcb_runs y = { b, nb, nb ? pcb_mean(b, nb) : 0 };

	pcb_diff_fig_test(&o->f, &x, &y);
	o->welch = o->f.tested;
	o->tested = o->f.tested;
}

/*
 * A share: the modeled difference of one real operation, over what it
 * costs here. Its direction is tested as a Diff's, Welch's over the runs'
 * sums of count x mean, a against b.
 */
static void evaluate_share(const struct pcb_claim *c, json_t *result,
			   const struct repro *rp, struct outcome *o)
{
	double ra[PCB_MAX_RUN_MEANS] = { 0 }, rb[PCB_MAX_RUN_MEANS] = { 0 };
	double modeled = 0, real = rp->real[c->real].mean;
	int na = -1, nb = -1;

	for (int i = 0; i < c->nr_ops; i++) {
		char sa[512], sb[512];
		double a, b;

		pcb_claim_op_selector(c->v[CK_A], &c->op[i], sa, sizeof(sa));
		pcb_claim_op_selector(c->v[CK_B], &c->op[i], sb, sizeof(sb));
		if (pcb_figure_get(result, sa, &a, o->why, sizeof(o->why)) < 0 ||
		    pcb_figure_get(result, sb, &b, o->why, sizeof(o->why)) < 0)
			return;
		modeled += c->op[i].n * (a - b);
		na = add_runs(result, sa, c->op[i].n, ra, na);
		nb = add_runs(result, sb, c->op[i].n, rb, nb);
	}
	welch_test(o, ra, na, rb, nb);
	if (rp->real_err[c->real][0] || !(real > 0)) {
		snprintf(o->why, sizeof(o->why), "%s not timed here: %s", c->v[CK_REAL],
			 rp->real_err[c->real][0] ? rp->real_err[c->real] : "no figure");
		return;
	}
	o->here = 100 * modeled / real;
	o->ok = isfinite(o->here);
	o->agrees = c->expect == PCB_EXPECT_POSITIVE ? o->here > 0 :
		    c->expect == PCB_EXPECT_NEGATIVE ? o->here < 0 : o->here < c->limit;
}

void reproduce_evaluate(const struct pcb_claim *c, json_t *result, const struct repro *rp,
			struct outcome *o)
{
	double a, b = 1;

	memset(o, 0, sizeof(*o));
	if (!result) {
		snprintf(o->why, sizeof(o->why), "no result");
		return;
	}
	if (pcb_result_interrupted(result)) {
		snprintf(o->why, sizeof(o->why), "the scenario was interrupted (complete: false)");
		return;
	}
	if (c->value == PCB_CLAIM_SHARE) {
		evaluate_share(c, result, rp, o);
		return;
	}
	if (pcb_figure_get(result, c->v[CK_A], &a, o->why, sizeof(o->why)) < 0)
		return;
	if (c->v[CK_B] && pcb_figure_get(result, c->v[CK_B], &b, o->why, sizeof(o->why)) < 0)
		return;
	if ((c->value == PCB_CLAIM_DIFF_PCT || c->value == PCB_CLAIM_RATIO) && b == 0) {
		snprintf(o->why, sizeof(o->why), "%s is 0", c->v[CK_B]);
		return;
	}
	o->here = c->value == PCB_CLAIM_DIFF_PCT ? 100 * (a - b) / b :
		  c->value == PCB_CLAIM_RATIO ? a / b : c->value == PCB_CLAIM_DIFF ? a - b : a;
	o->ok = isfinite(o->here);
	if (c->v[CK_B] && c->value != PCB_CLAIM_VALUE) {
		double ra[PCB_MAX_RUN_MEANS], rb[PCB_MAX_RUN_MEANS];
		int na = pcb_figure_runs(result, c->v[CK_A], ra, PCB_MAX_RUN_MEANS);
		int nb = pcb_figure_runs(result, c->v[CK_B], rb, PCB_MAX_RUN_MEANS);

		welch_test(o, ra, na, rb, nb);
	}
	if (c->expect == PCB_EXPECT_BELOW && c->value == PCB_CLAIM_RATIO &&
	    !strncmp(c->v[CK_A], "contention:", 11) && a >= 0 && b > 0) {
		/* a bound on a rate of rare events: settled only where the count's interval is */
		double lo, hi;

		pcb_poisson_interval((uint64_t)(a + 0.5), &lo, &hi);
		o->welch = 0;
		o->tested = 1;
		o->significant = hi / b < c->limit || lo / b > c->limit;
	}
	o->agrees = c->expect == PCB_EXPECT_POSITIVE ? o->here > 0 :
		    c->expect == PCB_EXPECT_NEGATIVE ? o->here < 0 : o->here < c->limit;
}

void reproduce_mark(struct repro *rp)
{
	struct pcb_diff_fig *f = calloc((size_t)rp->cl.n + 1, sizeof(*f));
	int n = 0, k = 0;

	if (!f)
		return;
	for (int i = 0; i < rp->cl.n; i++)
		if (rp->res[i].welch)
			f[n++] = rp->res[i].f;
	pcb_diff_family(f, n);
	for (int i = 0; i < rp->cl.n; i++)
		if (rp->res[i].welch) {
			rp->res[i].f = f[k++];
			rp->res[i].significant = rp->res[i].f.significant;
		}
	free(f);
}
