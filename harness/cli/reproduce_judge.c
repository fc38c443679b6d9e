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
#include "../output/read/query.h"
#include "../schema/schema.h"
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

/* the drains[] row of the design sel names, else NULL */
static json_t *drain_row(json_t *drains, const char *sel)
{
	char want[128];
	size_t i;
	json_t *row;

	if (!sel)
		return NULL;
	pcb_selector_design(sel, want, sizeof(want));
	json_array_foreach(drains, i, row)
		if (!strcmp(rj_drain_design(row), want))
			return row;
	return NULL;
}

/* the designs[] row of the design sel names, else NULL */
static json_t *selected_design(json_t *result, const char *sel)
{
	char want[128];

	if (!sel)
		return NULL;
	pcb_selector_design(sel, want, sizeof(want));
	return pcb_design_row(result, want);
}

/* the host as the result's machine state names it: bare metal, or a guest of what */
static void host_text(json_t *context, char *buf, size_t len)
{
	json_t *rows = rj_ctx_machine_state(context), *row;
	const char *v = NULL, *open;
	size_t i;

	json_array_foreach(rows, i, row)
		if (!strcmp(rj_mst_setting(row), "hypervisor"))
			v = rj_mst_value(row);
	open = v ? strchr(v, '(') : NULL;
	if (!v)
		snprintf(buf, len, "a host it did not describe");
	else if (!strcmp(v, "none"))
		snprintf(buf, len, "bare metal");
	else if (open && strchr(open, ')'))
		snprintf(buf, len, "a guest of %.*s", (int)(strchr(open, ')') - open - 1), open + 1);
	else
		snprintf(buf, len, "a guest of hypervisor '%s'", v);
}

/* how queue_work_on() woke a real worker's kworker in this run */
static const char *wake_text(const char *delivery)
{
	static const char *const how[][2] = {
		{ "kworker", "a futex wake of the worker's kworker thread (a system call)" },
		{ "signal", "a signal to the worker's thread (a system call)" },
		{ "poll", "a store the worker polls for, no system call" },
		{ "workqueue", "the kernel's own queue_work_on()" },
	};

	for (size_t i = 0; delivery && i < sizeof(how) / sizeof(how[0]); i++)
		if (!strcmp(delivery, how[i][0]))
			return how[i][1];
	return NULL;
}

/*
 * The claim's mechanism with its {FIELD}s from this result: the machine's
 * CPUs, nodes and host, and the drains of the design a (else b) names
 */
static void mechanism_fill(const struct pcb_claim *c, json_t *result, struct outcome *o)
{
	json_t *ctx = rj_top_context(result), *drains = rj_top_drains(result);
	json_t *dr = drain_row(drains, c->v[CK_A]);
	json_t *da = selected_design(result, c->v[CK_A]);
	json_t *db = selected_design(result, c->v[CK_B]);
	char cpus[32], nodes[32], host[96], line[48] = "", online[32] = "", virt[32] = "";
	const char *value[PCB_MECH_NR] = { 0 };
	json_int_t n = rj_ctx_numa_nodes(ctx);

	if (!c->v[CK_MECHANISM])
		return;
	if (!dr)
		dr = drain_row(drains, c->v[CK_B]);
	snprintf(cpus, sizeof(cpus), "%" JSON_INTEGER_FORMAT " CPUs", rj_ctx_cpus(ctx));
	snprintf(nodes, sizeof(nodes), "%" JSON_INTEGER_FORMAT " NUMA node%s", n,
		 n == 1 ? "" : "s");
	host_text(ctx, host, sizeof(host));
	value[PCB_MECH_CPUS] = rj_ctx_has_cpus(ctx) ? cpus : NULL;
	value[PCB_MECH_NODES] = rj_ctx_has_numa_nodes(ctx) ? nodes : NULL;
	value[PCB_MECH_HOST] = host;
	if (dr && rj_drain_has_line_cycles(dr))
		snprintf(line, sizeof(line), "%.0f cycles", rj_drain_line_cycles(dr));
	if (dr && rj_drain_has_online(dr))
		snprintf(online, sizeof(online), "%" JSON_INTEGER_FORMAT, rj_drain_online(dr));
	if (dr && rj_drain_has_virtual_cpus(dr))
		snprintf(virt, sizeof(virt), "%" JSON_INTEGER_FORMAT, rj_drain_virtual_cpus(dr));
	value[PCB_MECH_LINE] = *line ? line : NULL;
	value[PCB_MECH_ONLINE] = *online ? online : NULL;
	value[PCB_MECH_VIRTUAL] = *virt ? virt : NULL;
	value[PCB_MECH_WAKE] = wake_text(da && rj_design_has_work_delivery(da) ?
					 rj_design_work_delivery(da) : db &&
					 rj_design_has_work_delivery(db) ?
					 rj_design_work_delivery(db) : NULL);
	pcb_mechanism_fill(c->v[CK_MECHANISM], value, o->mechanism, sizeof(o->mechanism));
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
	mechanism_fill(c, result, o);
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
