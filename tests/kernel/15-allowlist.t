#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The helpers a sched program may call are exactly the documented list
# (the series' Documentation/bpf/prog_sched.rst, "What a program may
# call"): for every helper this kernel has, a tick program that calls it
# is refused for calling it at all ("unknown func" on 6.1, "program of
# this type cannot use helper" on 6.12) unless it is on the list. A listed
# helper may still fail on its arguments (none are set up): the check is
# only that the verifier got past the question of whether it may be
# called. Deterministic: the verifier's answers, no scheduling.
. "$(dirname "$0")/lib.sh"
require_sched_kernel
log_mark

series=$top/kernel/patches
[[ $(uname -r) == 6.12.* ]] && series=$top/kernel/6.12/patches
# the list as the last patch that writes it leaves it (its + and context lines)
doc=$(grep -l '^+Kfuncs: only the three' "$series"/*.patch | tail -n 1)
listed=$(sed -n '/What a program may call$/,/^+Kfuncs:/p' "$doc" | grep -v '^-' |
	grep -o '``bpf_[a-z0-9_]*()``' | tr -d '`()' | sort -u)
[ -n "$listed" ]
ok "the series documents an allowlist ($(echo $listed | wc -w) helpers)" [ $? -eq 0 ]

# every helper of this kernel, as "ID bpf_NAME", from enum bpf_func_id
"$BPFTOOL" btf dump file /sys/kernel/btf/vmlinux format raw >"$TAP_TMP/btf"
helpers=$(awk '/^\[[0-9]+\] ENUM .bpf_func_id. /{ on = 1; next }
	on && /^\t/ { gsub(/[\x27]/, ""); sub(/^\tBPF_FUNC_/, "bpf_"); sub(/ val=/, " ");
		if ($1 != "bpf_unspec" && $1 != "__BPF_FUNC_MAX_ID") print $2, $1; next }
	on { exit }' "$TAP_TMP/btf")
n=$(printf '%s\n' "$helpers" | grep -c .)
[ "$n" -gt 150 ]
ok "this kernel's helpers, from its BTF: $n" [ $? -eq 0 ]

nohelper='\(unknown func\|program of this type cannot use helper\)'
allowed= wrong=
while read -r id name; do
	"$LOAD/safety" helper "$id" >"$TAP_TMP/out" 2>&1
	if grep -q "^log: .*$nohelper $name#$id" "$TAP_TMP/out"; then
		grep -qx "$name" <<<"$listed" && wrong="$wrong $name(refused)"
	else
		allowed="$allowed $name"
		grep -qx "$name" <<<"$listed" || wrong="$wrong $name(allowed)"
	fi
done <<<"$helpers"
[ -z "$wrong" ]
ok "each helper is refused unless it is on the list${wrong:+; not so:$wrong}" [ $? -eq 0 ]
for name in $listed; do
	grep -qw "$name" <<<"$allowed"
	ok "listed and callable: $name" [ $? -eq 0 ]
done

ok "the kernel log stays clean" log_clean
ok "nothing is left loaded" no_sched_prog
done_testing
