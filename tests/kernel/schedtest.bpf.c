// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test programs for the Scheduler BPF kernel (the tests in tests/kernel).
 *
 * One program per hook. Each counts its calls, and returns cfg_ret_<hook>
 * for the entities the test names (cfg_target[] for the tick; the pair
 * cfg_wakee/cfg_curr for wakeups) and 0 for everything else, so a test
 * can set the hook's return value and see what the scheduler does with it.
 * The kfunc probe records what the sched-entity kfuncs say about the
 * entities it sees on the tick. The fentry/fexit pair on
 * check_preempt_wakeup() and an fentry on resched_curr() observe,
 * independently of the hooks, whether a wakeup of cfg_wakee on a CPU
 * running cfg_curr preempted it: whether CFS's wakeup check called
 * resched_curr(). (Not whether TIF_NEED_RESCHED appeared during the check:
 * in one of about eight VM runs it did once with the hook returning <0,
 * set by something other than the wakeup.) A tp_btf program on sched_switch
 * then tells whether the task switched to after such a preemption was the
 * wakee. With cfg_all, every task is a target, every pair a pair.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

extern u64 bpf_sched_entity_to_tgidpid(struct sched_entity *se) __ksym;
extern u64 bpf_sched_entity_to_cgrpid(struct sched_entity *se) __ksym;
extern long bpf_sched_entity_belongs_to_cgrp(struct sched_entity *se, u64 cgrpid) __ksym;

#define NR_TARGETS 4
#define NR_PROBES 4

const volatile int cfg_ret_tick;
const volatile int cfg_ret_wakeup;
const volatile int cfg_ret_entity;
const volatile __u32 cfg_target[NR_TARGETS];
const volatile __u32 cfg_wakee;
const volatile __u32 cfg_curr;
const volatile __u64 cfg_probe_cgid[NR_PROBES];
const volatile bool cfg_all;

__u64 calls_tick, hits_tick;
__u64 calls_wakeup, hits_wakeup;
__u64 calls_entity, hits_entity;
__u64 wakeups_seen, wakeups_preempting;
__u64 next_is_wakee, next_is_other;
__u64 forced_ticks, forced_kept;
__u64 picks_asked, picks_obeyed;

struct kf_record {
	u64 tgidpid;
	u64 cgrpid;
	long belongs[NR_PROBES];
};

/* key: tgidpid for a task, cgroup id | 1 << 63 for a group entity */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, u64);
	__type(value, struct kf_record);
} kf_seen SEC(".maps");

/* this CPU's check_preempt_wakeup() in progress, and whether it rescheduled */
struct cpw_state {
	u32 in_check;
	u32 resched;
	u32 before;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct cpw_state);
} cpw SEC(".maps");

/*
 * By the runqueue's CPU (a wakeup is often decided on another): the pid of
 * the wakee that preempted its running task, until that CPU next switches.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 64);
	__type(key, u32);
	__type(value, u32);
} preempted_for SEC(".maps");

/*
 * Without a target or a wakee the programs only count their calls: no
 * kfunc is called, so that make bench's no-op programs cost the hooks'
 * calls and little more.
 */
static bool no_targets(void)
{
	return !cfg_all && !cfg_target[0] && !cfg_wakee;
}

static bool is_target(u32 tgid)
{
	if (cfg_all)
		return true;
	for (int i = 0; i < NR_TARGETS; i++)
		if (cfg_target[i] && cfg_target[i] == tgid)
			return true;
	return false;
}

static bool is_pair(u64 curr_id, u64 wakee_id)
{
	if (cfg_all)
		return true;
	return curr_id != (u64)-1 && wakee_id != (u64)-1 &&
	       (!cfg_curr || curr_id >> 32 == cfg_curr) &&
	       wakee_id >> 32 == cfg_wakee;
}

