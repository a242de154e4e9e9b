#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every file of the farm's layout is named in runner/lib/paths.c alone
# (git's GIT_PATH_FUNC): no other source spells "%s/NAME" for one of its
# names, so that moving a file is a one-line change there.
. "$(dirname "$0")/../lib.sh"
cd "$TOP/runner" || exit 1

# The literal part of each name up to its first conversion: "out/%s" is
# out/, "snapshot.json" itself; "%s.json" (a golden) has none to look for.
sed -n 's/^[A-Z_]*PATH_FUNC([a-z_]*, "\([^"%]*\).*")$/\1/p' lib/paths.c |
	grep . >"$TMP/names"
check "lib/paths.c names the layout ($(wc -l <"$TMP/names") names)" \
	test "$(wc -l <"$TMP/names")" -ge 30

: >"$TMP/bad"
while read -r name; do
	grep -n -F "\"%s/$name" -- */*.c */*.h | grep -v '^lib/paths\.c:' |
		sed "s|^|$name: |" >>"$TMP/bad"
done <"$TMP/names"
# source.c still names the files of its own tree (src, pristine,
# src.new, ...) itself: they are to move to lib/paths.c next.
grep -v ': pipeline/source\.c:' "$TMP/bad" >"$TMP/bad.own"
check "no other source names one of its files" test ! -s "$TMP/bad.own"
sed 's/^/# /' "$TMP/bad.own"
done_testing
