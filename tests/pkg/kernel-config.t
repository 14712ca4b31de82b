#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make kernel-deb KCONFIG=FILE without building that kernel (hours of
# modules on two cores): a distribution's configuration, with
# kernel/config/series.config and distro.config merged on top by
# kernel/build --check-config, keeps every fragment line after olddefconfig
# in a scratch tree of the patched source, and no other symbol changes.
# FILE is /boot/config-$(uname -r) when that is a 6.1 configuration, else
# Debian 12's generic amd64 one from linux-config-6.1. Also: every line of
# series.config is in schedbpf.config, so the VM kernel has what a
# distribution kernel gets. Runs on the host, about a minute of CPU.
. "$(dirname "$0")/../tap.sh"

C=$ROOT/kernel/config
cfg=/boot/config-$(uname -r)
grep -q '^# Linux/x86 6\.1\.' "$cfg" 2>/dev/null ||
	need_packages linux-config-6.1:/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
missing=
while read -r line; do
	grep -qxF -- "$line" "$C/schedbpf.config" || missing="$missing $line"
done < <(grep '^CONFIG_' "$C/series.config")
[ -z "$missing" ]
ok $? "every line of series.config is in schedbpf.config${missing:+ (not:$missing)}"

if ! grep -q '^# Linux/x86 6\.1\.' "$cfg" 2>/dev/null; then
	xz -dc /usr/src/linux-config-6.1/config.amd64_none_amd64.xz \
		>"$TAP_TMP/config-debian-amd64" 2>/dev/null
	cfg=$TAP_TMP/config-debian-amd64
fi
[ -s "$cfg" ]
ok $? "a distribution configuration to start from: ${cfg#"$TAP_TMP"/}"

run nice "$ROOT/kernel/build" --check-config --config "$cfg"
[ $STATUS -eq 0 ] && printf '%s\n' "$OUT" | grep -q 'the configuration is as the fragments say'
ok $? "kernel/build --check-config --config: every fragment line sticks"
[ $STATUS -eq 0 ] || diag "status $STATUS" "$(printf '%s\n' "$OUT" "$ERR" | tail -n 5)"
printf '%s\n' "$OUT" | grep -q 'only the fragments'"'"' symbols changed'
ok $? "nothing else changed"
printf '%s\n' "$ERR" | grep -q 'these changed' && diag "$(printf '%s\n' "$ERR" | grep 'these changed')"
done_testing
