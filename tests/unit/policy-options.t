#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The policy options of boost-wakeup, slice-extend and cgroup-isolate on
# this host (no-preempt's are in no-preempt.t): --help documents them,
# good values get past parsing to the kernel check (exit 1), bad ones and
# each tool's own rules exit 2 with one line naming the value and range.
. "$(dirname "$0")/../tap.sh"

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
bad boost-wakeup "'--max-lead'" -a --max-lead
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
bad slice-extend "'-s'" -a -s
bad cgroup-isolate "no cgroup: give -c CGROUP" -p $$
bad cgroup-isolate "no cgroup: give -c CGROUP" -- true
bad cgroup-isolate "no cgroup: give -c CGROUP" -p $$ -o -n
bad cgroup-isolate "--all leaves no outsiders" -a
bad cgroup-isolate "--all leaves no outsiders" --all -o
bad cgroup-isolate "no target" -o
bad cgroup-isolate "unknown option or missing argument: '--preempt-outsiders=1'" \
	-c . --preempt-outsiders=1

done_testing