/*
 * By CPU: the pid of the target whose slice a forced tick ended, until
 * that CPU switches. A forced tick that finds it still set finds the same
 * task running on: the pick after the forced preemption chose it again.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 64);
	__type(key, u32);
	__type(value, u32);
} tick_forced SEC(".maps");

/*
 * What a forced tick left behind for the next pick: on CFS (6.1) curr is
 * the skip buddy; on EEVDF (6.12) the series marks the next buddy it
 * nominated (cfs_rq->bpf_forced_next). The loader is built per series,
 * but each vmlinux.h has only one of the fields: CO-RE flavours.
 */
struct cfs_rq___cfs {
	struct sched_entity *skip;
} __attribute__((preserve_access_index));

struct cfs_rq___eevdf {
	bool bpf_forced_next;
} __attribute__((preserve_access_index));

static bool handover_pending(struct sched_entity *curr)
{
	void *cfs_rq = BPF_CORE_READ(curr, cfs_rq);

	if (bpf_core_field_exists(struct cfs_rq___cfs, skip))
		return BPF_CORE_READ((struct cfs_rq___cfs *)cfs_rq, skip) == curr;
	return BPF_CORE_READ((struct cfs_rq___eevdf *)cfs_rq, bpf_forced_next);
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(tick, struct sched_entity *curr, unsigned long delta_exec)
{
	u32 cpu = bpf_get_smp_processor_id();
	u32 *forced;
	u64 id;

	__sync_fetch_and_add(&calls_tick, 1);
	if (no_targets())
		return 0;
	id = bpf_sched_entity_to_tgidpid(curr);
	if (id == (u64)-1 || !is_target(id >> 32))
		return 0;
	__sync_fetch_and_add(&hits_tick, 1);
	forced = bpf_map_lookup_elem(&tick_forced, &cpu);
	if (cfg_ret_tick > 0 && forced) {
		__sync_fetch_and_add(&forced_ticks, 1);
		/*
		 * The last forced tick's hand-over still pending: no pick
		 * since, as when the emulator delivers two ticks before the
		 * CPU could switch. Only a pick that chose it again counts.
		 */
		if (*forced == (u32)id && !handover_pending(curr))
			__sync_fetch_and_add(&forced_kept, 1);
		*forced = (u32)id;
	}
	return cfg_ret_tick;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(tick_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	u32 cpu = bpf_get_smp_processor_id();
	u32 *forced = bpf_map_lookup_elem(&tick_forced, &cpu);

	if (forced && *forced == prev->pid)
		*forced = 0;
	return 0;
}

SEC("sched/cfs_check_preempt_wakeup")
int BPF_PROG(wakeup, struct task_struct *curr, struct task_struct *p)
{
	__sync_fetch_and_add(&calls_wakeup, 1);
	if (!cfg_all && ((cfg_curr && curr->tgid != cfg_curr) || p->tgid != cfg_wakee))
		return 0;
	__sync_fetch_and_add(&hits_wakeup, 1);
	return cfg_ret_wakeup;
}

/*
 * EEVDF (6.12) asks the entity hook inside pick_eevdf(): this CPU's last
 * non-zero answer for a pair, the entity it asked to run, until
 * fexit/pick_eevdf compares it with what pick_eevdf() returned.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} pick_wanted SEC(".maps");

SEC("sched/cfs_wakeup_preempt_entity")
int BPF_PROG(entity, struct sched_entity *curr, struct sched_entity *se)
{
	u32 zero = 0;
	u64 *want;

	__sync_fetch_and_add(&calls_entity, 1);
	if (no_targets() || !is_pair(bpf_sched_entity_to_tgidpid(curr), bpf_sched_entity_to_tgidpid(se)))
		return 0;
	__sync_fetch_and_add(&hits_entity, 1);
	want = bpf_map_lookup_elem(&pick_wanted, &zero);
	if (want && cfg_ret_entity)
		*want = (u64)(cfg_ret_entity < 0 ? curr : se);
	return cfg_ret_entity;
}

/*
 * --observe-picks, EEVDF only: did pick_eevdf() follow the answer? The
 * answer counts only if the entity program gave it in this very call:
 * attached after the hook, the fexit could otherwise meet an answer left
 * by a call that began before it was there (once in a CI run: a pick
 * that never asked, counted as asked and not obeyed). So an fentry, which
 * the skeleton attaches before the fexit, clears it first.
 */
SEC("fentry/pick_eevdf")
int BPF_PROG(pick_enter, struct cfs_rq *cfs_rq)
{
	u32 zero = 0;
	u64 *want = bpf_map_lookup_elem(&pick_wanted, &zero);

	if (want)
		*want = 0;
	return 0;
}

SEC("fexit/pick_eevdf")
int BPF_PROG(pick_exit, struct cfs_rq *cfs_rq, struct sched_entity *ret)
{
	u32 zero = 0;
	u64 *want = bpf_map_lookup_elem(&pick_wanted, &zero);

	if (!want || !*want)
		return 0;
	__sync_fetch_and_add(&picks_asked, 1);
	if (*want == (u64)ret)
		__sync_fetch_and_add(&picks_obeyed, 1);
	*want = 0;
	return 0;
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(kfunc_probe, struct sched_entity *curr, unsigned long delta_exec)
{
	struct kf_record rec = {};
	u64 key;

	rec.tgidpid = bpf_sched_entity_to_tgidpid(curr);
	rec.cgrpid = bpf_sched_entity_to_cgrpid(curr);
	if (rec.tgidpid != (u64)-1) {
		if (!is_target(rec.tgidpid >> 32))
			return 0;
		key = rec.tgidpid;
	} else {
		key = rec.cgrpid | 1ULL << 63;
	}
	for (int i = 0; i < NR_PROBES; i++)
		rec.belongs[i] = cfg_probe_cgid[i] ?
			bpf_sched_entity_belongs_to_cgrp(curr, cfg_probe_cgid[i]) : -1;
	bpf_map_update_elem(&kf_seen, &key, &rec, BPF_ANY);
	return 0;
}

static bool need_resched(struct rq *rq)
{
	return rq->curr->thread_info.flags & (1UL << 3 /* TIF_NEED_RESCHED, x86 */);
}

SEC("fentry/check_preempt_wakeup")
int BPF_PROG(cpw_enter, struct rq *rq, struct task_struct *p, int wake_flags)
{
	u32 zero = 0;
	struct cpw_state *st = bpf_map_lookup_elem(&cpw, &zero);

	if (st) {
		st->in_check = 1;
		st->resched = 0;
		/* set already: CFS returns at once, there is no decision */
		st->before = need_resched(rq);
	}
	return 0;
}

SEC("fentry/resched_curr")
int BPF_PROG(cpw_resched, struct rq *rq)
{
	u32 zero = 0;
	struct cpw_state *st = bpf_map_lookup_elem(&cpw, &zero);

	if (st && st->in_check)
		st->resched = 1;
	return 0;
}

SEC("fexit/check_preempt_wakeup")
int BPF_PROG(cpw_exit, struct rq *rq, struct task_struct *p, int wake_flags)
{
	u32 zero = 0;
	struct cpw_state *st = bpf_map_lookup_elem(&cpw, &zero);

	if (!st)
		return 0;
	st->in_check = 0;
	if (st->before || (cfg_curr && rq->curr->tgid != cfg_curr) ||
	    p->tgid != cfg_wakee)
		return 0;
	__sync_fetch_and_add(&wakeups_seen, 1);
	if (st->resched) {
		u32 cpu = rq->cpu, pid = p->pid;

		__sync_fetch_and_add(&wakeups_preempting, 1);
		bpf_map_update_elem(&preempted_for, &cpu, &pid, BPF_ANY);
	}
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(cpw_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	u32 cpu = bpf_get_smp_processor_id();
	u32 *pid = bpf_map_lookup_elem(&preempted_for, &cpu);

	if (!pid || !*pid)
		return 0;
	/*
	 * A task of a higher class (RT, deadline, stop: policies 1, 2 and 6)
	 * runs first whatever CFS picked: that is not a CFS pick to count.
	 */
	if (next->pid == *pid)
		__sync_fetch_and_add(&next_is_wakee, 1);
	else if (next->policy != 1 && next->policy != 2 && next->policy != 6)
		__sync_fetch_and_add(&next_is_other, 1);
	*pid = 0;
	return 0;
}

char _license[] SEC("license") = "GPL";
