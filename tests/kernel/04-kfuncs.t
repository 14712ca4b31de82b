#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The sched-entity kfuncs, seen from the tick hook with CPU-bound tasks in
# /kt1/kt2 and /kt1/kt3 (cpu controller on, so kt1, kt2 and kt3 have group
# entities) and in the root cgroup, all on one CPU so every level has
# competition. (kt1 itself can hold no task: cgroup v2 keeps processes out
# of a cgroup that has controllers enabled for its children.)
. "$(dirname "$0")/lib.sh"
require_sched_kernel
plan 12

cg=/sys/fs/cgroup
out=$(mktemp)
mkdir -p $cg/kt1/kt2 $cg/kt1/kt3 $cg/kt_other
echo +cpu >$cg/kt1/cgroup.subtree_control
remove_cgroups() { cleanup; rmdir $cg/kt1/kt2 $cg/kt1/kt3 $cg/kt1 $cg/kt_other 2>/dev/null; }
trap remove_cgroups EXIT

ino() { stat -c %i "$1"; }
root=$(ino $cg) kt1=$(ino $cg/kt1) kt2=$(ino $cg/kt1/kt2) other=$(ino $cg/kt_other)

spawn_in $cg/kt1/kt2 a "$T/hog"
spawn_in $cg/kt1/kt2 a2 "$T/hog"
spawn_in $cg/kt1/kt3 c "$T/hog"
spawn d "$T/hog"
sleep 0.5

attach "$out" --kfunc-probe "$kt1" --kfunc-probe "$kt2" --kfunc-probe "$other" \
	--kfunc-probe "$root" --target "$a" --target "$d"
sleep 3
detach
sed -n 's/^kf /# kf /p' "$out"
diag "cgroup ids: root=$root kt1=$kt1 kt2=$kt2 kt_other=$other; pids: a=$a d=$d"

line_a=$(grep "^kf task tgid=$a pid=$a " "$out")
line_d=$(grep "^kf task tgid=$d pid=$d " "$out")
line_kt2=$(grep "^kf group cgid=$kt2 " "$out")
line_kt1=$(grep "^kf group cgid=$kt1 " "$out")

ok "to_tgidpid of a task is tgid << 32 | pid" \
	grep -q "tgidpid=$(((a << 32) | a)) " <<<"$line_a"
ok "to_cgrpid of a task is (u64)-1" grep -q "cgrpid=-1 " <<<"$line_a"
ok "a task in kt1/kt2 belongs to kt1, kt2 and the root, not kt_other" \
	grep -q "b0=1 b1=1 b2=0 b3=1$" <<<"$line_a"
ok "a task in the root cgroup belongs to the root only" \
	grep -q "b0=0 b1=0 b2=0 b3=1$" <<<"$line_d"
ok "kt2's group entity: to_cgrpid is kt2's inode number" [ -n "$line_kt2" ]
ok "kt2's group entity: to_tgidpid is (u64)-1" grep -q "tgidpid=-1 " <<<"$line_kt2"
ok "kt2's group entity belongs to kt1, kt2 and the root" \
	grep -q "b0=1 b1=1 b2=0 b3=1$" <<<"$line_kt2"
ok "kt1's group entity: to_cgrpid is kt1's inode number" [ -n "$line_kt1" ]
ok "kt1's group entity belongs to kt1 and the root, not to its child kt2" \
	grep -q "b0=1 b1=0 b2=0 b3=1$" <<<"$line_kt1"
ok "no group entity for a cgroup without the cpu controller (kt_other)" \
	bash -c "! grep -q '^kf group cgid=$other ' '$out'"
ok "every group entity seen has to_tgidpid (u64)-1" \
	bash -c "! grep '^kf group' '$out' | grep -vq 'tgidpid=-1 '"
ok "no task entity seen for a pid that was not a target" \
	bash -c "! grep '^kf task' '$out' | grep -vqE 'tgid=($a|$d) '"
rm -f "$out"
tap_status
