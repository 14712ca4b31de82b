#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Booted from a linux-image .deb (kernel/vm-run --deb FILE, as make check
# does; schedbpf.deb=DIR on the command line, DIR the package's control
# file in DEBIAN/ and its /boot): the running kernel is that package's, with
# the release, build version and configuration it says; the other tests in
# tests/kernel then run on the packaged kernel. Skipped on a kernel booted
# from a bzImage.
. "$(dirname "$0")/lib.sh"

deb=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^schedbpf\.deb=//p')
if [ -z "$deb" ]; then
	echo "1..0 # skip not booted from a .deb (kernel/vm-run --deb FILE)"
	exit 0
fi
plan 6

field() { sed -n "s/^$1: //p" "$deb/DEBIAN/control" 2>/dev/null; }
pkg=$(field Package)
version=$(field Version)
release=${pkg#linux-image-}
ok "$deb: a linux-image package ($pkg $version)" \
	test -n "$version" -a "$pkg" != "$release"
ok "uname -r is its release, ending in -schedbpf ($(uname -r))" \
	eval '[ "$(uname -r)" = "$release" ] && [[ $release == *-schedbpf ]]'
# bindeb-pkg builds with the package version's revision as the build
# version (uname -v's #...): this boot is this package's build
ok "uname -v names its build (#${version##*-})" \
	eval '[[ "$(uname -v)" == "#${version##*-} "* ]]'
ok "its package version carries the series' version (+schedbpf)" \
	eval '[[ $version == *+schedbpf[0-9]* ]]'
cfg=$deb/boot/config-$release
ok "its /boot/config-$release has CONFIG_BPF_SCHED=y" \
	grep -qx CONFIG_BPF_SCHED=y "$cfg"
ok "the running kernel has the program type's hooks" \
	grep -q bpf_sched_cfs_check_preempt_tick /proc/kallsyms
tap_status
