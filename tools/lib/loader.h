/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A tool's BPF object as a loader program (a light skeleton): what
 * tools/gen/gen_loader.c writes into build/skel/NAME.loader.h from
 * build/bpf/NAME.bpf.o at build time, and what tools/lib/load.c reads.
 *
 * Why: libbpf loads an object by parsing the kernel's BTF in our memory
 * (4 MB and more, twice over for a moment: libbpf 1.1 reads the file, then
 * copies it), which made every tool peak at 12 MB. A loader program, run
 * in the kernel (BPF_PROG_TYPE_SYSCALL), creates the maps, loads the
 * programs, and finds their attach targets, kfuncs, typed ksyms and CO-RE
 * relocations in the kernel's own BTF. libbpf records it at build time
 * (bpf_object__gen_loader()); the tool only runs it.
 *
 * The sched program type's numbers differ between kernels (tools/lib/btf.h),
 * so the loader is recorded with stand-ins, and the tool writes the
 * running kernel's numbers over them in its copy of the loader's data:
 * prog_type, expected_attach_type and attach_btf_id of each sched program's
 * BPF_PROG_LOAD attributes, at the offset the generator found them.
 */
#ifndef SCHEDBPF_LOADER_H
#define SCHEDBPF_LOADER_H

#include <stdbool.h>
#include <linux/types.h>

/* What the generator records a sched program with; never a real type. */
#define LOADER_STANDIN_PROG_TYPE 0x5c4ed000u
#define LOADER_STANDIN_ATTACH_TYPE 0x5c4ed100u
#define LOADER_STANDIN_BTF_ID 0x5c4ed200u

/*
 * Observers' names start so (bpf/observe.bpf.h): each object has a second
 * loader without them, for --observe=none.
 */
#define LOADER_OBSERVER_PREFIX "observe_"

/* A run of the loader's data that is not all zeros. */
struct loader_seg {
	__u32 off, len;
	const char *bytes;
};

struct loader_prog {
	const char *name;
	/* the section: sched/HOOK, tp_btf/..., fentry/... */
	const char *sec;
	/* sched programs: where their BPF_PROG_LOAD attributes are; else -1 */
	int attr_off;
	/*
	 * whether the loader loads it; the loader's program fds (struct
	 * bpf_prog_desc) are those of the loaded programs, in this order
	 */
	bool load;
};

struct loader_map {
	const char *name;
	__u32 max_entries;
};

/* A variable of .rodata: the tools set cfg_common and cfg_<setting>. */
struct loader_var {
	const char *name;
	__u32 off, size;
};

struct loader_desc {
	const char *name;
	const void *insns;
	__u32 insns_sz;
	/* the data, data_sz bytes: zeros but for segs */
	__u32 data_sz;
	const struct loader_seg *segs;
	int nr_segs;
	const struct loader_prog *progs;
	int nr_progs;
	const struct loader_map *maps;
	int nr_maps;
	/* .rodata: its map, initial value and variables */
	int rodata_map;
	const void *rodata;
	__u32 rodata_sz;
	const struct loader_var *vars;
	int nr_vars;
	/* .bss: its map, size, and where counters[] is in it (-1: none) */
	int bss_map;
	__u32 bss_sz;
	int counters_off;
	/* the same object's loader without the observers, or NULL */
	const struct loader_desc *policy;
};

#endif /* SCHEDBPF_LOADER_H */
