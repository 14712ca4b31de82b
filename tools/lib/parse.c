// SPDX-License-Identifier: GPL-2.0-only
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "util.h"

static const struct {
	const char *name;
	__u64 ns;
} units[] = {
	{ "ns", 1 },
	{ "us", NSEC_PER_USEC },
	{ "ms", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC },
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Leading digits of s into *out; returns how many were read, or -1 on
 * overflow.
 */
static int read_digits(const char *s, __u64 *out)
{
	__u64 v = 0;
	int n;

	for (n = 0; is_digit(s[n]); n++) {
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (__u64)(s[n] - '0'), &v))
			return -1;
	}
	*out = v;
	return n;
}

static int not_a_number(const char *s, char *err, size_t errlen)
{
	if (!*s)
		snprintf(err, errlen, "empty");
	else if (*s == '-')
		snprintf(err, errlen, "negative");
	else
		snprintf(err, errlen, "not a number");
	return -1;
}

int parse_u64(const char *s, __u64 min, __u64 max, __u64 *out, char *err,
	      size_t errlen)
{
	__u64 v;
	int n;

	if (!is_digit(*s))
		return not_a_number(s, err, errlen);
	n = read_digits(s, &v);
	if (n < 0) {
		snprintf(err, errlen, "too large (at most %llu)", max);
		return -1;
	}
	if (s[n]) {
		snprintf(err, errlen, "trailing junk '%s'", s + n);
		return -1;
	}
	if (v < min || v > max) {
		snprintf(err, errlen, "out of range (%llu to %llu)", min, max);
		return -1;
	}
	*out = v;
	return 0;
}

static int range_error(__u64 min_ns, __u64 max_ns, char *err, size_t errlen)
{
	char lo[32], hi[32];

	snprintf(err, errlen, "out of range (%s to %s)",
		 format_duration(min_ns, lo, sizeof(lo)),
		 format_duration(max_ns, hi, sizeof(hi)));
	return -1;
}

int parse_duration(const char *s, __u64 min_ns, __u64 max_ns, __u64 *out_ns,
		   char *err, size_t errlen)
{
	__u64 whole, frac = 0, frac_scale = 1, ns;
	const char *p = s, *unit;
	unsigned __int128 frac_ns;
	size_t i;
	int n;

	if (!is_digit(*p))
		return not_a_number(s, err, errlen);
	n = read_digits(p, &whole);
	if (n < 0)
		return range_error(min_ns, max_ns, err, errlen);
	p += n;
	if (*p == '.') {
		p++;
		if (!is_digit(*p)) {
			snprintf(err, errlen, "no digits after '.'");
			return -1;
		}
		for (n = 0; is_digit(p[n]); n++) {
			if (n == 9) {
				snprintf(err, errlen,
					 "more than 9 decimal places");
				return -1;
			}
			frac = frac * 10 + (__u64)(p[n] - '0');
			frac_scale *= 10;
		}
		p += n;
	}
	unit = p;
	if (!*unit) {
		snprintf(err, errlen, "missing unit (ns, us, ms, s, m or h)");
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(unit, units[i].name))
			break;
	}
	if (i == ARRAY_SIZE(units)) {
		snprintf(err, errlen,
			 "unknown unit '%s' (ns, us, ms, s, m or h)", unit);
		return -1;
	}
	frac_ns = (unsigned __int128)frac * units[i].ns;
	if (frac_ns % frac_scale) {
		snprintf(err, errlen, "finer than a nanosecond");
		return -1;
	}
	if (__builtin_mul_overflow(whole, units[i].ns, &ns) ||
	    __builtin_add_overflow(ns, (__u64)(frac_ns / frac_scale), &ns))
		return range_error(min_ns, max_ns, err, errlen);
	if (ns < min_ns || ns > max_ns)
		return range_error(min_ns, max_ns, err, errlen);
	*out_ns = ns;
	return 0;
}

const char *format_duration(__u64 ns, char *buf, size_t len)
{
	int i;

	for (i = ARRAY_SIZE(units) - 1; i > 0; i--) {
		if (ns && ns % units[i].ns == 0)
			break;
	}
	snprintf(buf, len, "%llu%s", ns / units[i].ns, units[i].name);
	return buf;
}
