/* SPDX-License-Identifier: GPL-2.0-only */
/* Small helpers every part of the tools may use. */
#ifndef SCHEDBPF_UTIL_H
#define SCHEDBPF_UTIL_H

/* the number of elements of array a (not a pointer) */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* SCHEDBPF_UTIL_H */
