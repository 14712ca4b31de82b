// SPDX-License-Identifier: GPL-2.0-only
/*
 * sched-ab's statistics (tools/lib/stats.c) against values worked out by
 * hand, Mann-Whitney's null distribution against two independent ways of
 * getting it (every ordering counted; the recurrence on the sample
 * sizes), and the interval's coverage against a simulation.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "tap.h"
#include "util.h"

static bool near(double x, double want)
{
	return fabs(x - want) <= 1e-12 * fmax(1, fabs(want));
}

/* --- one side -------------------------------------------------------- */

static void spread_ok(const double *v, int n, double min, double q1,
		      double median, double q3, double max)
{
	struct stats_spread s;
	double copy[16];
	bool sorted = true;
	int i;

	memcpy(copy, v, (size_t)n * sizeof(*v));
	stats_spread(copy, n, &s);
	for (i = 1; i < n; i++)
		sorted &= copy[i - 1] <= copy[i];
	ok(s.n == n && s.min == min && near(s.q1, q1) &&
		   near(s.median, median) && near(s.q3, q3) && s.max == max &&
		   sorted,
	   "spread of %d: %g %g %g %g %g (got %g %g %g %g %g)", n, min, q1,
	   median, q3, max, s.min, s.q1, s.median, s.q3, s.max);
}

static void test_spread(void)
{
	static const double odd[] = { 5, 1, 3, 2, 4 };
	static const double even[] = { 4, 1, 3, 2 };
	static const double one[] = { 7 };
	static const double ties[] = { 2, 9, 2, 2 };
	static const double two[] = { 10, 20 };

	spread_ok(odd, 5, 1, 2, 3, 4, 5);
	/* h = q * 3: 0.75, 1.5, 2.25 between the order statistics */
	spread_ok(even, 4, 1, 1.75, 2.5, 3.25, 4);
	spread_ok(one, 1, 7, 7, 7, 7, 7);
	spread_ok(ties, 4, 2, 2, 2, 3.75, 9);
	ok(stats_quantile(two, 2, 0) == 10 &&
		   stats_quantile(two, 2, 0.5) == 15 &&
		   stats_quantile(two, 2, 1) == 20,
	   "quantiles 0, 0.5, 1 of 10, 20: 10, 15, 20");
}

static void test_ratio(void)
{
	ok(stats_ratio(0, 0) == 1, "0/0 is 1: no change");
	ok(isinf(stats_ratio(3, 0)) && stats_ratio(3, 0) > 0, "3/0 is +inf");
	ok(stats_ratio(0, 2) == 0 && stats_ratio(3, 2) == 1.5,
	   "0/2 is 0, 3/2 is 1.5");
}

/* --- Mann-Whitney's null distribution -------------------------------- */

/*
 * The reference k and coverage from counts[u], the orderings in which U
 * is u: the largest k with P(U < k) <= 2.5%. The counts are integers, so
 * the comparison is exact: 40 * below <= total.
 */
static int ref_k(const unsigned __int128 *counts, int len, double *confidence)
{
	unsigned __int128 total = 0, below = 0;
	int k;

	for (k = 0; k < len; k++)
		total += counts[k];
	for (k = 0; k < len && 40 * (below + counts[k]) <= total; k++)
		below += counts[k];
	*confidence = k ? 1 - 2 * (double)below / (double)total : 0;
	return k;
}

/* Every ordering of n A's and m B's, U the pairs with a B before an A. */
static int enumerated_k(int n, int m, double *confidence)
{
	unsigned __int128 counts[8 * 8 + 1] = { 0 };
	unsigned int mask;
	int bit, bs, u;

	for (mask = 0; mask < 1u << (n + m); mask++) {
		if (__builtin_popcount(mask) != n)
			continue;
		/* bit set: an A at that place, from the smallest up */
		for (bit = bs = u = 0; bit < n + m; bit++) {
			if (mask & (1u << bit))
				u += bs;
			else
				bs++;
		}
		counts[u]++;
	}
	return ref_k(counts, n * m + 1, confidence);
}

