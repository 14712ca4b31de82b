// SPDX-License-Identifier: GPL-2.0-only
/* sched-ab's statistics (stats.h). */
#include <math.h>
#include <stdlib.h>

#include "stats.h"

/* two-sided 95%: the interval leaves out at most 2.5% on either side */
#define CI_TAIL 0.025

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

double stats_quantile(const double *sorted, int n, double q)
{
	double h = q * (n - 1);
	int i = (int)h;

	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - i) * (sorted[i + 1] - sorted[i]);
}

void stats_spread(double *v, int n, struct stats_spread *s)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	s->n = n;
	s->min = v[0];
	s->max = v[n - 1];
	s->q1 = stats_quantile(v, n, 0.25);
	s->median = stats_quantile(v, n, 0.5);
	s->q3 = stats_quantile(v, n, 0.75);
}

double stats_ratio(double b, double a)
{
	if (a == 0)
		return b == 0 ? 1 : INFINITY;
	return b / a;
}

/*
 * U for samples of n and m without ties takes each value u in as many of
 * the C(n+m, n) equally likely orderings as there are partitions of u into
 * at most n parts of at most m: the coefficients of the Gaussian binomial
 * [n+m choose n](q), built one factor (1 - q^(m+i)) / (1 - q^i) at a time.
 */
int stats_mann_whitney_k(int n, int m, double *confidence)
{
	int deg = 0, len = n * m + 1, i, u, k;
	/* room for the product before each division */
	double *c = calloc((size_t)(len + n), sizeof(*c)), total = 0, below = 0;

	*confidence = 0;
	if (!c)
		return 0;
	c[0] = 1;
	for (i = 1; i <= n; i++) {
		/* times (1 - q^(m+i)), from the top so each term is read once */
		for (u = deg + m + i; u >= m + i; u--)
			c[u] -= c[u - (m + i)];
		/* divided by (1 - q^i): the quotient, of degree i*m */
		deg += m;
		for (u = i; u <= deg; u++)
			c[u] += c[u - i];
		for (u = deg + 1; u <= deg + i; u++)
			c[u] = 0;
	}
	for (u = 0; u < len; u++)
		total += c[u];
	for (k = 0; k < len && below + c[k] <= CI_TAIL * total; k++)
		below += c[k];
	free(c);
	if (k)
		*confidence = 1 - 2 * below / total;
	return k;
}

/* The Hodges-Lehmann ratio, its interval and the verdict. */
static void compare_ratios(const double *a, int na, const double *b, int nb,
			   bool higher_is_better, struct stats_ab *res)
{
	int nr = na * nb, i, j, k, h;
	double *r = malloc((size_t)nr * sizeof(*r));

	res->ratio = NAN;
	res->lo = 0;
	res->hi = INFINITY;
	res->confidence = 0;
	res->verdict = 0;
	if (!r)
		return;
	for (i = 0; i < na; i++) {
		for (j = 0; j < nb; j++)
			r[i * nb + j] = stats_ratio(b[j], a[i]);
	}
	qsort(r, (size_t)nr, sizeof(*r), cmp_double);
	h = nr / 2;
	/* the median ratio; of an even count, the geometric mean of two */
	res->ratio = nr % 2 ? r[h] : sqrt(r[h - 1] * r[h]);
	k = stats_mann_whitney_k(na, nb, &res->confidence);
	if (k) {
		res->lo = r[k - 1];
		res->hi = r[nr - k];
		if (res->lo > 1)
			res->verdict = higher_is_better ? -1 : 1;
		else if (res->hi < 1)
			res->verdict = higher_is_better ? 1 : -1;
	}
	free(r);
}

void stats_compare(double *a, int na, double *b, int nb, bool higher_is_better,
		   struct stats_ab *res)
{
	compare_ratios(a, na, b, nb, higher_is_better, res);
	stats_spread(a, na, &res->a);
	stats_spread(b, nb, &res->b);
}
