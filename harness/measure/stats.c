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

int pcb_welch_significant(const double *a, int na, const double *b, int nb)
{
	double va, vb, se2, t, df, crit;

	if (na < 2 || nb < 2)
		return 0;
	va = pcb_stddev(a, na);
	va *= va;
	vb = pcb_stddev(b, nb);
	vb *= vb;
	se2 = va / na + vb / nb;
	if (!isfinite(se2))
		return 0;
	if (se2 == 0)
		return pcb_mean(a, na) != pcb_mean(b, nb);
	t = fabs(pcb_mean(a, na) - pcb_mean(b, nb)) / sqrt(se2);
	/* Welch-Satterthwaite degrees of freedom, rounded down (conservative) */
	df = se2 * se2 / ((va / na) * (va / na) / (na - 1) + (vb / nb) * (vb / nb) / (nb - 1));
	/* run means so far apart that the arithmetic overflows say nothing reliable */
	if (!isfinite(t) || !isfinite(df))
		return 0;
	if (df < 1)
		df = 1;
	crit = df >= 31 ? 1.960 + 2.4 / df : t975[(int)df - 1];
	return t > crit;
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