/*
 * The recurrence f(n, m, u) = f(n - 1, m, u - m) + f(n, m - 1, u): the
 * largest value is an A (it is above all m B's) or a B. Exact in 128 bits
 * up to n + m = 120.
 */
static int recurrence_k(int n, int m, double *confidence)
{
	int len = n * m + 1, i, j, u, k;
	unsigned __int128 *prev = calloc((size_t)(m + 1) * len, sizeof(*prev));
	unsigned __int128 *cur = calloc((size_t)(m + 1) * len, sizeof(*cur));
	unsigned __int128 *swap;

	if (!prev || !cur) {
		free(prev);
		free(cur);
		return -1;
	}
	/* row i: f(i, j, u) at [j * len + u]; no A's: U is 0 */
	for (j = 0; j <= m; j++)
		prev[j * len] = 1;
	for (i = 1; i <= n; i++) {
		memset(cur, 0, (size_t)(m + 1) * len * sizeof(*cur));
		cur[0] = 1;
		for (j = 1; j <= m; j++) {
			for (u = 0; u <= i * j; u++) {
				cur[j * len + u] = cur[(j - 1) * len + u];
				if (u >= j)
					cur[j * len + u] +=
						prev[j * len + u - j];
			}
		}
		swap = prev;
		prev = cur;
		cur = swap;
	}
	k = ref_k(prev + m * len, len, confidence);
	free(prev);
	free(cur);
	return k;
}

static void k_ok(int n, int m, int want_k, double want_conf)
{
	double conf = -1;
	int k = stats_mann_whitney_k(n, m, &conf);

	ok(k == want_k && near(conf, want_conf),
	   "Mann-Whitney %dx%d: k %d, coverage %.6f (got %d, %.6f)", n, m,
	   want_k, want_conf, k, conf);
}

static void test_mann_whitney(void)
{
	static const int big[][2] = { { 9, 30 }, { 37, 41 }, { 60, 60 } };
	double conf, ref_conf;
	int n, m, k, ref, bad = 0;
	size_t i;

	/* by hand, from the partitions of u into at most n parts <= m */
	k_ok(1, 1, 0, 0);
	k_ok(3, 3, 0, 0); /* P(U = 0) = 1/20 */
	k_ok(3, 4, 0, 0); /* 1/35 > 2.5% */
	k_ok(4, 4, 1, 1 - 2.0 / 70); /* 1/70 <= 2.5% < 2/70 */
	k_ok(4, 5, 2, 1 - 4.0 / 126); /* 1, 1, 2 of 126 */
	k_ok(5, 4, 2, 1 - 4.0 / 126);
	k_ok(5, 5, 3, 1 - 8.0 / 252); /* 1, 1, 2, 3 of 252 */
	k_ok(2, 20, 3, 1 - 8.0 / 231); /* 1, 1, 2, 2 of 231 */

	for (n = 1; n <= 8; n++) {
		for (m = 1; m <= 8; m++) {
			k = stats_mann_whitney_k(n, m, &conf);
			ref = enumerated_k(n, m, &ref_conf);
			if (k != ref || !near(conf, ref_conf)) {
				bad++;
				printf("# %dx%d: k %d coverage %.9f, counted %d %.9f\n",
				       n, m, k, conf, ref, ref_conf);
			}
		}
	}
	ok(!bad,
	   "Mann-Whitney k and coverage as counted over every ordering, 1..8 x 1..8 (%d differ)",
	   bad);
	for (i = 0; i < ARRAY_SIZE(big); i++) {
		n = big[i][0];
		m = big[i][1];
		k = stats_mann_whitney_k(n, m, &conf);
		ref = recurrence_k(n, m, &ref_conf);
		ok(k == ref && fabs(conf - ref_conf) < 1e-9,
		   "Mann-Whitney %dx%d as by the recurrence: k %d, coverage %.9f (got %d, %.9f)",
		   n, m, ref, ref_conf, k, conf);
	}
	/*
	 * sched-ab's most rounds, 100 x 100: past 2^53, still the normal
	 * approximation, mean 5000 and sd sqrt(100 * 100 * 201 / 12), to a
	 * few units, and a coverage of 95% to the width of one value of U.
	 */
	k = stats_mann_whitney_k(100, 100, &conf);
	ok(abs(k - (int)lround(5000 - 1.959964 * sqrt(167500.0) + 0.5)) <= 3 &&
		   conf >= 0.95 && conf < 0.9505,
	   "Mann-Whitney 100x100: k near %ld, coverage 95%% (got %d, %.6f)",
	   lround(5000 - 1.959964 * sqrt(167500.0) + 0.5), k, conf);
}

