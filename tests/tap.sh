# SPDX-License-Identifier: GPL-2.0-only
# The one TAP for every shell test (unit, kernel, tools, libbpf): source it,
# call ok/skip, end with done_testing (or plan first and exit with
# tap_status). The tools are looked up in $BIN (build/bin by default).

# bash knows where this file is; sh (dash) only knows the test, which is
# tests/DIR/NAME.t
if [ -n "${BASH_SOURCE:-}" ]; then
	ROOT=$(cd "$(dirname "$BASH_SOURCE")/.." && pwd)
else
	ROOT=$(cd "$(dirname "$0")/../.." && pwd)
fi
BIN=${BIN:-$ROOT/build/bin}
TAP_N=0
TAP_FAILED=0
TAP_TMP=$(mktemp -d "${TMPDIR:-/tmp}/schedbpf-test.XXXXXX")
trap 'rm -rf "$TAP_TMP"' EXIT

# tap_point STATUS DESCRIPTION: one test point, STATUS 0 passes.
tap_point() {
	TAP_N=$((TAP_N + 1))
	if [ "$1" -eq 0 ] 2>/dev/null; then
		echo "ok $TAP_N - $2"
	else
		echo "not ok $TAP_N - $2"
		TAP_FAILED=$((TAP_FAILED + 1))
	fi
}

# ok STATUS DESCRIPTION (tests/kernel redefines it to run a command)
ok() { tap_point "$1" "$2"; }

skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N # skip $1"
}

diag() {
	printf '%s\n' "$@" | sed 's/^/# /' >&2
}

# plan N: the plan up front, for files that know their count.
plan() { echo "1..$1"; }

# tap_status: the exit status a test file ends with.
tap_status() { [ "$TAP_FAILED" -eq 0 ]; }

# done_testing: the plan at the end, and exit with the file's status.
done_testing() {
	echo "1..$TAP_N"
	tap_status
	exit
}

# need_packages PACKAGE:WHAT...: tests install nothing (`make deps` does).
# WHAT is a command, or a file if it starts with /. When one is missing the
# whole file is skipped, naming the line that installs what it lacks.
need_packages() {
	local missing= p what
	for p in "$@"; do
		what=${p#*:}
		if [ "${what#/}" != "$what" ]; then
			[ -e "$what" ] && continue
		else
			command -v "$what" >/dev/null && continue
		fi
		missing="$missing ${p%%:*}"
	done
	[ -z "$missing" ] && return 0
	echo "1..0 # skip missing:$missing (apt install$missing; make deps installs all the suite needs)"
	exit 0
}

# run CMD...: sets STATUS, OUT (stdout) and ERR (stderr).
run() {
	"$@" >"$TAP_TMP/out" 2>"$TAP_TMP/err"
	STATUS=$?
	OUT=$(cat "$TAP_TMP/out")
	ERR=$(cat "$TAP_TMP/err")
}

# one_line_error STATUS PREFIX TEXT: the last run failed with STATUS, printed
# exactly one line on stderr starting "PREFIX: " and containing TEXT, and
# nothing on stdout.
one_line_error() {
	[ "$STATUS" -eq "$1" ] &&
		[ "$(printf '%s\n' "$ERR" | wc -l)" -eq 1 ] &&
		case "$ERR" in "$2: "*"$3"*) true ;; *) false ;; esac &&
		[ -z "$OUT" ]
}

# option_error PREFIX TEXT: the last run was refused as bad usage (2) by
# getopt, "PREFIX: ...TEXT...", followed by argp's "Try `PREFIX --help'..."
# line, with nothing on stdout.
option_error() {
	[ "$STATUS" -eq 2 ] &&
		[ "$(printf '%s\n' "$ERR" | wc -l)" -eq 2 ] &&
		case "$(printf '%s\n' "$ERR" | head -n 1)" in
		"$1: "*"$2"*) true ;;
		*) false ;;
		esac &&
		printf '%s\n' "$ERR" | tail -n 1 | grep -q "^Try .$1 --help'" &&
		[ -z "$OUT" ]
}

