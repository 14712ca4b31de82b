#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The patched bpftool (built with the running kernel's series by
# kernel/build: build/kernel/bpftool on 6.1, build/kernel-6.12/bpftool on
# 6.12) on a kernel with the scheduler hooks: programs loaded and attached
# by the skeleton show as "sched" with attach type "sched" and the hook as
# target, "feature probe" lists the program type (which it probes after
# its scan of the types libbpf names: 62 comes after a gap), and nothing
# is left attached once the loader exits.
. "$(dirname "$0")/lib.sh"

bpftool=${BPFTOOL:-$(kernel_build_dir)/bpftool}

kernel_has_sched_bpf ||
	skip_all "kernel has no scheduler BPF hooks (run: kernel/vm-run -- prove tests/libbpf)"
[ -x "$bpftool" ] ||
	skip_all "no patched bpftool at $bpftool (kernel/build makes it)"
need_bin

tmp=$TAP_TMP
holder=
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "$holder" ] && kill "$holder" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# The loader keeps its links until its stdin closes.
mkfifo "$tmp/in"
"$bin" hold <"$tmp/in" >"$tmp/out" 2>"$tmp/err" &
holder=$!
exec 3>"$tmp/in"
for _ in $(seq 600); do
	grep -q '^ready$' "$tmp/out" && break
	kill -0 "$holder" 2>/dev/null || break
	sleep 0.1
done
grep -q '^ready$' "$tmp/out"
ok $? "skeleton loaded and attached the three sched programs"
if ! grep -q '^ready$' "$tmp/out"; then
	diag "$(cat "$tmp/err")"
	done_testing
fi

vmlinux_btf=$("$bpftool" btf dump file /sys/kernel/btf/vmlinux format raw 2>/dev/null)

# (a file, not process substitution: the VM has no /dev/fd)
grep '^prog ' "$tmp/out" >"$tmp/progs"
[ "$(wc -l <"$tmp/progs")" -eq 3 ]
ok $? "the loader reports three programs"
while read -r _ name id link target; do
	id=${id#id=}
	link=${link#link=}
	target=${target#target=}
	case $name in
	tick) func=bpf_sched_cfs_check_preempt_tick ;;
	wakeup) func=bpf_sched_cfs_check_preempt_wakeup ;;
	entity) func=bpf_sched_cfs_wakeup_preempt_entity ;;
	*) func=unknown ;;
	esac

	out=$("$bpftool" prog show id "$id" 2>&1)
	grep -Eq "^$id: sched +name $name " <<<"$out"
	r=$?
	ok $r "bpftool prog show id $id: type sched, name $name"
	[ $r -eq 0 ] || diag "$out"

	json=$("$bpftool" -j prog show id "$id" 2>&1)
	grep -q '"type":"sched"' <<<"$json"
	ok $? "bpftool -j prog show id $id: \"type\":\"sched\""

	out=$("$bpftool" link show id "$link" 2>&1)
	grep -q "prog $id" <<<"$out" && grep -q 'prog_type sched' <<<"$out" &&
		grep -q 'attach_type sched' <<<"$out"
	r=$?
	ok $r "bpftool link show id $link: prog $id, prog_type sched, attach_type sched"
	[ $r -eq 0 ] || diag "$out"

	# the link's target is the hook (bpftool prints it: 6.12's upstream,
	# 6.1's with the series' patch 10)
	json=$("$bpftool" -j link show id "$link" 2>&1)
	shown=$(sed -n 's/.*"target_btf_id":\([0-9]*\).*/\1/p' <<<"$json")
	grep -q "^\[$target\] FUNC '$func'" <<<"$vmlinux_btf"
	ok $? "link $link's target BTF id $target is FUNC $func (bpftool btf dump)"
	[ "$shown" = "$target" ]
	ok $? "bpftool -j link show id $link: target_btf_id $shown, the hook's"
	out=$("$bpftool" link show id "$link" 2>&1)
	grep -q "target_btf_id $target" <<<"$out"
	ok $? "bpftool link show id $link: target_btf_id $target"
done <"$tmp/progs"

out=$("$bpftool" feature probe kernel 2>&1)
grep -q 'eBPF program_type sched is available' <<<"$out"
r=$?
ok $r "bpftool feature probe kernel: \"eBPF program_type sched is available\""
[ $r -eq 0 ] || diag "$(grep -i 'program_type' <<<"$out")"

links=$(sed -n 's/.* link=\([0-9]*\) .*/\1/p' "$tmp/out")
exec 3>&-
wait "$holder"
ok $? "loader detached and exited 0 when its stdin closed"
holder=

left=
for l in $links; do
	"$bpftool" link show id "$l" >/dev/null 2>&1 && left="$left $l"
done
[ -z "$left" ]
ok $? "no sched link left after the loader exited${left:+ (left:$left)}"

done_testing
