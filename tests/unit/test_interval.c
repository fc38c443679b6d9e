/* SPDX-License-Identifier: MIT */
/*
 * The one procedure a difference is read by (harness/output/read/interval.h):
 * Student's quantile, Welch's test, Holm's levels, the intervals and the
 * mark. The expected figures were computed apart, in python3 with mpmath
 * (Student's t by the regularized incomplete beta function, bisected for
 * its quantile; Fieller's quadratic solved as written), not by this code.
 * Then, over many families of made-up run means: the mark is exactly Holm's
 * rejection, and the Diff %'s interval excludes 0 exactly where the
 * cycles' one does.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "testing.h"
#include "../../harness/measure/stats.h"
#include "../../harness/output/read/interval.h"

/* f: run means a (n of them, mean ma) against b's */
static void test(struct pcb_diff_fig *f, const double *a, int na, double ma, const double *b,
		 int nb, double mb)
{
	const struct pcb_runs x = { a, na, ma }, y = { b, nb, mb };

	pcb_diff_fig_test(f, &x, &y);
}

static void quantiles(void)
{
	CHECK_NEAR(pcb_t_quantile(0.05, 4), 2.776445105197794, 1e-9);
	CHECK_NEAR(pcb_t_quantile(0.05, 1), 12.70620473617470, 1e-8);
	CHECK_NEAR(pcb_t_quantile(0.01, 10), 3.169272672616951, 1e-9);
	CHECK_NEAR(pcb_t_quantile(0.05 / 6, 3.5), 5.386433733635351, 1e-9);
	CHECK_NEAR(pcb_t_quantile(0.001, 30.2), 3.643385917818381, 1e-9);
	CHECK(isinf(pcb_t_quantile(0, 4)), "no error allowed: no bound");
	CHECK(pcb_t_quantile(1, 4) == 0, "every error allowed: 0");
}

/* one difference alone, at 95%: 11, 12, 13.5 against 9.8, 10.1, 10.4 */
static void one(void)
{
	const double a[] = { 11, 12, 13.5 }, b[] = { 9.8, 10.1, 10.4 };
	struct pcb_diff_fig f;

	test(&f, a, 3, 12.1666666666666667, b, 3, 10.1);
	CHECK(f.tested && f.has_pct, "tested");
	CHECK_NEAR(f.df, 2.226636153988884, 1e-9);
	CHECK_NEAR(f.p, 0.09735933877960564, 1e-9);
	pcb_diff_family(&f, 1);
	CHECK_NEAR(f.level, 0.95, 1e-12);
	CHECK_NEAR(f.lo, -0.8527965385021583, 1e-7);
	CHECK_NEAR(f.hi, 4.986129871835491, 1e-7);
	CHECK(f.pct_bounded, "Fieller's interval bounded");
	CHECK_NEAR(f.pct_lo, -8.319304427551186, 1e-6);
	CHECK_NEAR(f.pct_hi, 50.33097284187438, 1e-6);
	CHECK(!f.significant, "p = 0.097: no mark");
}

/*
 * tests/unit/test_result.c's family: 60, 62, 64 against 50, 52, 54 (p = 0.0036)
 * and seven rows of 65.2, 64.8, 65.0 against 65 x 3 (p = 1)
 */
static void holm_levels(void)
{
	const double sc[] = { 60, 62, 64 }, lc[] = { 50, 52, 54 };
	const double sr[] = { 65.2, 64.8, 65.0 }, lr[] = { 65, 65, 65 };
	struct pcb_diff_fig f[8];

	test(&f[0], sc, 3, 62, lc, 3, 52);
	for (int i = 1; i < 8; i++)
		test(&f[i], sr, 3, 65, lr, 3, 65);
	CHECK_NEAR(f[0].p, 0.003602232609104004, 1e-10);
	CHECK(f[1].p == 1, "no difference: p = 1");
	pcb_diff_family(f, 8);
	/* the first step at 0.05 / 8 rejects; the second, p = 1 > 0.05 / 7, stops */
	CHECK_NEAR(f[0].level, 1 - 0.05 / 8, 1e-12);
	CHECK(f[0].significant, "rejected at Holm's first step");
	CHECK_NEAR(f[0].lo, 1.408728955789683, 1e-7);
	CHECK_NEAR(f[0].hi, 18.59127104421032, 1e-7);
	CHECK_NEAR(f[0].pct_lo, 2.501198236131202, 1e-6);
	CHECK_NEAR(f[0].pct_hi, 39.25996607340815, 1e-6);
	CHECK_NEAR(f[0].p_holm, 8 * 0.003602232609104004, 1e-9);
	for (int i = 1; i < 8; i++) {
		CHECK_NEAR(f[i].level, 1 - 0.05 / 7, 1e-12);
		CHECK(!f[i].significant, "row %d: no difference, no mark", i);
		CHECK_NEAR(f[i].pct_lo, -2.090661434663425, 1e-6);
		CHECK_NEAR(f[i].pct_hi, 2.090661434663425, 1e-6);
	}
}

