/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>

#include "stats.h"

uint64_t pcb_hist_lower(unsigned int index)
{
	unsigned int e;

	if (index < 2 * PCB_HIST_SUB)
		return index;
	e = index / PCB_HIST_SUB + PCB_HIST_SUB_BITS - 1;
	return (uint64_t)(index % PCB_HIST_SUB + PCB_HIST_SUB) << (e - PCB_HIST_SUB_BITS);
}

uint64_t pcb_hist_total(const struct pcb_hist *h)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < PCB_HIST_BUCKETS; i++)
		n += h->count[i];
	return n;
}

uint64_t pcb_hist_quantile(const struct pcb_hist *h, double q)
{
	uint64_t n = pcb_hist_total(h), want, seen = 0;

	if (!n)
		return 0;
	want = (uint64_t)ceil(q * (double)n);
	if (want < 1)
		want = 1;
	for (unsigned int i = 0; i < PCB_HIST_BUCKETS; i++) {
		seen += h->count[i];
		if (seen >= want)
			return pcb_hist_lower(i);
	}
	return pcb_hist_lower(PCB_HIST_BUCKETS - 1);
}

void pcb_hist_merge(struct pcb_hist *into, const struct pcb_hist *from)
{
	for (unsigned int i = 0; i < PCB_HIST_BUCKETS; i++)
		into->count[i] += from->count[i];
}

void pcb_stat_merge(struct pcb_stat *into, const struct pcb_stat *from)
{
	into->sum_raw += from->sum_raw;
	if (from->samples && (!into->samples || from->min_raw < into->min_raw))
		into->min_raw = from->min_raw;
	into->samples += from->samples;
	into->calls += from->calls;
	into->calls_sq += from->calls_sq;
	into->calls_raw += from->calls_raw;
	into->interrupted += from->interrupted;
	into->interrupted_calls += from->interrupted_calls;
	if (from->max > into->max)
		into->max = from->max;
	pcb_hist_merge(&into->hist, &from->hist);
}

double pcb_stat_mean(const struct pcb_stat *s, double overhead)
{
	if (!s->calls)
		return 0;
	return ((double)s->sum_raw - overhead * (double)s->samples) / (double)s->calls;
}

int pcb_stat_line(const struct pcb_stat *s, double *per_call, double *fixed)
{
	double n = (double)s->samples, sx = (double)s->calls, sy = (double)s->sum_raw;
	/* n times the sums of squares about the means: exact in integers first */
	double sxx = n * (double)s->calls_sq - sx * sx;
	double sxy = n * (double)s->calls_raw - sx * sy;

	/* every region as long as the others: n sum(x^2) == sum(x)^2 */
	if (s->samples < 2 || (unsigned __int128)s->calls_sq * s->samples ==
	    (unsigned __int128)s->calls * s->calls)
		return 0;
	*per_call = sxy / sxx;
	*fixed = (sy - *per_call * sx) / n;
	return 1;
}

