#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The man pages (man/NAME.8.in, built into build/man/): one per tool, each
# renders without warnings, names every long option --help lists, and
# states the same ranges and defaults. `make install` installs them. Runs
# on the host or in the VM; needs no kernel.
. "$(dirname "$0")/../tap.sh"

need_packages man-db:man groff-base:groff

M=$ROOT/build/man
render() { MANWIDTH=${2:-80} LC_ALL=C man --warnings -l "$1"; }

for tool in "$BIN"/*; do
	name=$(basename "$tool")
	page=$M/$name.8
	[ -f "$page" ]
	ok $? "$name: build/man/$name.8 exists"
	[ -f "$page" ] || continue
	render "$page" >"$TAP_TMP/page" 2>"$TAP_TMP/warn"
	[ $? -eq 0 ] && [ ! -s "$TAP_TMP/warn" ] && [ -s "$TAP_TMP/page" ]
	ok $? "$name: man -l renders it without warnings"
	[ -s "$TAP_TMP/warn" ] && diag "$(cat "$TAP_TMP/warn")"
	# one long line per paragraph, so wrapped phrases still match
	text=$(render "$page" 1000 2>/dev/null | tr -s ' ')
	for sec in NAME SYNOPSIS DESCRIPTION OPTIONS "JSON OUTPUT" \
		"EXIT STATUS" EXAMPLES; do
		printf '%s\n' "$text" | grep -qx "$sec"
		ok $? "$name.8 has $sec"
	done
	help=$("$tool" --help | tr '\n' ' ' | tr -s ' ')
	for o in $("$tool" --help | grep -E '^ +(-., )?--' |
		grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		printf '%s\n' "$text" | grep -q -- "$o\b"
		ok $? "$name.8 documents $o"
	done
	# the ranges and defaults --help gives, word for word
	printf '%s\n' "$help" | grep -oE '\([0-9.a-z]+ to [0-9.a-z]+(; default [0-9.a-z]+)?\)' |
		while read -r r; do
			printf '%s\n' "$text" | grep -qF -- "$r" && echo "ok $r" || echo "missing $r"
		done >"$TAP_TMP/ranges"
	! grep -q '^missing' "$TAP_TMP/ranges" && [ -s "$TAP_TMP/ranges" ]
	ok $? "$name.8 states --help's ranges and defaults: $(tr '\n' ' ' <"$TAP_TMP/ranges")"
	printf '%s\n' "$text" | grep -q -- "--dry-run.*--json\|-n -j"
	ok $? "$name.8 has an A/B example with --dry-run and --json"
done

D=$TAP_TMP/dest
make -s -C "$ROOT" install DESTDIR="$D" PREFIX=/usr NO_DEPS=1 >/dev/null 2>&1
for tool in "$BIN"/*; do
	name=$(basename "$tool")
	[ -f "$D/usr/share/man/man8/$name.8" ]
	ok $? "make install: /usr/share/man/man8/$name.8"
done

done_testing
