#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# runner/'s wings depend downwards only (runner/README.md): lib/ on
# nothing of the runner's, pipeline/ and compare/ on lib/ and never on each
# other, verify/ on those three, cmd/ on all; the guest's snapshotter/ code
# is shared by any. Only cmd/ prints: the others write to no stream but
# one they are handed.
. "$(dirname "$0")/../lib.sh"
cd "$TOP/runner" || exit 1

# allowed WING: the wings a file of WING may include from.
allowed() {
	case $1 in
	lib) echo "lib" ;;
	pipeline) echo "lib pipeline" ;;
	compare) echo "lib compare" ;;
	verify) echo "lib pipeline compare verify" ;;
	cmd) echo "lib pipeline compare verify cmd" ;;
	cc) echo "lib" ;;
	esac
}

for wing in lib pipeline compare verify cmd cc; do
	: >"$TMP/bad"
	ok=$(allowed "$wing")
	for f in "$wing"/*.[ch]; do
		sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
			w=${inc%%/*}
			[ "$w" = snapshotter ] && continue
			case " $ok " in
			*" $w "*) ;;
			*) echo "$f includes $inc" ;;
			esac
		done >>"$TMP/bad"
	done
	check "runner/$wing/ includes only from: $ok" test ! -s "$TMP/bad"
	sed 's/^/# /' "$TMP/bad"
done
# Writing to stdout or stderr, outside comments: a stream named, a printf()
# or puts() without one, a write() to fd 1 or 2.
prints='\<(stdout|stderr)\>|(^|[^a-z_])(printf|vprintf|puts|putchar|perror|dprintf)\(|write\((1|2|STD(OUT|ERR)_FILENO),'
for wing in lib pipeline compare verify; do
	grep -nE "$prints" "$wing"/*.[ch] |
		grep -vE '^[^:]*:[0-9]+:[[:space:]]*\*' |
		sed 's|/[*/].*||' | grep -E "$prints" >"$TMP/bad"
	check "runner/$wing/ prints nothing (cmd/ui.c does)" test ! -s "$TMP/bad"
	sed 's/^/# /' "$TMP/bad"
done
check "every runner source is in a wing" \
	test -z "$(find . -maxdepth 1 -name '*.[ch]')"
done_testing
