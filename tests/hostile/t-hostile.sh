#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hostile input: each case directory under tests/hostile/ holds `args` (the
# sysfarm command line, one argument a line), the files it names, and
# `expect`: what sysfarm prints on stderr, then "status N", then what the
# case's `after` script prints. The case runs in a fresh copy of its
# directory (shown as CASE in messages, a progress line's seconds as [T],
# a build key, which hashes the series' real path, as KEY),
# stdin from `stdin` or /dev/null, stdout in ./stdout; an executable
# `setup` runs first (FIFOs, devices, limits: it may instead end by
# exec'ing "$@"), `after` checks what is left (files kept, nothing written
# outside). A case that hangs fails after 30 s.
. "$(dirname "$0")/../lib.sh"

for dir in "$TOP"/tests/hostile/*/; do
	name=$(basename "$dir")
	work=$TMP/$name
	rm -rf "$work"
	cp -a "$dir" "$work"
	(
		cd "$work" || exit 1
		set --
		while IFS= read -r a || [ -n "$a" ]; do
			set -- "$@" "$(printf '%s' "$a" | sed "s|@CASE@|$work|g; s|@TOP@|$TOP|g")"
		done <args
		in=/dev/null
		[ -f stdin ] && in=stdin
		if [ -x setup ]; then
			timeout -k 5 30 ./setup "$SYSFARM" "$@" <"$in" >stdout 2>stderr
		else
			timeout -k 5 30 "$SYSFARM" "$@" <"$in" >stdout 2>stderr
		fi
		status=$?
		sed "s|$work|CASE|g; s|$TOP|TOP|g; s|^\[ *[0-9.]*s\]|[T]|
		     s|: kernel [0-9a-f]\{12\}\$|: kernel KEY|" stderr
		echo "status $status"
		if [ -x after ]; then
			./after 2>&1 | sed "s|$work|CASE|g; s|$TOP|TOP|g"
		fi
	) >"$TMP/actual.$name"
	check "hostile $name" diff -u "$dir/expect" "$TMP/actual.$name"
done
done_testing
