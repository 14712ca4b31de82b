// SPDX-License-Identifier: GPL-2.0-only
/*
 * gen-loader OBJ NAME: writes to stdout the light skeletons of the BPF
 * object OBJ, two struct loader_desc (tools/lib/loader.h says what they
 * are and why): NAME_loader, which loads every program, and
 * NAME_policy_loader, its .policy, which loads all but the observers. Run at build time, with the build's libbpf; it
 * needs no BPF and no scheduler hooks: libbpf records the loader without
 * loading anything.
 *
 * sched/ programs are recorded with stand-in numbers (each program its
 * own program type, LOADER_STANDIN_PROG_TYPE + its index, so that its
 * attributes are found by that and its name), and the offset of each
 * one's attributes in the data goes into the header for the tool to
 * patch.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf.h"
#include "loader.h"

/* zero runs at least this long split the data into segments */
#define ZERO_RUN 64

static const char *prog;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static int standin_prepare(struct bpf_program *p, struct bpf_prog_load_opts *o,
			   long cookie)
{
	o->attach_btf_id = LOADER_STANDIN_BTF_ID;
	return 0;
}

static bool is_sched(const struct bpf_program *p)
{
	return !strncmp(bpf_program__section_name(p), SCHED_SEC_PREFIX,
			strlen(SCHED_SEC_PREFIX));
}

static void put_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	putchar('"');
	for (i = 0; i < n; i++) {
		if (i && !(i % 32))
			fputs("\"\n\t\"", stdout);
		printf("\\x%02x", b[i]);
	}
	putchar('"');
}

/* The offset of sched program idx's BPF_PROG_LOAD attributes in data. */
static int find_attr(const void *data, size_t sz, int idx, const char *name)
{
	char want[BPF_OBJ_NAME_LEN] = {};
	int found = -1;
	size_t off;

	strncpy(want, name, sizeof(want) - 1);
	for (off = 0; off + sizeof(union bpf_attr) <= sz; off += 8) {
		const union bpf_attr *a =
			(const void *)((const char *)data + off);

		if (a->prog_type != LOADER_STANDIN_PROG_TYPE + idx ||
		    a->expected_attach_type != LOADER_STANDIN_ATTACH_TYPE ||
		    a->attach_btf_id != LOADER_STANDIN_BTF_ID ||
		    memcmp(a->prog_name, want, sizeof(want)))
			continue;
		if (found >= 0)
			die("program %s: its attributes are twice in the data",
			    name);
		found = off;
	}
	if (found < 0)
		die("program %s: its attributes are not in the data", name);
	return found;
}

/*
 * libbpf 1.1 records the second and later uses of a typed ksym (our
 * runqueues) wrongly: it copies the first use's BTF id, then its BTF
 * object fd, and keeps the ldimm64's BTF-id mark only if the last value
 * copied, the fd, is not 0; vmlinux's fd is 0, so the mark is cleared and
 * the verifier sees a plain number ("R1 type=scalar expected=percpu_ptr_").
 * Later libbpf copies the two in the other order. So do we: each such
 * sequence has its two copies (6 instructions each: ldimm64 of the
 * source, load, ldimm64 of the destination, store) swapped where the id
 * comes first, and left where a later libbpf wrote the fd first. Returns
 * how many it swapped.
 */
static int fix_ksym_copies(struct bpf_insn *insns, int cnt)
{
	const int copy = 6, next = sizeof(*insns);
	struct bpf_insn tmp[6];
	int i, n = 0;

	for (i = 2 * copy; i + 3 < cnt; i++) {
		struct bpf_insn *jne = &insns[i], *first = jne - 2 * copy;

		if (jne->code != (BPF_JMP | BPF_JNE | BPF_K) ||
		    jne->dst_reg != BPF_REG_0 || jne->imm || jne->off != 3 ||
		    jne[1].code != (BPF_LDX | BPF_MEM | BPF_B) ||
		    jne[1].dst_reg != BPF_REG_9 ||
		    jne[1].src_reg != BPF_REG_8 ||
		    jne[2].code != (BPF_ALU | BPF_AND | BPF_K) ||
		    jne[3].code != (BPF_STX | BPF_MEM | BPF_B))
			continue;
		/*
		 * the copies: ldimm64 r2 = source; r0 = *(u32 *)r2;
		 * ldimm64 r1 = destination (the use's imm, or its next
		 * instruction's, 8 bytes on); *(u32 *)r1 = r0
		 */
		if (first[0].code != (BPF_LD | BPF_IMM | BPF_DW) ||
		    first[2].code != (BPF_LDX | BPF_MEM | BPF_W) ||
		    first[copy].code != (BPF_LD | BPF_IMM | BPF_DW) ||
		    first[copy + 2].code != (BPF_LDX | BPF_MEM | BPF_W))
			die("%s",
			    "a typed ksym's copy is not as libbpf writes it");
		if (first[4].imm == first[copy + 4].imm + next)
			continue; /* the fd first: a libbpf that is right */
		if (first[copy + 4].imm != first[4].imm + next)
			die("%s",
			    "a typed ksym's copy is not as libbpf writes it");
		memcpy(tmp, first, sizeof(tmp));
		memcpy(first, first + copy, sizeof(tmp));
		memcpy(first + copy, tmp, sizeof(tmp));
		n++;
	}
	return n;
}

