// SPDX-License-Identifier: GPL-2.0-only
/*
 * Programs that try what a sched program must not be able to do, for the
 * negative tests in tests/kernel (the loader is safety.c). Each one is
 * loaded alone: the verifier must refuse it, or it must run without the
 * kernel noticing anything wrong.
 *
 * - kf_*: hand the sched-entity kfuncs an entity that is not the hook's
 *   own: one reached through a NULL pointer field plus the offset of
 *   its se (pi_top_task), through a field that may be NULL or point at a
 *   freed task (last_wakee), the NULL parent of a top-level entity, and
 *   a pointer loaded through a NULL one (a task's my_q->curr). The
 *   verifier accepts all of them: it checks types, not memory. The
 *   kfuncs must answer "not a task" for the NULL-derived ones and never
 *   oops. kf_own is the control: the hook's own entity.
 * - tc_tick: a tail call, which is not on the allowlist (a chain of 33
 *   programs would cost 33 times what the verifier counted for one).
 * - uses_*: helpers and maps that could wait for the runqueue lock the
 *   hooks hold, or loop for long with interrupts off.
 * - bad_*: the programs that harmed the kernel while sched programs had
 *   the base helpers: a walked, NULL task handed to bpf_task_pt_regs(),
 *   an LPM trie update that allocates (and may wake kswapd), a call made
 *   long by faulting 4 KiB bpf_probe_read_kernel()s; and the programs
 *   that the bounds on one call's cost refuse. ok_*: their controls.
 * - global_func: a global function, verified once for any number of
 *   calls.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

extern u64 bpf_sched_entity_to_tgidpid(struct sched_entity *se) __ksym;
extern u64 bpf_sched_entity_to_cgrpid(struct sched_entity *se) __ksym;
extern long bpf_sched_entity_belongs_to_cgrp(struct sched_entity *se, u64 cgrpid) __ksym;

/* the root cgroup's id, which every task belongs to */
const volatile __u64 cfg_root_cgid = 1;

/* kfunc calls, and answers that were not "not a task" for a NULL entity */
__u64 kf_calls, kf_null_calls, kf_null_wrong, kf_tasks_found;

static void probe(struct sched_entity *se, bool is_null)
{
	u64 tgidpid = bpf_sched_entity_to_tgidpid(se);
	u64 cgrpid = bpf_sched_entity_to_cgrpid(se);
	long belongs = bpf_sched_entity_belongs_to_cgrp(se, cfg_root_cgid);

	__sync_fetch_and_add(&kf_calls, 1);
	if (tgidpid != (u64)-1)
		__sync_fetch_and_add(&kf_tasks_found, 1);
	if (!is_null)
		return;
	__sync_fetch_and_add(&kf_null_calls, 1);
	if (tgidpid != (u64)-1 || cgrpid != (u64)-1 || belongs != 0)
		__sync_fetch_and_add(&kf_null_wrong, 1);
}

SEC("sched/cfs_check_preempt_wakeup")
int BPF_PROG(kf_pi_top, struct task_struct *curr, struct task_struct *p)
{
	struct task_struct *top = p->pi_top_task;

	probe(&top->se, !top);
	return 0;
}

SEC("sched/cfs_check_preempt_wakeup")
int BPF_PROG(kf_last_wakee, struct task_struct *curr, struct task_struct *p)
{
	struct task_struct *w = curr->last_wakee;

	probe(&w->se, !w);
	return 0;
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(kf_parent, struct sched_entity *curr, unsigned long delta_exec)
{
	struct sched_entity *parent = curr->parent;

	probe(parent, !parent);
	return 0;
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(kf_my_q_curr, struct sched_entity *curr, unsigned long delta_exec)
{
	struct cfs_rq *q = curr->my_q;
	struct sched_entity *se = q->curr;	/* q is NULL for a task */

	probe(se, !q || !se);
	return 0;
}

SEC("sched/cfs_wakeup_preempt_entity")
int BPF_PROG(kf_own, struct sched_entity *curr, struct sched_entity *se)
{
	probe(curr, false);
	probe(se, false);
	return 0;
}

/* Tail calls: tc_tick calls jmp[0]. */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u32);
} jmp SEC(".maps");

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(tc_tick, struct sched_entity *curr, unsigned long delta_exec)
{
	bpf_tail_call(ctx, &jmp, 0);
	return 0;
}