# The running kernel has the scheduler BPF hooks (asked once).
kernel_has_sched_bpf() {
	if [ -z "$TAP_SCHED_BPF" ]; then
		TAP_SCHED_BPF=no
		bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null |
			grep -qw BPF_PROG_TYPE_SCHED && TAP_SCHED_BPF=yes
	fi
	[ "$TAP_SCHED_BPF" = yes ]
}

# The build of the running kernel's series (kernel/build): build/kernel
# for 6.1, build/kernel-V for series V (6.12: build/kernel-6.12): its
# bpftool and libbpf are the running kernel's own.
kernel_build_dir() {
	local v

	v=$(uname -r | cut -d. -f1,2)
	if [ "$v" != 6.1 ] && [ -d "$ROOT/build/kernel-$v" ]; then
		echo "$ROOT/build/kernel-$v"
	else
		echo "$ROOT/build/kernel"
	fi
}

# kernel_tests_dir: where the loaders schedtest and safety for the running
# series are (tests/kernel/build.mk): build/tests/ for build/kernel,
# build/tests/kernel-6.12/ for build/kernel-6.12.
kernel_tests_dir() {
	local kb

	kb=$(kernel_build_dir)
	if [ "$kb" = "$ROOT/build/kernel" ]; then
		echo "$ROOT/build/tests"
	else
		echo "$ROOT/build/tests/${kb##*/}"
	fi
}

# The cgroup2 mount point, from mountinfo, or nothing.
cgroup2_mount() {
	awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break;
	       if ($(i + 1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo
}

# tune_throughput / tune_restore: the fair scheduler as tuned's
# throughput-performance profile sets it, and back.
# - CFS (6.1): a 10 ms minimum slice, a 15 ms wakeup granularity, more than
#   the 6 ms credit CFS gives a sleeper. A waking task then waits for the
#   running one's tick after at least 10 ms: what the wakeup policies are
#   for.
# - EEVDF (6.6 on) has neither granularity: 6.6 renamed min_granularity
#   (sysctl_sched_min_granularity) to base_slice, and a wakeup preempts by
#   eligibility and deadline. The profile's 10 ms minimum slice goes to
#   base_slice, the knob it became: every task asks for 10 ms, and with
#   RUN_TO_PARITY an eligible running task keeps the CPU against a waking
#   task of the same slice until it has used its 10 ms: the wait the
#   profile makes on CFS. The 15 ms wakeup granularity has no counterpart.
#   (Not 3 ms, the default base_slice of a machine with 8 CPUs or more:
#   only twice the VM's 1.4 ms, not the profile's seven times.)
# sched_knobs prints the running kernel's knobs, as FILE=VALUE with the
# throughput profile's values.
SCHED_DEBUG=/sys/kernel/debug/sched
sched_knobs() {
	if [ -e "$SCHED_DEBUG/base_slice_ns" ]; then
		echo base_slice_ns=10000000
	else
		echo min_granularity_ns=10000000 wakeup_granularity_ns=15000000
	fi
}
TUNED_OLD=
tune_throughput() {
	local kv file

	[ -z "$TUNED_OLD" ] || return 0
	for kv in $(sched_knobs); do
		file=${kv%%=*}
		TUNED_OLD="$TUNED_OLD $file=$(cat "$SCHED_DEBUG/$file")"
		echo "${kv#*=}" >"$SCHED_DEBUG/$file"
	done
}
tune_restore() {
	local kv

	for kv in $TUNED_OLD; do
		echo "${kv#*=}" >"$SCHED_DEBUG/${kv%%=*}"
	done
	TUNED_OLD=
}

# cpuns PID: the task's CPU time in ns (schedstat: exact for a task that
# runs 100 us at a time).
cpuns() { awk '{ print $1 }' "/proc/$1/schedstat"; }
