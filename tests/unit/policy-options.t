#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The policy options of boost-wakeup, slice-extend and cgroup-isolate on
# this host (no-preempt's are in no-preempt.t): --help documents them,
# good values get past parsing to the kernel check (exit 1), bad ones and
# each tool's own rules exit 2 with one line naming the value and range.
. "$(dirname "$0")/../tap.sh"

# -c . is the current directory: a child cgroup, which cgroup-isolate takes
CG=$(cgroup2_mount)
if [ -n "$CG" ] && mkdir "$CG/schedbpf-policy-$$" 2>/dev/null; then
	trap 'cd /; rmdir "$CG/schedbpf-policy-$$"; rm -rf "$TAP_TMP"' EXIT
	cd "$CG/schedbpf-policy-$$" || exit 1
fi

# good TOOL ARGS...: accepted, then the host's no-hooks error
good() {
	name=$1
	shift
	if kernel_has_sched_bpf; then
		skip "$name $*: this kernel has the hooks"
		return
	fi
	run "$BIN/$name" "$@"
	one_line_error 1 "$name" "has no scheduler BPF"
	ok $? "$name $*: accepted"
}
# bad TOOL TEXT ARGS...: exit 2, one line with TEXT
bad() {
	name=$1 text=$2
	shift 2
	run "$BIN/$name" "$@"
	one_line_error 2 "$name" "$text"
	ok $? "$name $*: '$text'"
	[ $STATUS -eq 2 ] || diag "status $STATUS" "stderr: $ERR"
}

# documented, with the range and default
help() {
	run "$BIN/$1" --help
	printf '%s\n' "$OUT" | tr '\n' ' ' | tr -s ' ' | grep -q -- "$2"
	ok $? "$1 --help: $2"
}
help boost-wakeup "-l, --max-lead=DURATION Boost a waking target"
help boost-wakeup "(100us to 1s; default 10ms)"
help slice-extend "-s, --slice=DURATION The least a target runs"
help slice-extend "(1ms to 1s; default 20ms)"
help cgroup-isolate "-o, --preempt-outsiders Also let an insider's wakeup"
for t in boost-wakeup slice-extend cgroup-isolate; do
	run "$BIN/$t" --help
	printf '%s\n' "$OUT" | grep -q "^EXAMPLES:" &&
		printf '%s\n' "$OUT" | grep -q -- "-n -j"
	ok $? "$t --help: EXAMPLES with an A/B run"
done

for v in 100us 1ms 10ms 1s 0.5s 100000ns; do
	good boost-wakeup -a --max-lead "$v"
done
good boost-wakeup -a -l 2ms -n
for v in 1ms 20ms 1s 999ms 1000000ns; do
	good slice-extend -a --slice "$v"
done
good slice-extend -a -s 50ms -j
good cgroup-isolate -c . -o
good cgroup-isolate --cgroup=. --preempt-outsiders -n
good cgroup-isolate -c . -p $$ -o
good cgroup-isolate -c . -- true

while read -r v why; do
	bad boost-wakeup "invalid --max-lead '$v': $why" -a --max-lead "$v"
done <<'LIST'
0ms out of range (100us to 1s)
99us out of range (100us to 1s)
1.001s out of range (100us to 1s)
1m out of range (100us to 1s)
10 missing unit
abc not a number
-1ms negative
5x unknown unit 'x'
LIST
run "$BIN/boost-wakeup" -a --max-lead
option_error boost-wakeup "option '--max-lead' requires an argument"
ok $? "boost-wakeup -a --max-lead: a missing value, Try --help"
while read -r v why; do
	bad slice-extend "invalid --slice '$v': $why" -a --slice "$v"
done <<'LIST'
0ms out of range (1ms to 1s)
999us out of range (1ms to 1s)
1.5s out of range (1ms to 1s)
1h out of range (1ms to 1s)
18446744073709551616ns out of range (1ms to 1s)
20 missing unit
fast not a number
-20ms negative
LIST
run "$BIN/slice-extend" -a -s
option_error slice-extend "option requires an argument -- 's'"
ok $? "slice-extend -a -s: a missing value, Try --help"
bad cgroup-isolate "no cgroup: give -c CGROUP" -p $$
bad cgroup-isolate "no cgroup: give -c CGROUP" -- true
bad cgroup-isolate "no cgroup: give -c CGROUP" -p $$ -o -n
bad cgroup-isolate "--all leaves no outsiders" -a
bad cgroup-isolate "--all leaves no outsiders" --all -o
bad cgroup-isolate "no target" -o
if [ -n "$CG" ]; then
	bad cgroup-isolate "--cgroup $CG is the root cgroup, which leaves no outsiders" -c "$CG"
	(cd "$CG" && run "$BIN/cgroup-isolate" -c . &&
		one_line_error 2 cgroup-isolate "is the root cgroup")
	ok $? "cgroup-isolate -c . in the root cgroup's directory: refused"
	bad cgroup-isolate "is the root cgroup" -c ../schedbpf-policy-$$/.. -o
else
	skip "no cgroup2: the root cgroup"
fi
run "$BIN/cgroup-isolate" -c . --preempt-outsiders=1
option_error cgroup-isolate "option '--preempt-outsiders' doesn't allow an argument"
ok $? "cgroup-isolate --preempt-outsiders=1: no value allowed, Try --help"

done_testing