/* --- B against A ----------------------------------------------------- */

static void compare(const double *a, int na, const double *b, int nb,
		    bool higher_is_better, struct stats_ab *res)
{
	double ca[16], cb[16];

	memcpy(ca, a, (size_t)na * sizeof(*a));
	memcpy(cb, b, (size_t)nb * sizeof(*b));
	memset(res, 0xff, sizeof(*res));
	stats_compare(ca, na, cb, nb, higher_is_better, res);
}

static void test_compare(void)
{
	static const double pow_a[] = { 8, 1, 4, 2 }, pow_b[] = { 16, 2, 8, 4 };
	static const double lo_a[] = { 10, 11, 12, 13 },
			    hi_b[] = { 20, 22, 24, 26 };
	static const double three_a[] = { 1, 2, 3 }, three_b[] = { 10, 20, 30 };
	static const double two_a[] = { 1, 2 }, two_b[] = { 2, 6 };
	static const double zeros[] = { 0, 0, 0, 0 }, ones[] = { 1, 1, 1, 1 };
	struct stats_ab r;

	/*
	 * b = 2a, powers of two: the exponents of b_j/a_i are j - i + 1,
	 * -2..4 as 1, 2, 3, 4, 3, 2, 1 of 16; the 8th and 9th are both 1
	 */
	compare(pow_a, 4, pow_b, 4, false, &r);
	ok(r.ratio == 2 && r.lo == 0.25 && r.hi == 16 &&
		   near(r.confidence, 1 - 2.0 / 70) && r.verdict == 0,
	   "b = 2a, 4 rounds: ratio 2, CI 0.25..16, no difference (got %g, %g..%g, %d)",
	   r.ratio, r.lo, r.hi, r.verdict);
	ok(r.a.n == 4 && r.a.min == 1 && r.a.median == 3 && r.a.max == 8 &&
		   r.b.n == 4 && r.b.min == 2 && r.b.median == 6 &&
		   r.b.max == 16,
	   "and each side's spread: A 1, 3, 8; B 2, 6, 16");

	/* every ratio above 1: the 1st smallest 20/13, the 1st largest 26/10 */
	compare(lo_a, 4, hi_b, 4, false, &r);
	ok(near(r.lo, 20.0 / 13) && near(r.hi, 2.6) && r.verdict == 1,
	   "B twice A, lower better: CI 20/13..2.6, worse (got %g..%g, %d)",
	   r.lo, r.hi, r.verdict);
	/* 20/10 = 22/11 = 24/12 = 26/13, the 7th to 10th of 16 */
	ok(near(r.ratio, 2), "and ratio 2 (got %g)", r.ratio);
	compare(lo_a, 4, hi_b, 4, true, &r);
	ok(r.verdict == -1, "the same, higher better: better (%d)", r.verdict);
	compare(hi_b, 4, lo_a, 4, false, &r);
	ok(near(r.lo, 10.0 / 26) && near(r.hi, 13.0 / 20) && r.verdict == -1,
	   "B half A, lower better: CI 10/26..13/20, better (got %g..%g, %d)",
	   r.lo, r.hi, r.verdict);

	/* 10, 20, 30, 5, 10, 15, 10/3, 20/3, 10: the 5th of 9 is 10 */
	compare(three_a, 3, three_b, 3, false, &r);
	ok(r.ratio == 10 && r.confidence == 0 && r.lo == 0 && isinf(r.hi) &&
		   r.verdict == 0,
	   "3 rounds: ratio 10, no interval, no verdict however far apart (got %g, %g, %d)",
	   r.ratio, r.confidence, r.verdict);
	/* 2, 6, 1, 3: sqrt(2 * 3) */
	compare(two_a, 2, two_b, 2, false, &r);
	ok(near(r.ratio, sqrt(6)), "2 rounds: ratio sqrt(6) (got %g)", r.ratio);

	compare(zeros, 4, zeros, 4, false, &r);
	ok(r.ratio == 1 && r.lo == 1 && r.hi == 1 && r.verdict == 0,
	   "all zero: ratio 1, CI 1..1, no difference");
	compare(zeros, 4, ones, 4, false, &r);
	ok(isinf(r.ratio) && isinf(r.lo) && r.verdict == 1,
	   "from 0 to 1: ratio inf, worse");
}

