#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# KERNEL=6.1|6.12 (make kernel KERNEL=..., kernel/build, build-flavour,
# vm-run) without building or booting anything: a series that does not
# exist is refused with one line naming those that do, and the two series
# never share a cache entry. Host only, seconds (kernel/build --print-key).
. "$(dirname "$0")/../tap.sh"

K=$ROOT/kernel
for cmd in "build --print-key" "build-flavour --print-key debug" "vm-run -- true"; do
	run env KERNEL=bogus $K/$cmd
	[ $STATUS -ne 0 ] && [ -z "$OUT" ] && [ "$(printf '%s\n' "$ERR" | wc -l)" -eq 1 ] &&
		printf '%s\n' "$ERR" | grep -q "^kernel/[a-z-]*: KERNEL=bogus: no such series; there are: 6.1 6.12$"
	ok $? "KERNEL=bogus kernel/$cmd: refused with one line naming 6.1 and 6.12"
	[ $STATUS -ne 0 ] || diag "status $STATUS" "$OUT" "$ERR"
done

key() { env ${1:+KERNEL=$1} "$K/build" --print-key; }
k_default=$(key) k61=$(key 6.1) k612=$(key 6.12)
[[ $k61 =~ ^[0-9a-f]{16}$ ]] && [[ $k612 =~ ^[0-9a-f]{16}$ ]]
ok $? "a key for each series (6.1 $k61, 6.12 $k612)"
[ "$k_default" = "$k61" ]
ok $? "without KERNEL, kernel/build is the 6.1 series"
[ "$k61" != "$k612" ]
ok $? "6.1 and 6.12 have different cache keys"
f61=$(env KERNEL=6.1 "$K/build-flavour" --print-key debug)
f612=$(env KERNEL=6.12 "$K/build-flavour" --print-key debug)
[ -n "$f61" ] && [ -n "$f612" ] && [ "$f61" != "$f612" ] && [ "$f61" != "$k61" ]
ok $? "the debug flavour has its own key on each series"

run env KERNEL=6.12 "$K/vm-run" --kernel "$TAP_TMP/none" -- true
[ $STATUS -ne 0 ] && printf '%s\n' "$ERR" | grep -q "no kernel at $TAP_TMP/none"
ok $? "vm-run --kernel wins over KERNEL"
if [ ! -e "$ROOT/build/kernel-6.12/bzImage" ]; then
	run env KERNEL=6.12 "$K/vm-run" -- true
	printf '%s\n' "$ERR" | grep -q "no kernel at $ROOT/build/kernel-6.12/bzImage: run 'make kernel KERNEL=6.12'"
	ok $? "vm-run with KERNEL=6.12 boots build/kernel-6.12 (says how to build it)"
else
	skip "build/kernel-6.12 exists: vm-run would boot it"
fi
done_testing
