/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strict parsing of numbers and durations: the whole string must parse, no
 * sign, no spaces, no overflow, inside [min, max]. On failure the functions
 * return -1 and write why into err, for a message that also quotes the
 * offending text.
 */
#ifndef SCHEDBPF_PARSE_H
#define SCHEDBPF_PARSE_H

#include <stddef.h>
#include <linux/types.h>

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

/* Room for any reason the parsers give. */
#define PARSE_ERR_LEN 96

/* A decimal integer in [min, max]. */
int parse_u64(const char *s, __u64 min, __u64 max, __u64 *out, char *err,
	      size_t errlen);

/*
 * A duration with a unit, "500us", "10ms", "2s", "1.5s", "2m" (ns, us, ms,
 * s, m, h), to nanoseconds in [min_ns, max_ns]. A bare number is rejected: its
 * unit would be a guess.
 */
int parse_duration(const char *s, __u64 min_ns, __u64 max_ns, __u64 *out_ns,
		   char *err, size_t errlen);

/* The shortest exact spelling of ns in the largest whole unit: "100ms". */
const char *format_duration(__u64 ns, char *buf, size_t len);

#endif /* SCHEDBPF_PARSE_H */
