// SPDX-License-Identifier: GPL-2.0-only
/*
 * The few names the tools need from the kernel's BTF, found without
 * holding it: sched_btf_load() reads the string section, then the type
 * records, through a buffer of 64 KiB, and keeps the offsets of the names
 * it wants, then the enums' values and the bpf_sched_* functions' ids. The
 * BTF is 4 MB and more (a distribution kernel's, more still), and a tool's
 * peak memory was mostly its copies of it. sched_btf_read() reads all of
 * it, for sched_btf_find() and sched_btf_func(), by name, one walk over
 * the type records each (tests/kernel's schedtest).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/btf.h>

#include "btf.h"
#include "util.h"

/* Reads all of path into sb->data. 0, or -errno. */
static int read_all(struct sched_btf *sb, const char *path)
{
	size_t cap, len = 0;
	struct stat st;
	char *buf;
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs states the BTF's size; a file read to its end may grow */
	cap = fstat(fd, &st) == 0 && st.st_size > 0 ? st.st_size + 1 : 1 << 20;
	buf = malloc(cap);
	while (buf) {
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		len += n;
		if (len == cap) {
			char *more = realloc(buf, cap * 2);

			if (!more)
				free(buf);
			buf = more;
			cap *= 2;
		}
	}
	close(fd);
	if (!buf)
		return -ENOMEM;
	if (ret) {
		free(buf);
		return ret;
	}
	sb->data = buf;
	sb->size = len;
	return 0;
}

/*
 * Whether h is a BTF header whose sections lie within size bytes (size 0:
 * not known, as for a file that does not state it).
 */
static bool header_ok(const struct btf_header *h, size_t size)
{
	size_t tend = (size_t)h->hdr_len + h->type_off + h->type_len;
	size_t send = (size_t)h->hdr_len + h->str_off + h->str_len;

	return h->magic == BTF_MAGIC && h->hdr_len >= sizeof(*h) &&
	       h->str_len && (!size || (tend <= size && send <= size));
}

/*
 * Checks the header and that the string section ends in a NUL, and sets
 * sb->types, ->types_end and ->strs. 0, or -EPROTO.
 */
static int check_header(struct sched_btf *sb)
{
	const struct btf_header *h = sb->data;

	if (sb->size < sizeof(*h) || !header_ok(h, sb->size) ||
	    ((const char *)sb->data)[h->hdr_len + h->str_off + h->str_len - 1])
		return -EPROTO;
	sb->types = (const char *)sb->data + h->hdr_len + h->type_off;
	sb->types_end = sb->types + h->type_len;
	sb->strs = (const char *)sb->data + h->hdr_len + h->str_off;
	sb->str_len = h->str_len;
	return 0;
}

/* Bytes that follow a type's common record, by its kind; -1 if unknown. */
static long extra_size(const struct btf_type *t)
{
	long vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
		return sizeof(__u32);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR:
		return sizeof(struct btf_var);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG:
		return sizeof(struct btf_decl_tag);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	}
	return -1;
}

/* The string at off, or "" where off is outside the string section. */
static const char *str_at(const struct sched_btf *sb, __u32 off)
{
	return off < sb->str_len ? sb->strs + off : "";
}

/*
 * Walks the type records of a BTF read whole until the first type of kind
 * named name: its id, with *tp its record. -ENOENT if there is none;
 * -EPROTO if a record is cut short or of a kind this walk does not know
 * (it cannot step over it).
 */
static int walk(const struct sched_btf *sb, int kind, const char *name,
		const struct btf_type **tp)
{
	const char *p = sb->types;
	int id;

	for (id = 1; p < sb->types_end; id++) {
		const struct btf_type *t = (const void *)p;
		long extra;

		if ((size_t)(sb->types_end - p) < sizeof(*t))
			return -EPROTO;
		extra = extra_size(t);
		if (extra < 0 ||
		    (size_t)(sb->types_end - p) < sizeof(*t) + extra)
			return -EPROTO;
		p += sizeof(*t) + extra;
		if ((int)BTF_INFO_KIND(t->info) == kind &&
		    !strcmp(str_at(sb, t->name_off), name)) {
			*tp = t;
			return id;
		}
	}
	return -ENOENT;
}

/* --- sched_btf_load(): one pass over each section, 64 KiB at a time ----- */

#define STREAM_CHUNK (64 << 10)

/* A section of the file, read forward through buf. */
struct stream {
	int fd;
	char *buf;
	size_t cap;
	/* buf[pos, end) is read and not yet consumed */
	size_t pos, end;
	/* the file's offset of buf[end], and the section's bytes after it */
	off_t off;
	size_t left;
};

/*
 * Makes n bytes available at s->buf + s->pos: 0; -EPROTO if the section
 * (or the file) ends first; or -errno.
 */
