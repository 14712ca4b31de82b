# SPDX-License-Identifier: GPL-2.0-only
# A little TAP for the shell tests: source it, call ok/skip, end with
# done_testing. The tools are looked up in $BIN (build/bin by default).

ROOT=$(cd "$(dirname "${BASH_SOURCE:-$0}")/../.." && pwd)
BIN=${BIN:-$ROOT/build/bin}
TAP_N=0
TAP_FAILED=0
TAP_TMP=$(mktemp -d "${TMPDIR:-/tmp}/schedbpf-test.XXXXXX")
trap 'rm -rf "$TAP_TMP"' EXIT

# ok STATUS DESCRIPTION: STATUS 0 passes.
ok() {
	TAP_N=$((TAP_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TAP_N - $2"
	else
		echo "not ok $TAP_N - $2"
		TAP_FAILED=$((TAP_FAILED + 1))
	fi
}

skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N # skip $1"
}

diag() {
	printf '%s\n' "$@" | sed 's/^/# /' >&2
}

done_testing() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
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

# The running kernel has the scheduler BPF hooks (asked once).
kernel_has_sched_bpf() {
	if [ -z "$TAP_SCHED_BPF" ]; then
		TAP_SCHED_BPF=no
		bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null |
			grep -qw BPF_PROG_TYPE_SCHED && TAP_SCHED_BPF=yes
	fi
	[ "$TAP_SCHED_BPF" = yes ]
}

# The cgroup2 mount point, from mountinfo, or nothing.
cgroup2_mount() {
	awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break;
	       if ($(i + 1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo
}
