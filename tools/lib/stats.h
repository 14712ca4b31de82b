/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sched-ab's statistics: distribution-free and deterministic, because a
 * round is slow and rounds are few. Side B is compared to side A by the
 * Hodges-Lehmann estimate of their ratio (the median of every b_j/a_i) with
 * the 95% confidence interval that Mann-Whitney's exact null distribution
 * gives for the two sample sizes (Bauer, 1972). With 3 rounds or fewer on a
 * side no interval reaches 95%, and the result says so.
 */
#ifndef SCHEDBPF_STATS_H
#define SCHEDBPF_STATS_H

#include <stdbool.h>

/* One side's sample: its size, extremes, quartiles and median. */
struct stats_spread {
	int n;
	double min, q1, median, q3, max;
};

/* B against A. */
struct stats_ab {
	struct stats_spread a, b;
	/* the median of every b_j/a_i; NAN if there was no memory for them */
	double ratio;
	/* its 95% interval; 0..inf if there is none */
	double lo, hi;
	/* the interval's exact coverage; 0 if none reaches 95% */
	double confidence;
	/* -1 B is better, 1 worse, 0 no difference (the interval holds 1) */
	int verdict;
};

/* The q-quantile of sorted[0..n), linear between order statistics. */
double stats_quantile(const double *sorted, int n, double q);

/* Sorts v[0..n), n >= 1, and describes it. */
void stats_spread(double *v, int n, struct stats_spread *s);

/* b/a for numbers >= 0: 0/0 is 1 (no change), x/0 is infinite. */
double stats_ratio(double b, double a);

/*
 * For samples of n and m, the k for which the k-th smallest and the k-th
 * largest of the n*m pairwise ratios bound the 95% interval: the largest k
 * with P(U < k) <= 2.5% under Mann-Whitney's null distribution of U, and
 * *confidence = 1 - 2 P(U < k), the interval's exact coverage. 0 (and
 * *confidence 0) if even P(U = 0) is more than 2.5%.
 */
int stats_mann_whitney_k(int n, int m, double *confidence);

/*
 * Compares b[0..nb) to a[0..na), numbers >= 0, na and nb >= 1; lower is
 * better unless higher_is_better. Sorts a and b.
 */
void stats_compare(double *a, int na, double *b, int nb, bool higher_is_better,
		   struct stats_ab *res);

#endif /* SCHEDBPF_STATS_H */
