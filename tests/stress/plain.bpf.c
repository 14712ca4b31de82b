// SPDX-License-Identifier: GPL-2.0-only
/*
 * plain - a tp_btf and an fentry program that use nothing of the Scheduler
 * BPF series: the control of the text_poke investigation (kernel/README.md,
 * "Debug flavour and stress"). Attaching and releasing them patches kernel
 * text the way releasing a sched link does (a tracepoint's static key; an
 * ftrace call site and a trampoline), through text_poke_bp() and its IPIs,
 * on any kernel with BPF trampolines, CONFIG_BPF_SCHED or not.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

__u64 switches, reads;

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__sync_fetch_and_add(&switches, 1);
	return 0;
}

SEC("fentry/vfs_read")
int BPF_PROG(on_read, struct file *file)
{
	__sync_fetch_and_add(&reads, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