static int stream_need(struct stream *s, size_t n)
{
	size_t have = s->end - s->pos;
	ssize_t got;

	if (have >= n)
		return 0;
	if (have + s->left < n)
		return -EPROTO;
	memmove(s->buf, s->buf + s->pos, have);
	s->pos = 0;
	s->end = have;
	if (n > s->cap) {
		size_t cap = n + STREAM_CHUNK;
		char *more = realloc(s->buf, cap);

		if (!more)
			return -ENOMEM;
		s->buf = more;
		s->cap = cap;
	}
	while (s->end < n) {
		size_t want = s->cap - s->end < s->left ? s->cap - s->end :
							  s->left;

		got = pread(s->fd, s->buf + s->end, want, s->off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0)
			return -EPROTO;
		s->end += got;
		s->off += got;
		s->left -= got;
	}
	return 0;
}

static void stream_start(struct stream *s, off_t off, size_t len)
{
	s->pos = s->end = 0;
	s->off = off;
	s->left = len;
}

/* What the string pass looks for, by the offsets it finds them at. */
enum { NAME_PROG_ENUM, NAME_ATTACH_ENUM, NAME_PROG, NAME_ATTACH, NR_NAMES };

static const char *const wanted[NR_NAMES] = {
	[NAME_PROG_ENUM] = "bpf_prog_type",
	[NAME_ATTACH_ENUM] = "bpf_attach_type",
	[NAME_PROG] = SCHED_PROG_TYPE_NAME,
	[NAME_ATTACH] = SCHED_ATTACH_TYPE_NAME,
};

struct scan {
	/* each wanted name's offset, 0 if absent ("" is at 0) */
	__u32 off[NR_NAMES];
	/* the offsets of the bpf_sched_* names kept in sb->hooks */
	__u32 hook_off[SCHED_BTF_MAX_HOOKS];
	/* whether the first enum of each name has been seen */
	bool seen_prog, seen_attach;
};

/*
 * The string section: every string's offset compared with the wanted
 * names; the bpf_sched_* ones copied into sb->hooks (id 0 until the type
 * pass finds a function of that name).
 */
static int scan_strings(struct stream *s, struct sched_btf *sb,
			struct scan *sc, size_t len)
{
	const size_t plen = strlen(SCHED_HOOK_PREFIX);
	size_t at = 0;
	int i, ret;

	while (at < len) {
		const char *str, *nul;
		size_t n;

		nul = memchr(s->buf + s->pos, '\0', s->end - s->pos);
		if (!nul) {
			/* the string's end is in what is not read yet */
			ret = stream_need(s, s->end - s->pos + 1);
			if (ret)
				return ret;
			continue;
		}
		str = s->buf + s->pos;
		n = nul - str + 1;
		for (i = 0; i < NR_NAMES; i++) {
			if (!sc->off[i] && !strcmp(str, wanted[i]))
				sc->off[i] = at;
		}
		if (!strncmp(str, SCHED_HOOK_PREFIX, plen) &&
		    n <= sizeof(sb->hooks[0].name)) {
			if (sb->nr_hooks < SCHED_BTF_MAX_HOOKS) {
				sc->hook_off[sb->nr_hooks] = at;
				memcpy(sb->hooks[sb->nr_hooks].name, str, n);
			}
			sb->nr_hooks++;
		}
		s->pos += n;
		at += n;
	}
	return 0;
}

/* Value of the enumerator at name_off in enum t, or -ENOENT. */
static int enum_value(const struct btf_type *t, __u32 name_off)
{
	const struct btf_enum *e = (const void *)(t + 1);
	int i;

	for (i = 0; name_off && i < (int)BTF_INFO_VLEN(t->info); i++, e++) {
		if (e->name_off == name_off)
			return e->val;
	}
	return -ENOENT;
}

/*
 * The type section: the two enums' values (of the first enum of each
 * name), and the ids of the functions whose names the string pass kept.
 */
static int scan_types(struct stream *s, struct sched_btf *sb,
		      struct scan *sc)
{
	int id, i, nr = sb->nr_hooks < SCHED_BTF_MAX_HOOKS ?
				sb->nr_hooks :
				SCHED_BTF_MAX_HOOKS;
	int ret;

	for (id = 1; s->end > s->pos || s->left; id++) {
		const struct btf_type *t;
		long extra;
		int k;

		ret = stream_need(s, sizeof(*t));
		if (ret)
			return ret;
		t = (const void *)(s->buf + s->pos);
		extra = extra_size(t);
		if (extra < 0)
			return -EPROTO;
		ret = stream_need(s, sizeof(*t) + extra);
		if (ret)
			return ret;
		t = (const void *)(s->buf + s->pos);
		k = BTF_INFO_KIND(t->info);
		if (k == BTF_KIND_ENUM && t->name_off &&
		    t->name_off == sc->off[NAME_PROG_ENUM] && !sc->seen_prog) {
			sc->seen_prog = true;
			sb->prog_type = enum_value(t, sc->off[NAME_PROG]);
		} else if (k == BTF_KIND_ENUM && t->name_off &&
			   t->name_off == sc->off[NAME_ATTACH_ENUM] &&
			   !sc->seen_attach) {
			sc->seen_attach = true;
			sb->attach_type = enum_value(t, sc->off[NAME_ATTACH]);
		} else if (k == BTF_KIND_FUNC) {
			for (i = 0; i < nr; i++) {
				if (sc->hook_off[i] == t->name_off &&
				    !sb->hooks[i].id)
					sb->hooks[i].id = id;
			}
		}
		s->pos += sizeof(*t) + extra;
	}
	sb->nr_types = id - 1;
	return 0;
}

