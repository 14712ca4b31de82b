#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The schedbpf-tools package that `make deb` built (build/deb/): its file
# list has every tool the build made in /usr/sbin, a man page and bash, zsh
# and fish completions for each, and no libbpf of its own; it depends on
# the C library alone, as its binaries link nothing else (a light
# skeleton needs no libbpf); extracted into a throwaway root, each
# installed tool runs its
# --help and --version, and on a kernel without the series its one-line
# error names the kernel package to install. Runs on the host.
. "$(dirname "$0")/../tap.sh"

D=$ROOT/build/deb
ver=$(sed -n 's/^#define SCHEDBPF_VERSION "\(.*\)"$/\1/p' "$ROOT/tools/lib/tool.h")
deb=$D/schedbpf-tools_${ver}_amd64.deb
if [ ! -f "$deb" ]; then
	ok 1 "$deb exists (make deb builds it)"
	done_testing
fi
ok 0 "$deb exists"
# The tools that package's own build made: what `make install` installs.
built=$(ls "$D/schedbpf-$ver/build/bin" 2>/dev/null)
[ -n "$built" ]
ok $? "the package's build tree lists the tools it built ($(echo $built))"

[ "$(dpkg-deb -f "$deb" Version)" = "$ver" ]
ok $? "package version $(dpkg-deb -f "$deb" Version) is SCHEDBPF_VERSION ($ver)"
deps=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' | sort -u | tr '\n' ' ')
[ "$deps" = "libc6 " ]
ok $? "Depends on libc6 alone: $(dpkg-deb -f "$deb" Depends)"
dpkg-deb -f "$deb" Description | grep -q 'linux-image-\*-schedbpf'
ok $? "its description names the kernel package it needs"

files=$(dpkg -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|')
! printf '%s\n' "$files" | grep -q 'libbpf'
ok $? "no libbpf of its own in the file list"
sbin=$(printf '%s\n' "$files" | sed -n 's|^/usr/sbin/\(.\)|\1|p' | sort)
[ "$sbin" = "$(printf '%s\n' $built | sort)" ]
ok $? "/usr/sbin holds exactly the tools the build made"
[ "$sbin" = "$(printf '%s\n' $built | sort)" ] || diag "package: $sbin" "built: $built"
has() { printf '%s\n' "$files" | grep -qx "$1"; }
for t in $built; do
	has "/usr/share/man/man8/$t.8.gz"
	ok $? "$t: man page /usr/share/man/man8/$t.8.gz"
	has "/usr/share/bash-completion/completions/$t"
	ok $? "$t: bash completion"
	has "/usr/share/fish/vendor_completions.d/$t.fish"
	ok $? "$t: fish completion"
done
has /usr/share/zsh/vendor-completions/_schedbpf
ok $? "zsh completion in /usr/share/zsh/vendor-completions (Debian's zsh looks there)"

root=$TAP_TMP/root
dpkg -x "$deb" "$root"
ok $? "dpkg -x into a throwaway root"
zsh_tools=$(sed -n '1s/^#compdef //p' "$root/usr/share/zsh/vendor-completions/_schedbpf" 2>/dev/null)
sched_err=0
for t in $built; do
	case " $zsh_tools " in *" $t "*) true ;; *) false ;; esac
	ok $? "$t: the zsh completion's #compdef names it"
	bin=$root/usr/sbin/$t
	libs=$(readelf -d "$bin" 2>/dev/null | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
	case $libs in "libc.so.6 " | "libm.so.6 libc.so.6 ") true ;; *) false ;; esac
	ok $? "$t: links the C library alone: $libs"
	run "$bin" --help
	[ $STATUS -eq 0 ] && [ -z "$ERR" ] && printf '%s\n' "$OUT" | grep -q "^Usage: $t "
	ok $? "$t --help: exit 0, a usage line"
	# (sched-ab loads no BPF itself: its --version names no libbpf)
	run "$bin" --version
	[ $STATUS -eq 0 ] && [ -z "$ERR" ] && case $OUT in "$t $ver" | "$t $ver (libbpf "*")") true ;; *) false ;; esac
	ok $? "$t --version: $OUT"
	# a kernel without the series (the host's): the package to install
	if ! kernel_has_sched_bpf; then
		run "$bin" --all --duration 1s
		case $ERR in
		*"has no scheduler BPF"*)
			sched_err=$((sched_err + 1))
			one_line_error 1 "$t" "install linux-image-*-schedbpf (make kernel-deb) and boot it"
			ok $? "$t --all on $(uname -r): one line naming linux-image-*-schedbpf" ;;
		esac
	fi
done
if kernel_has_sched_bpf; then
	skip "this kernel has the series: no missing-kernel error to see"
else
	[ $sched_err -gt 0 ]
	ok $? "at least one tool reached the missing-kernel error with --all ($sched_err)"
fi
done_testing