/* DATASEC sec of obj's BTF, or NULL. */
static const struct btf_type *datasec(const struct btf *btf, const char *sec)
{
	int id = btf__find_by_name_kind(btf, sec, BTF_KIND_DATASEC);

	return id > 0 ? btf__type_by_id(btf, id) : NULL;
}

static void put_data(const char *name, const void *p, size_t sz)
{
	const unsigned char *d = p;
	size_t i = 0, start, zeros;
	int n = 0;

	printf("static const struct loader_seg %s_segs[] = {\n", name);
	while (i < sz) {
		while (i < sz && !d[i])
			i++;
		if (i == sz)
			break;
		start = i;
		for (zeros = 0; i < sz && zeros < ZERO_RUN; i++)
			zeros = d[i] ? 0 : zeros + 1;
		printf("\t{ %zu, %zu,\n\t", start, i - zeros - start);
		put_bytes(d + start, i - zeros - start);
		printf(" },\n");
		n++;
	}
	printf("};\n\n");
	if (!n)
		die("%s: the loader's data is all zeros", name);
}

/*
 * Records the loader of the object at path and writes it as cname_loader,
 * with policy_only without the observers; policy: the variable name of
 * that variant, or NULL for the variant itself.
 */
static void record(const char *path, const char *name, const char *cname,
		   bool policy_only, const char *policy)
{
	LIBBPF_OPTS(gen_loader_opts, gopts);
	const struct btf_type *rodata = NULL, *bss = NULL;
	int i, nr_progs = 0, nr_maps = 0, rodata_map = -1, bss_map = -1;
	const struct btf_var_secinfo *vs;
	const void *rodata_init = NULL;
	size_t rodata_sz = 0, bss_sz = 0;
	int counters_off = -1;
	struct bpf_program *p;
	struct bpf_object *obj;
	const struct btf *btf;
	struct bpf_insn *insns;
	struct bpf_map *m;

	obj = bpf_object__open_file(path, NULL);
	if (!obj)
		die("opening %s", path);
	bpf_object__for_each_program(p, obj) {
		if (is_sched(p))
			bpf_program__set_type(p, LOADER_STANDIN_PROG_TYPE +
							 nr_progs);
		if (policy_only &&
		    !strncmp(bpf_program__name(p), LOADER_OBSERVER_PREFIX,
			     strlen(LOADER_OBSERVER_PREFIX)))
			bpf_program__set_autoload(p, false);
		nr_progs++;
	}
	if (bpf_object__gen_loader(obj, &gopts) || bpf_object__load(obj))
		die("recording the loader of %s", path);
	insns = malloc(gopts.insns_sz);
	if (!insns)
		die("%s", strerror(ENOMEM));
	memcpy(insns, gopts.insns, gopts.insns_sz);
	fix_ksym_copies(insns, gopts.insns_sz / sizeof(*insns));
	btf = bpf_object__btf(obj);
	if (!btf)
		die("%s has no BTF", path);

	printf("static const struct loader_prog %s_progs[] = {\n", cname);
	i = 0;
	bpf_object__for_each_program(p, obj) {
		bool load = bpf_program__autoload(p);

		printf("\t{ \"%s\", \"%s\", %d, %d },\n", bpf_program__name(p),
		       bpf_program__section_name(p),
		       load && is_sched(p) ?
			       find_attr(gopts.data, gopts.data_sz, i,
					 bpf_program__name(p)) :
			       -1,
		       load);
		i++;
	}
	printf("};\n\n");

	printf("static const struct loader_map %s_maps[] = {\n", cname);
	bpf_object__for_each_map(m, obj) {
		const char *mname = bpf_map__name(m);

		if (bpf_map__is_internal(m) && strstr(mname, ".rodata")) {
			rodata_map = nr_maps;
			rodata_init = bpf_map__initial_value(m, &rodata_sz);
			rodata = datasec(btf, ".rodata");
		} else if (bpf_map__is_internal(m) && strstr(mname, ".bss")) {
			bss_map = nr_maps;
			bpf_map__initial_value(m, &bss_sz);
			bss = datasec(btf, ".bss");
		}
		printf("\t{ \"%s\", %u },\n", mname, bpf_map__max_entries(m));
		nr_maps++;
	}
	printf("};\n\n");
	if (rodata_map < 0 || !rodata || !rodata_init)
		die("%s: no .rodata (the tools' cfg_common)", path);

	printf("static const struct loader_var %s_vars[] = {\n", cname);
	vs = btf_var_secinfos(rodata);
	for (i = 0; i < btf_vlen(rodata); i++, vs++)
		printf("\t{ \"%s\", %u, %u },\n",
		       btf__name_by_offset(
			       btf, btf__type_by_id(btf, vs->type)->name_off),
		       vs->offset, vs->size);
	printf("};\n\n");

	vs = bss ? btf_var_secinfos(bss) : NULL;
	for (i = 0; bss && i < btf_vlen(bss); i++, vs++) {
		const struct btf_type *v = btf__type_by_id(btf, vs->type);

		if (!strcmp(btf__name_by_offset(btf, v->name_off), "counters"))
			counters_off = vs->offset;
	}

	put_data(cname, gopts.data, gopts.data_sz);
	printf("static const struct loader_desc %s_loader = {\n"
	       "\t.name = \"%s\",\n"
	       "\t.insns = ",
	       cname, name);
	put_bytes(insns, gopts.insns_sz);
	printf(",\n\t.insns_sz = %u,\n"
	       "\t.data_sz = %u,\n"
	       "\t.segs = %s_segs,\n"
	       "\t.nr_segs = sizeof(%s_segs) / sizeof(%s_segs[0]),\n"
	       "\t.progs = %s_progs,\n"
	       "\t.nr_progs = %d,\n"
	       "\t.maps = %s_maps,\n"
	       "\t.nr_maps = %d,\n"
	       "\t.rodata_map = %d,\n"
	       "\t.rodata = ",
	       gopts.insns_sz, gopts.data_sz, cname, cname, cname, cname,
	       nr_progs, cname, nr_maps, rodata_map);
	put_bytes(rodata_init, rodata_sz);
	printf(",\n\t.rodata_sz = %zu,\n"
	       "\t.vars = %s_vars,\n"
	       "\t.nr_vars = sizeof(%s_vars) / sizeof(%s_vars[0]),\n"
	       "\t.bss_map = %d,\n"
	       "\t.bss_sz = %zu,\n"
	       "\t.counters_off = %d,\n",
	       rodata_sz, cname, cname, cname, bss_map, bss_sz, counters_off);
	if (policy)
		printf("\t.policy = &%s_loader,\n", policy);
	printf("};\n\n");
	free(insns);
	bpf_object__close(obj);
}

int main(int argc, char **argv)
{
	LIBBPF_OPTS(libbpf_prog_handler_opts, hopts,
		    .prog_prepare_load_fn = standin_prepare);
	char policy[256];

	prog = argv[0];
	if (argc != 3) {
		fprintf(stderr, "usage: %s OBJ NAME\n", prog);
		return 2;
	}
	if (libbpf_register_prog_handler(
		    SCHED_SEC_PREFIX, LOADER_STANDIN_PROG_TYPE,
		    LOADER_STANDIN_ATTACH_TYPE, &hopts) < 0)
		die("%s", "registering the sched/ section with libbpf");
	printf("/* SPDX-License-Identifier: GPL-2.0-only */\n"
	       "/* %s's loaders, from %s by gen-loader: do not edit */\n"
	       "#include \"loader.h\"\n\n",
	       argv[2], argv[1]);
	snprintf(policy, sizeof(policy), "%s_policy", argv[2]);
	record(argv[1], argv[2], policy, true, NULL);
	record(argv[1], argv[2], argv[2], false, policy);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