/*
 * The header, the strings, then the types, of the BTF at path; sb->hooks
 * then keeps the functions among the bpf_sched_* names, in the strings'
 * order. 0 or -errno (-EPROTO: not BTF, or of a newer format).
 */
static int scan(struct sched_btf *sb, const char *path)
{
	struct stream s = { .cap = STREAM_CHUNK };
	struct scan sc = {};
	struct btf_header h;
	struct stat st;
	int i, n, ret;

	sb->prog_type = sb->attach_type = -ENOENT;
	s.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s.fd < 0)
		return -errno;
	s.buf = malloc(s.cap);
	ret = s.buf ? 0 : -ENOMEM;
	if (!ret) {
		stream_start(&s, 0, sizeof(h));
		ret = stream_need(&s, sizeof(h));
	}
	if (!ret) {
		memcpy(&h, s.buf, sizeof(h));
		/* sysfs states the BTF's size: a section past it is no BTF */
		if (!header_ok(&h, fstat(s.fd, &st) == 0 && st.st_size > 0 ?
					   (size_t)st.st_size :
					   0))
			ret = -EPROTO;
	}
	if (!ret) {
		stream_start(&s, h.hdr_len + h.str_off, h.str_len);
		ret = scan_strings(&s, sb, &sc, h.str_len);
	}
	if (!ret) {
		stream_start(&s, h.hdr_len + h.type_off, h.type_len);
		ret = scan_types(&s, sb, &sc);
	}
	free(s.buf);
	close(s.fd);
	/* the names that are no function's go */
	n = sb->nr_hooks < SCHED_BTF_MAX_HOOKS ? sb->nr_hooks :
						 SCHED_BTF_MAX_HOOKS;
	sb->nr_hooks = 0;
	for (i = 0; !ret && i < n; i++) {
		if (sb->hooks[i].id)
			sb->hooks[sb->nr_hooks++] = sb->hooks[i];
	}
	return ret;
}

int sched_btf_read(struct sched_btf *sb, const char *path)
{
	int ret;

	memset(sb, 0, sizeof(*sb));
	ret = read_all(sb, path ? path : KERNEL_BTF_PATH);
	if (!ret && (ret = check_header(sb)))
		sched_btf_free(sb);
	return ret;
}

int sched_btf_load(struct sched_btf *sb, const char *path, char *err,
		   size_t errlen)
{
	const char *file = path ? path : KERNEL_BTF_PATH;
	int ret;

	memset(sb, 0, sizeof(*sb));
	ret = scan(sb, file);
	if (ret) {
		snprintf(err, errlen, "cannot read kernel BTF %s: %s", file,
			 ret == -EPROTO ? "not BTF, or of a newer format" :
					  strerror(-ret));
		sched_btf_free(sb);
		return ret;
	}
	if (sb->prog_type < 0 || sb->attach_type < 0) {
		snprintf(err, errlen, "%s has no %s", file,
			 sb->prog_type < 0 ? SCHED_PROG_TYPE_NAME :
					     SCHED_ATTACH_TYPE_NAME);
		sched_btf_free(sb);
		return -ENOENT;
	}
	return 0;
}

int sched_btf_find(const struct sched_btf *sb, int kind, const char *name)
{
	const struct btf_type *t;

	return sb->data && name ?
		       walk(sb, kind, name, &t) :
		       -ENOENT;
}

static bool has_func(const struct sched_btf *sb, const char *func)
{
	return sched_btf_find(sb, BTF_KIND_FUNC, func) > 0;
}

int sched_btf_hook(const struct sched_btf *sb, const char *hook)
{
	char name[sizeof(sb->hooks[0].name)];
	int i;

	if (snprintf(name, sizeof(name), SCHED_HOOK_PREFIX "%s", hook) >=
	    (int)sizeof(name))
		return -ENOENT;
	for (i = 0; i < sb->nr_hooks; i++) {
		if (!strcmp(sb->hooks[i].name, name))
			return sb->hooks[i].id;
	}
	return -ENOENT;
}

/*
 * Functions a tracing program attaches to that later kernels renamed: the
 * program names the 6.1 one in its section, and is pointed at whichever
 * name the running kernel has.
 */
static const char *const renamed[][2] = {
	/* 6.7: the sched_class method became wakeup_preempt() */
	{ "check_preempt_wakeup", "check_preempt_wakeup_fair" },
};

const char *sched_btf_func(const struct sched_btf *sb, const char *func)
{
	size_t i;

	if (has_func(sb, func))
		return func;
	for (i = 0; i < ARRAY_SIZE(renamed); i++) {
		if (!strcmp(renamed[i][0], func) && has_func(sb, renamed[i][1]))
			return renamed[i][1];
	}
	return NULL;
}

void sched_btf_free(struct sched_btf *sb)
{
	free(sb->data);
	sb->data = NULL;
	sb->types = sb->types_end = sb->strs = NULL;
	sb->size = sb->str_len = 0;
}
