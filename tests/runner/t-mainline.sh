#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A mainline tree, newer than every source of the matrix: 7.3's own top
# Makefile (from the tarball make deps fetched) with its version bumped to
# 7.4-rc1 takes 7.3's series and goldens, and one line says so; at 7.3.9
# (a later stable) it is 7.3's own, at 6.13-rc1 the newest not newer (6.12)
# and at 5.15 the oldest. `list --kernel-src` builds nothing.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
at_hand
case " $AT_HAND " in
"  " | *" source=7.3 "*) ;;
*)	done_testing
	exit 0 ;;
esac
tarball=$("$SYSFARM" fetch source=7.3 | sed -n 's/^linux-source-7\.3 .*: //p')
check "7.3's tarball is at hand" test -f "$tarball"
tar -xJf "$tarball" -C "$TMP" --occurrence=1 linux-source-7.3/Makefile
tree=$TMP/linux-source-7.3

# pick VERSION PATCHLEVEL SUBLEVEL EXTRAVERSION: the line list prints
pick() {
	sed -i -e "s/^VERSION = .*/VERSION = $1/" \
		-e "s/^PATCHLEVEL = .*/PATCHLEVEL = $2/" \
		-e "s/^SUBLEVEL = .*/SUBLEVEL = $3/" \
		-e "s/^EXTRAVERSION =.*/EXTRAVERSION = $4/" "$tree/Makefile"
	"$SYSFARM" list --kernel-src "$tree" 2>&1 >"$TMP/list" |
		sed 's/^\[ *[0-9.]*s\] //'
}

pick 7 4 0 -rc1 >"$TMP/actual"
echo "sysfarm: tree 7.4.0-rc1: series of source 7.3 (patches/7.3/series), the newest not newer than the tree" >"$TMP/expect"
check "7.4-rc1: 7.3's series, said on one line" \
	diff -u "$TMP/expect" "$TMP/actual"
"$SYSFARM" list --json source=7.3 | jq -r '.[].config' >"$TMP/expect"
awk 'NR > 1 { print $1 }' "$TMP/list" >"$TMP/actual"
check "... checked as 7.3's configurations" diff -u "$TMP/expect" "$TMP/actual"
pick 7 3 9 "" >"$TMP/actual"
echo "sysfarm: tree 7.3.9: series of source 7.3 (patches/7.3/series), the tree's version" >"$TMP/expect"
check "7.3.9: 7.3's own" diff -u "$TMP/expect" "$TMP/actual"
pick 6 13 0 -rc1 >"$TMP/actual"
echo "sysfarm: tree 6.13.0-rc1: series of source 6.12 (patches/6.12/series), the newest not newer than the tree" >"$TMP/expect"
check "6.13-rc1: 6.12's, not 7.3's" diff -u "$TMP/expect" "$TMP/actual"
pick 5 15 0 "" >"$TMP/actual"
echo "sysfarm: tree 5.15.0: series of source 6.1 (patches/series), the oldest: the tree is older than every source" >"$TMP/expect"
check "5.15: the oldest source's, said so" diff -u "$TMP/expect" "$TMP/actual"
done_testing
