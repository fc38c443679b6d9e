/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>

#include "../../measure/stats.h"
#include "interval.h"

double pcb_t_quantile(double alpha, double df)
{
	double lo = 0, hi = 1;

	if (!(alpha > 0))
		return INFINITY;
	if (alpha >= 1)
		return 0;
	/* pcb_t_p_value() falls as t grows: bracket, then bisect to a relative 1e-12 */
	while (pcb_t_p_value(hi, df) > alpha && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (pcb_t_p_value(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

void pcb_diff_fig_test(struct pcb_diff_fig *f, const struct pcb_runs *a,
		       const struct pcb_runs *b)
{
	double x = a->mean, y = b->mean, va, vb, se2;
	int na = a->n, nb = b->n;

	*f = (struct pcb_diff_fig){ .x = x, .y = y, .diff = x - y, .p = 1, .p_holm = 1,
				    .has_pct = y > 0, .pct = y > 0 ? 100 * (x / y - 1) : 0 };
	if (na < 2 || nb < 2)
		return;
	va = pcb_stddev(a->v, na);
	vb = pcb_stddev(b->v, nb);
	f->se2_x = va * va / na;
	f->se2_y = vb * vb / nb;
	se2 = f->se2_x + f->se2_y;
	if (!isfinite(se2) || !isfinite(f->diff))
		return;
	f->tested = 1;
	if (se2 == 0) {
		/* identical runs a side: any difference is certain, none is none */
		f->p = f->diff != 0 ? 0 : 1;
		f->df = 1;
		return;
	}
	/* Welch-Satterthwaite */
	f->df = se2 * se2 / (f->se2_x * f->se2_x / (na - 1) + f->se2_y * f->se2_y / (nb - 1));
	f->p = pcb_t_p_value(fabs(f->diff) / sqrt(se2), f->df);
}

/*
 * Fieller's set of ratios r with (x - r y)^2 <= t^2 (se2_x + r^2 se2_y), as
 * a Diff %: bounded where y is clear of 0 at this t (t^2 se2_y < y^2)
 */
static void fieller(struct pcb_diff_fig *f, double t)
{
	double a = f->y * f->y - t * t * f->se2_y;
	double h = f->y * f->y * f->se2_x + f->x * f->x * f->se2_y - t * t * f->se2_x * f->se2_y;

	f->pct_bounded = 0;
	if (!f->has_pct || !(a > 0) || !(h >= 0))
		return;
	f->pct_lo = 100 * ((f->x * f->y - t * sqrt(h)) / a - 1);
	f->pct_hi = 100 * ((f->x * f->y + t * sqrt(h)) / a - 1);
	f->pct_bounded = isfinite(f->pct_lo) && isfinite(f->pct_hi);
}

/* f's interval at two-sided level alpha, and its mark */
static void interval(struct pcb_diff_fig *f, double alpha)
{
	double t = pcb_t_quantile(alpha, f->df), half = t * sqrt(f->se2_x + f->se2_y);

	f->level = 1 - alpha;
	/* a certain difference (no spread) is an interval of one point */
	if (f->se2_x + f->se2_y == 0)
		half = 0;
	f->lo = f->diff - half;
	f->hi = f->diff + half;
	f->significant = f->lo > 0 || f->hi < 0;
	if (f->se2_x + f->se2_y == 0) {
		f->pct_bounded = f->has_pct;
		f->pct_lo = f->pct_hi = f->pct;
	} else {
		fieller(f, t);
	}
}

static int by_p(const void *x, const void *y)
{
	const struct pcb_diff_fig *a = *(struct pcb_diff_fig *const *)x;
	const struct pcb_diff_fig *b = *(struct pcb_diff_fig *const *)y;

	return a->p < b->p ? -1 : a->p > b->p;
}

int pcb_diff_family(struct pcb_diff_fig *f, int n)
{
	struct pcb_diff_fig **s = calloc(n > 0 ? (size_t)n : 1, sizeof(*s));
	double adj = 0;
	int m = 0, stopped = 0;

	for (int i = 0; i < n; i++)
		if (f[i].tested)
			m++;
	if (!s) {
		for (int i = 0; i < n; i++)
			if (f[i].tested) {
				f[i].p_holm = fmin(1, f[i].p * m);
				interval(&f[i], PCB_DIFF_ALPHA / m);
			}
		return -1;
	}
	m = 0;
	for (int i = 0; i < n; i++)
		if (f[i].tested)
			s[m++] = &f[i];
	qsort(s, (size_t)m, sizeof(*s), by_p);
	/* the k-th smallest p against alpha / (m - k); after the first kept, that level */
	for (int k = 0; k < m; k++) {
		double alpha = PCB_DIFF_ALPHA / (m - (stopped ? stopped - 1 : k));

		adj = fmax(adj, fmin(1, s[k]->p * (m - k)));
		s[k]->p_holm = adj;
		if (!stopped && !(s[k]->p <= alpha))
			stopped = k + 1;
		interval(s[k], alpha);
	}
	free(s);
	return 0;
}
