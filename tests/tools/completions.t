#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The bash, zsh and fish completions (completions/): they parse, every long
# option in each tool's --help completes in each shell, cgroups and pids
# complete, and `make install` puts them where the shells look. Runs on
# the host or in the VM; needs no kernel.
. "$(dirname "$0")/../tap.sh"

C=$ROOT/completions
BASH_COMPLETION=/usr/share/bash-completion/bash_completion

need_packages zsh:zsh fish:fish bash-completion:$BASH_COMPLETION

bash -n "$C/schedbpf.bash"
ok $? "bash -n completions/schedbpf.bash"
command -v zsh >/dev/null && zsh -n "$C/_schedbpf"
ok $? "zsh -n completions/_schedbpf"
command -v fish >/dev/null && fish -n "$C/schedbpf.fish"
ok $? "fish -n completions/schedbpf.fish"

# long options a tool's --help lists
long_opts() {
	"$1" --help | grep -E '^ +(-., )?--' | grep -oE -- '--[a-z][a-z-]*' | sort -u
}

# what each shell offers after "TOOL --"
bash_offers() {
	bash -c '. "$0"; . "$1"; COMP_WORDS=("$2" --); COMP_CWORD=1
		COMP_LINE="$2 --"; COMP_POINT=${#COMP_LINE}
		_schedbpf "$2" -- "$2"; printf "%s\n" "${COMPREPLY[@]}"' \
		"$BASH_COMPLETION" "$C/schedbpf.bash" "$1"
}
fish_offers() {
	fish -c 'source $argv[1]; complete -C"$argv[2] --"' "$C/schedbpf.fish" "$1" |
		cut -f1
}
# zsh: the _arguments specs it would pass for the tool, from the file:
# every spec outside the case, and the tool's own branch
zsh_specs() {
	awk -v t="$1" '
		/^\tcase \$service in/ { incase = 1; next }
		incase && /^\tesac/ { incase = 0; next }
		incase && /^\t[a-z-]+\)/ { mine = ($1 == t ")") }
		!incase || mine' "$C/_schedbpf"
}

for tool in "$BIN"/*; do
	name=$(basename "$tool")
	opts=$(long_opts "$tool")
	[ -n "$opts" ]
	ok $? "$name --help lists long options"
	b=$(bash_offers "$name") f=$(fish_offers "$name") z=$(zsh_specs "$name")
	grep -q "^#compdef.* $name\( \|$\)" "$C/_schedbpf"
	ok $? "$name: zsh's #compdef names it"
	for o in $opts; do
		printf '%s\n' "$b" | grep -qx -- "$o"
		ok $? "$name $o: bash completes it"
		printf '%s\n' "$z" | grep -q -- "${o}[]=}[]"
		ok $? "$name $o: zsh completes it"
		printf '%s\n' "$f" | grep -qx -- "$o"
		ok $? "$name $o: fish completes it"
	done
	# no option offered that the tool does not have
	extra=$(printf '%s\n' "$b" "$f" | grep -- '^--.' | sort -u |
		grep -vxF -- "$opts")
	[ -z "$extra" ]
	ok $? "$name: bash and fish offer no option it lacks ${extra:+($extra)}"
done

# values: cgroups (relative to the cgroup2 mount) and pids
CG=$(cgroup2_mount)
if [ -n "$CG" ] && [ -n "$(cd "$CG" && ls -d */ 2>/dev/null | head -n 1)" ]; then
	want=$(cd "$CG" && ls -d */ | head -n 1)
	want=${want%/}
	got=$(bash -c '. "$0"; . "$1"; COMP_WORDS=(no-preempt -c "$2"); COMP_CWORD=2
		COMP_LINE="no-preempt -c $2"; COMP_POINT=${#COMP_LINE}
		_schedbpf no-preempt "$2" -c; printf "%s\n" "${COMPREPLY[@]}"' \
		"$BASH_COMPLETION" "$C/schedbpf.bash" "${want:0:2}")
	printf '%s\n' "$got" | grep -qx -- "$want"
	ok $? "bash: -c completes cgroup $want under $CG"
	got=$(fish -c 'source $argv[1]; complete -C"no-preempt -c $argv[2]"' \
		"$C/schedbpf.fish" "${want:0:2}" | cut -f1)
	printf '%s\n' "$got" | grep -qx -- "$want/"
	ok $? "fish: -c completes cgroup $want/"
else
	skip "no cgroup2 directory to complete"
	skip "no cgroup2 directory to complete"
fi
got=$(bash -c '. "$0"; . "$1"; COMP_WORDS=(boost-wakeup -p ""); COMP_CWORD=2
	COMP_LINE="boost-wakeup -p "; COMP_POINT=${#COMP_LINE}
	_schedbpf boost-wakeup "" -p; printf "%s\n" "${COMPREPLY[@]}"' \
	"$BASH_COMPLETION" "$C/schedbpf.bash")
printf '%s\n' "$got" | grep -qx 1
ok $? "bash: -p completes pids (1 among them)"
got=$(fish -c 'source $argv[1]; complete -C"boost-wakeup -p "' "$C/schedbpf.fish" | cut -f1)
printf '%s\n' "$got" | grep -qx 1
ok $? "fish: -p completes pids"

# make install: where each shell looks
D=$TAP_TMP/dest
make -s -C "$ROOT" install DESTDIR="$D" PREFIX=/usr NO_DEPS=1 >/dev/null 2>&1
ok $? "make install DESTDIR=... PREFIX=/usr"
for tool in "$BIN"/*; do
	name=$(basename "$tool")
	[ -f "$D/usr/share/bash-completion/completions/$name" ] &&
		[ -f "$D/usr/share/fish/vendor_completions.d/$name.fish" ]
	ok $? "$name: bash and fish completions installed under its name"
done
[ -f "$D/usr/share/zsh/site-functions/_schedbpf" ]
ok $? "zsh completion installed in site-functions"

done_testing