/* rows with one run, with no spread, with a base of 0 */
static void edges(void)
{
	const double one[] = { 5 }, two[] = { 5, 6 }, same[] = { 7, 7, 7 }, other[] = { 8, 8, 8 };
	const double zero[] = { 0, 0, 0 };
	struct pcb_diff_fig f[4];

	test(&f[0], one, 1, 5, two, 2, 5.5);
	test(&f[1], other, 3, 8, same, 3, 7);
	test(&f[2], same, 3, 7, same, 3, 7);
	test(&f[3], same, 3, 7, zero, 3, 0);
	pcb_diff_family(f, 4);
	CHECK(!f[0].tested && !f[0].significant, "one run: no test, no mark");
	CHECK(f[1].significant && f[1].lo == 1 && f[1].hi == 1, "no spread, 1 apart: certain");
	CHECK(f[1].pct_bounded && f[1].pct_lo == f[1].pct && fabs(f[1].pct - 100.0 / 7) < 1e-12,
	      "its Diff %%'s interval a point");
	CHECK(!f[2].significant && f[2].lo == 0 && f[2].hi == 0, "no spread, no difference");
	CHECK(f[3].significant && !f[3].has_pct && !f[3].pct_bounded, "no percentage of 0");
	/* the untested row is out of the family: three rows, Holm's first step at 0.05 / 3 */
	CHECK_NEAR(f[1].level, 1 - 0.05 / 3, 1e-12);
}

/* a made-up run mean: a fixed generator, so that a failure is the same every time */
static uint64_t seed = 0x9e3779b97f4a7c15ull;

static double uniform(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (double)(seed >> 11) / 9007199254740992.0;
}

static void fill(double *v, int n, double mean, double sd)
{
	for (int i = 0; i < n; i++)
		v[i] = mean + sd * (uniform() + uniform() + uniform() - 1.5) * 2;
}

/* a family of n rows, shifts from none to large, as the marks and intervals must agree */
static int one_family(int n)
{
	static double a[32][16], b[32][16], p[32];
	struct pcb_diff_fig f[32];
	int bad = 0, na[32], nb[32];

	for (int i = 0; i < n; i++) {
		double base = 5 + 100 * uniform(), shift = base * 0.2 * uniform() * (uniform() < 0.5);

		na[i] = 2 + (int)(uniform() * 10);
		nb[i] = 2 + (int)(uniform() * 10);
		fill(a[i], na[i], base + shift, base * 0.05 * uniform());
		fill(b[i], nb[i], base, base * 0.05 * uniform());
		test(&f[i], a[i], na[i], pcb_mean(a[i], na[i]), b[i], nb[i], pcb_mean(b[i], nb[i]));
		p[i] = f[i].p;
	}
	pcb_diff_family(f, n);
	pcb_holm_adjust(p, n, p);
	for (int i = 0; i < n; i++) {
		/* the mark is Holm's rejection, to the last bit of the bisection */
		int holm = p[i] <= 0.05, edge = fabs(p[i] - 0.05) < 1e-9;

		bad += f[i].significant != holm && !edge;
		bad += fabs(f[i].p_holm - p[i]) > 1e-12;
		bad += !(f[i].lo <= f[i].diff && f[i].diff <= f[i].hi);
		bad += f[i].level < 0.95 || f[i].level > 1 - 0.05 / n + 1e-12;
		/* Fieller's interval excludes 0 exactly where the cycles' one does */
		if (f[i].pct_bounded) {
			int pct_out = f[i].pct_lo > 0 || f[i].pct_hi < 0;

			bad += pct_out != f[i].significant && fabs(f[i].lo) > 1e-9 &&
			       fabs(f[i].hi) > 1e-9;
			bad += !(f[i].pct_lo <= f[i].pct && f[i].pct <= f[i].pct_hi);
		}
	}
	return bad;
}

static void families(void)
{
	int bad = 0, marked = 0;

	for (int k = 0; k < 3000; k++)
		bad += one_family(1 + k % 30);
	CHECK(bad == 0, "%d disagreements over 3000 families", bad);
	/* and a shift grown from none to 10 standard errors: unmarked, then marked */
	for (int k = 0; k < 200; k++) {
		const double x[] = { 10, 10.5, 11 };
		double y[3];
		struct pcb_diff_fig f;

		for (int i = 0; i < 3; i++)
			y[i] = x[i] + k * 0.02;
		test(&f, y, 3, pcb_mean(y, 3), x, 3, 10.5);
		pcb_diff_family(&f, 1);
		marked += f.significant;
		CHECK(f.significant == (k * 0.02 / sqrt(2 * 0.25 / 3) > 2.776445105197794),
		      "shift %d: marked %d", k, f.significant);
	}
	CHECK(marked > 0 && marked < 200, "%d of 200 marked", marked);
}

int main(void)
{
	quantiles();
	one();
	holm_levels();
	edges();
	families();
	return check_summary();
}