/* Uniform in [1, 2), from erand48's fixed sequence. */
static double draw(unsigned short xsubi[3])
{
	return 1 + erand48(xsubi);
}

/*
 * Properties that hold whatever the values: b = c * a gives c; swapping
 * the sides inverts the ratio and its interval and turns the verdict.
 */
static void test_symmetry(void)
{
	unsigned short xsubi[3] = { 1, 2, 3 };
	double a[9], b[9], c[9];
	struct stats_ab ab, ba;
	int i;

	for (i = 0; i < 7; i++) {
		a[i] = draw(xsubi);
		c[i] = 3 * a[i];
	}
	compare(a, 7, c, 7, false, &ab);
	ok(near(ab.ratio, 3) && ab.lo <= 3 && ab.hi >= 3 && ab.verdict == 1,
	   "b = 3a of 7 random values: ratio 3, in the CI, worse (got %.15g, %g..%g)",
	   ab.ratio, ab.lo, ab.hi);
	for (i = 0; i < 9; i++)
		b[i] = 1.2 * draw(xsubi);
	compare(a, 6, b, 9, false, &ab);
	compare(b, 9, a, 6, false, &ba);
	ok(near(ab.ratio * ba.ratio, 1) && near(ab.lo * ba.hi, 1) &&
		   near(ab.hi * ba.lo, 1) && ab.confidence == ba.confidence &&
		   ab.verdict == -ba.verdict,
	   "6 vs 9 random values, sides swapped: ratio %g and %g, CI %g..%g and %g..%g",
	   ab.ratio, ba.ratio, ab.lo, ab.hi, ba.lo, ba.hi);
}

/*
 * With A and B from one distribution the interval leaves out 1 exactly as
 * often as it promises: lo > 1 when fewer than k of the ratios are below
 * 1, which is U < k, and as often hi < 1. 4000 draws of 5 against 5 miss
 * 1 - 244/252 of the time, 127 expected, sd 11.
 */
static void test_coverage(void)
{
	unsigned short xsubi[3] = { 7, 8, 9 };
	double a[5], b[5];
	struct stats_ab r;
	int trial, i, missed = 0, trials = 4000;
	double expect = trials * 8.0 / 252;

	for (trial = 0; trial < trials; trial++) {
		for (i = 0; i < 5; i++) {
			a[i] = draw(xsubi);
			b[i] = draw(xsubi);
		}
		compare(a, 5, b, 5, false, &r);
		missed += r.lo > 1 || r.hi < 1;
	}
	ok(fabs(missed - expect) < 4 * sqrt(expect),
	   "5 vs 5 from one distribution: 1 outside the CI %d times of %d (%.0f expected)",
	   missed, trials, expect);
}

int main(void)
{
	test_spread();
	test_ratio();
	test_mann_whitney();
	test_compare();
	test_symmetry();
	test_coverage();
	return tap_done();
}