static long loop_cb(u64 i, void *ctx)
{
	return 0;
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(uses_loop, struct sched_entity *curr, unsigned long delta_exec)
{
	bpf_loop(1 << 23, loop_cb, NULL, 0);
	return 0;
}

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} arr SEC(".maps");

static long each_cb(struct bpf_map *map, u32 *key, u64 *val, void *ctx)
{
	return 0;
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(uses_for_each, struct sched_entity *curr, unsigned long delta_exec)
{
	bpf_for_each_map_elem(&arr, each_cb, NULL, 0);
	return 0;
}

struct timer_val {
	struct bpf_timer t;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct timer_val);
} timers SEC(".maps");

/* No bpf_timer_* call: deleting an element cancels its timer and waits. */
SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(uses_timer_map, struct sched_entity *curr, unsigned long delta_exec)
{
	u32 key = 0;

	bpf_map_delete_elem(&timers, &key);
	return 0;
}

#ifdef SERIES_6_12
/*
 * What BPF gained between 6.1 and 6.12 that would wait or loop under the
 * runqueue lock (built for the 6.12 series only: tests/kernel/build.mk).
 * A bpf_wq in a map value: deleting the element cancels the work item.
 */
struct wq_val {
	struct bpf_wq w;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct wq_val);
} wqs SEC(".maps");

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(uses_wq_map, struct sched_entity *curr, unsigned long delta_exec)
{
	u32 key = 0;

	bpf_map_delete_elem(&wqs, &key);
	return 0;
}

/* An open-coded iterator: a loop of up to 2^31 steps. */
extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(uses_iter, struct sched_entity *curr, unsigned long delta_exec)
{
	struct bpf_iter_num it;
	int n = 0;

	bpf_iter_num_new(&it, 0, 1000);
	while (bpf_iter_num_next(&it))
		n++;
	bpf_iter_num_destroy(&it);
	return n > 1000;
}
#endif

struct lock_val {
	struct bpf_spin_lock lock;
	u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct lock_val);
} locked SEC(".maps");

/* Allowed: a bpf_spin_lock section is short and calls nothing. */
SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(uses_spin_lock, struct sched_entity *curr, unsigned long delta_exec)
{
	u32 key = 0;
	struct lock_val *v = bpf_map_lookup_elem(&locked, &key);

	if (v) {
		bpf_spin_lock(&v->lock);
		v->n++;
		bpf_spin_unlock(&v->lock);
	}
	return 0;
}

/* A global function: verified on its own, once for any number of calls. */
__noinline int sched_sub(int x)
{
	return x + kf_calls;	/* opaque: clang must keep the call */
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(global_func, struct sched_entity *curr, unsigned long delta_exec)
{
	return sched_sub(delta_exec & 1) == 7 ? 1 : 0;
}

/* The same body, static: verified at its call, allowed. */
static __noinline int static_sub(int x)
{
	return x + kf_calls;
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(static_func, struct sched_entity *curr, unsigned long delta_exec)
{
	return static_sub(delta_exec & 1) == 7 ? 1 : 0;
}

SEC("sched/cfs_check_preempt_wakeup")
int BPF_PROG(bad_task_helper, struct task_struct *curr, struct task_struct *p)
{
	return bpf_task_pt_regs(p->pi_top_task) ? 1 : 0;
}

struct trie_key {
	__u32 prefixlen;
	__u32 addr;
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 1024);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct trie_key);
	__type(value, u64);
} trie SEC(".maps");

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(bad_alloc, struct sched_entity *curr, unsigned long delta_exec)
{
	struct trie_key k = { .prefixlen = 32, .addr = delta_exec };
	u64 v = 0;

	bpf_map_update_elem(&trie, &k, &v, BPF_ANY);
	return 0;
}