int pcb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double pcb_mean(const double *v, int n)
{
	double sum = 0;

	for (int i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / n : 0;
}

double pcb_stddev(const double *v, int n)
{
	double m = pcb_mean(v, n), sum = 0;

	if (n < 2)
		return 0;
	for (int i = 0; i < n; i++)
		sum += (v[i] - m) * (v[i] - m);
	return sqrt(sum / (n - 1));
}

/* two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom */
static const double t975[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

/* P(X <= k) for X Poisson with mean mu, summed in logs so that no term underflows */
static double poisson_cdf(uint64_t k, double mu)
{
	double lmax = -INFINITY, sum = 0;

	if (mu <= 0)
		return 1;
	for (uint64_t i = 0; i <= k; i++) {
		double l = -mu + (double)i * log(mu) - lgamma((double)i + 1);

		if (l > lmax) {
			sum = sum * exp(lmax - l) + 1;
			lmax = l;
		} else {
			sum += exp(l - lmax);
		}
	}
	return fmin(1, exp(lmax) * sum);
}

/* the mean mu in [0, top] at which P(X <= k) is p: the cdf falls as mu grows */
static double poisson_mean_at(uint64_t k, double p, double top)
{
	double lo = 0, hi = top;

	for (int i = 0; i < 200 && hi - lo > 1e-9 * (1 + hi); i++) {
		double mid = (lo + hi) / 2;

		if (poisson_cdf(k, mid) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void pcb_poisson_interval(uint64_t k, double *lo, double *hi)
{
	double top = (double)k + 20 * sqrt((double)k + 1) + 20;

	/* Garwood: P(X >= k; lo) = 2.5 %, P(X <= k; hi) = 2.5 % */
	if (k > 100000) {
		/* the normal's, where the sums grow long and the two agree */
		*lo = (double)k - 1.959963985 * sqrt((double)k);
		*hi = (double)k + 1.959963985 * sqrt((double)k + 1) + 1;
		return;
	}
	*hi = poisson_mean_at(k, 0.025, top);
	*lo = k ? poisson_mean_at(k - 1, 0.975, top) : 0;
}

/*
 * Welch's t of a against b and its Welch-Satterthwaite degrees of freedom:
 * 0 where they say nothing (fewer than two runs a side, or run means so far
 * apart that the arithmetic overflows), else 1; identical runs on both
 * sides give t = 0, or infinity where the two means differ
 */
static int welch_t(const double *a, int na, const double *b, int nb, double *t, double *df)
{
	double va, vb, se2;

	if (na < 2 || nb < 2)
		return 0;
	va = pcb_stddev(a, na);
	va *= va;
	vb = pcb_stddev(b, nb);
	vb *= vb;
	se2 = va / na + vb / nb;
	if (!isfinite(se2))
		return 0;
	if (se2 == 0) {
		*t = pcb_mean(a, na) != pcb_mean(b, nb) ? INFINITY : 0;
		*df = 1;
		return 1;
	}
	*t = fabs(pcb_mean(a, na) - pcb_mean(b, nb)) / sqrt(se2);
	*df = se2 * se2 / ((va / na) * (va / na) / (na - 1) + (vb / nb) * (vb / nb) / (nb - 1));
	return isfinite(*t) && isfinite(*df);
}

int pcb_welch_significant(const double *a, int na, const double *b, int nb)
{
	double t, df;

	if (!welch_t(a, na, b, nb, &t, &df))
		return 0;
	return isinf(t) || t > pcb_t975(df);
}

double pcb_t975(double df)
{
	if (!(df >= 1))
		df = 1;
	return df >= 31 ? 1.960 + 2.4 / df : t975[(int)df - 1];
}

/*
 * The continued fraction of the regularized incomplete beta function,
 * evaluated by the modified Lentz method (Numerical Recipes' betacf)
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, num, del;

		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b), the regularized incomplete beta function */
static double inc_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double pcb_t_p_value(double t, double df)
{
	if (!isfinite(t))
		return isnan(t) ? 1 : 0;
	/* P(|T| > t) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	return inc_beta(df / 2, 0.5, df / (df + t * t));
}

double pcb_welch_p(const double *a, int na, const double *b, int nb)
{
	double t, df;

	if (!welch_t(a, na, b, nb, &t, &df))
		return 1;
	return isinf(t) ? 0 : pcb_t_p_value(t, df);
}

double pcb_normal_p(double z)
{
	return erfc(fabs(z) / sqrt(2.0));
}

double pcb_cv(const double *v, int n)
{
	double m = pcb_mean(v, n);

	return n < 2 || m == 0 ? 0 : pcb_stddev(v, n) / fabs(m);
}

double pcb_ci95_half(const double *v, int n)
{
	if (n < 2)
		return INFINITY;
	return pcb_t975(n - 1) * pcb_stddev(v, n) / sqrt(n);
}

int pcb_ratio_ci95(const double *a, int na, const double *b, int nb, double *lo, double *hi)
{
	double x = pcb_mean(a, na), y = pcb_mean(b, nb), sa, sb, c1, c2, se, df, r, half;

	if (na < 2 || nb < 2 || !(y > 0))
		return -1;
	sa = pcb_stddev(a, na);
	sb = pcb_stddev(b, nb);
	/* Var(x / y) ~ Var(x) / y^2 + x^2 Var(y) / y^4 */
	c1 = sa * sa / na / (y * y);
	c2 = x * x * (sb * sb / nb) / (y * y * y * y);
	se = sqrt(c1 + c2);
	r = x / y;
	if (!isfinite(se) || !isfinite(r))
		return -1;
	if (se == 0) {
		*lo = *hi = 100 * (r - 1);
		return 0;
	}
	df = (c1 + c2) * (c1 + c2) / (c1 * c1 / (na - 1) + c2 * c2 / (nb - 1));
	half = pcb_t975(df) * se;
	*lo = 100 * (r - 1 - half);
	*hi = 100 * (r - 1 + half);
	return 0;
}

struct pcb_holm_p {
	double p;
	int i;
};

static int holm_cmp(const void *x, const void *y)
{
	double a = ((const struct pcb_holm_p *)x)->p, b = ((const struct pcb_holm_p *)y)->p;

	return a < b ? -1 : a > b;
}

void pcb_holm_adjust(const double *p, int n, double *adj)
{
	struct pcb_holm_p *s = malloc(sizeof(*s) * (size_t)(n > 0 ? n : 1));
	double run = 0;

	if (!s) {
		/* Bonferroni's, which Holm's never exceeds */
		for (int i = 0; i < n; i++)
			adj[i] = fmin(1, p[i] * n);
		return;
	}
	for (int i = 0; i < n; i++)
		s[i] = (struct pcb_holm_p){ p[i], i };
	qsort(s, (size_t)n, sizeof(*s), holm_cmp);
	/* Holm's step-down: the k-th smallest times n - k, never below the one before */
	for (int k = 0; k < n; k++) {
		run = fmax(run, fmin(1, s[k].p * (n - k)));
		s[k].p = run;
	}
	for (int k = 0; k < n; k++)
		adj[s[k].i] = s[k].p;
	free(s);
}

double pcb_geomean(const double *v, int n)
{
	double sum = 0;

	if (n < 1)
		return 0;
	for (int i = 0; i < n; i++)
		sum += log(v[i]);
	return exp(sum / n);
}

int pcb_ci_within(const double *v, int n, double ci_target)
{
	double m = fabs(pcb_mean(v, n)), half = pcb_ci95_half(v, n);

	if (n < 2)
		return 0;
	if (half == 0)
		return 1;
	return m > 0 && 100 * half / m <= ci_target;
}

enum pcb_runs_verdict pcb_runs_verdict(const struct pcb_runs_rule *rule,
				       const double *const *rows, int nr_rows, int n)
{
	int met = n >= 2;

	for (int i = 0; i < nr_rows && met; i++)
		met = pcb_ci_within(rows[i], n, rule->ci_target);
	if (n >= rule->max_runs)
		return met ? PCB_RUNS_MET : PCB_RUNS_BOUND;
	if (n < rule->min_runs)
		return PCB_RUNS_MORE;
	return met ? PCB_RUNS_MET : PCB_RUNS_MORE;
}

struct pcb_ranked {
	double v;
	int from_a;
};

static int ranked_cmp(const void *x, const void *y)
{
	double a = ((const struct pcb_ranked *)x)->v, b = ((const struct pcb_ranked *)y)->v;

	return a < b ? -1 : a > b;
}

double pcb_mann_whitney_z(const double *a, int na, const double *b, int nb)
{
	double n = (double)na + nb, r1 = 0, ties = 0, u1, mu, var;
	struct pcb_ranked *all;
	int i, j, k;

	if (na < 1 || nb < 1)
		return 0;
	all = malloc(sizeof(*all) * (size_t)(na + nb));
	if (!all)
		return 0;
	for (i = 0; i < na; i++)
		all[i] = (struct pcb_ranked){ a[i], 1 };
	for (i = 0; i < nb; i++)
		all[na + i] = (struct pcb_ranked){ b[i], 0 };
	qsort(all, (size_t)(na + nb), sizeof(*all), ranked_cmp);
	/* a run of t equal values shares the mean of their ranks i+1 .. j */
	for (i = 0; i < na + nb; i = j) {
		double t, rank;

		for (j = i + 1; j < na + nb && all[j].v == all[i].v; j++)
			;
		t = j - i;
		rank = (i + 1 + j) / 2.0;
		for (k = i; k < j; k++)
			r1 += all[k].from_a ? rank : 0;
		ties += t * t * t - t;
	}
	free(all);
	u1 = r1 - (double)na * (na + 1) / 2;
	mu = (double)na * nb / 2;
	var = (double)na * nb / 12 * ((n + 1) - ties / (n * (n - 1)));
	if (!(var > 0))
		return 0;
	return fmax(0, fabs(u1 - mu) - 0.5) / sqrt(var);
}

int pcb_mann_whitney_significant(const double *a, int na, const double *b, int nb)
{
	/* two-sided 97.5% quantile of the standard normal */
	return pcb_mann_whitney_z(a, na, b, nb) > 1.959964;
}