/*
 * bpf_probe_read_kernel() clears what it was asked to read when the read
 * faults: 4 KiB a call is refused, 256 bytes are not (and a faulting read
 * of NULL, here, is harmless).
 */
struct page_buf { char b[4096]; };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct page_buf);
} pages SEC(".maps");

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(bad_long_read, struct sched_entity *curr, unsigned long delta_exec)
{
	u32 k = 0;
	struct page_buf *v = bpf_map_lookup_elem(&pages, &k);

	if (v)
		bpf_probe_read_kernel(v->b, sizeof(v->b), NULL);
	return 0;
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(ok_read, struct sched_entity *curr, unsigned long delta_exec)
{
	char buf[256];
	int i;

	for (i = 0; i < 8; i++)
		bpf_probe_read_kernel(buf, sizeof(buf), (void *)(long)i);
	return buf[0] == 1;
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(bad_printk, struct sched_entity *curr, unsigned long delta_exec)
{
	bpf_printk("tick");
	return 0;
}

/* A hash map that allocates its elements at update. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, u32);
	__type(value, u64);
} dyn_hash SEC(".maps");

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(bad_noprealloc, struct sched_entity *curr, unsigned long delta_exec)
{
	u32 k = 0;

	return bpf_map_lookup_elem(&dyn_hash, &k) ? 1 : 0;
}

/* An update copies its value: 2 KiB is past the bound, 1 KiB within it. */
struct big { char b[2048]; };
struct fits { char b[1024]; };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, u32);
	__type(value, struct big);
} bigs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, u32);
	__type(value, struct fits);
} fitss SEC(".maps");

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(bad_big_update, struct sched_entity *curr, unsigned long delta_exec)
{
	u32 k0 = 0, k1 = 1;
	struct big *v = bpf_map_lookup_elem(&bigs, &k0);

	if (v)
		bpf_map_update_elem(&bigs, &k1, v, BPF_ANY);
	return 0;
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(ok_update, struct sched_entity *curr, unsigned long delta_exec)
{
	u32 k0 = 0, k1 = 1;
	struct fits *v = bpf_map_lookup_elem(&fitss, &k0);

	if (v)
		bpf_map_update_elem(&fitss, &k1, v, BPF_ANY);
	return 0;
}

/*
 * The most one call may cost under the rules, near enough: as many 1 KiB
 * reads that fault (each clears its buffer) as fit in the 65536
 * instructions the verifier may process. bench/worst-call.sh times it.
 */
struct read_buf { char b[1024]; };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct read_buf);
} reads SEC(".maps");

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(worst_read, struct sched_entity *curr, unsigned long delta_exec)
{
	u32 k = 0, i;
	struct read_buf *v = bpf_map_lookup_elem(&reads, &k);

	if (!v)
		return 0;
	for (i = 0; i < 7200; i++)	/* 9 instructions an iteration */
		bpf_probe_read_kernel(v->b, sizeof(v->b), NULL);
	return 0;
}

/*
 * A loop the verifier walks to the end, iteration by iteration: 20000 of
 * them are more instructions than one call may cost; 1000 are not.
 */
static __always_inline int spin(unsigned long x, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		x = x * 3 + 1;
	return x & 1;
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(bad_long_loop, struct sched_entity *curr, unsigned long delta_exec)
{
	return spin(delta_exec, 20000);
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(ok_short_loop, struct sched_entity *curr, unsigned long delta_exec)
{
	return spin(delta_exec, 1000);
}

char _license[] SEC("license") = "GPL";
