#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The whole matrix, built and booted: every configuration sends a snapshot
# that matches FORMAT.md, no kernel is built twice, and a second run
# rebuilds nothing.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
OUT=build/out

"$SYSFARM" run >"$TMP/run1" 2>"$TMP/run1.err"
status=$?
check "sysfarm run over the matrix exits 0" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/run1" "$TMP/run1.err"

"$SYSFARM" list --json | jq -r '.[] | "\(.config) \(.source)"' >"$TMP/configs"
cut -d' ' -f1 "$TMP/configs" >"$TMP/configs.names"
while read -r c source; do
	check "$c: SNAPSHOT" \
		jq -e '.verdict == "SNAPSHOT"' "$OUT/$c/result.json"
	check "$c: snapshot matches FORMAT.md" \
		jq -e -f tests/snapshot-schema.jq "$OUT/$c/snapshot.json"
	case $c in
	x86_64-*) machine=x86_64 ;;
	arm-*) machine=armv7l ;;
	esac
	check "$c: the guest is $machine running $source" jq -e \
		".header.machine == \"$machine\" and (.header.release | startswith(\"$source.\"))" \
		"$OUT/$c/snapshot.json"
	case $c in
	*sysfs-on*)
		check "$c: sysfs mounted, writeback in /sys/bus/workqueue" jq -e \
			'.sysfs.mounted and (.roots["bus/workqueue"].entries.devices.entries.writeback.follow.entries.max_active.mode == "0644")' \
			"$OUT/$c/snapshot.json" ;;
	*sysfs-off*)
		check "$c: sysfs absent (ENODEV), no roots" jq -e \
			'(.sysfs.mounted | not) and .sysfs.error == "ENODEV" and .roots == {}' \
			"$OUT/$c/snapshot.json" ;;
	esac
done <"$TMP/configs"

# A key is built at most once per run, whatever shares it.
grep -o 'kernel [0-9a-f]* built' "$TMP/run1.err" | sort | uniq -d >"$TMP/twice"
check "no kernel built twice in one run" test ! -s "$TMP/twice"

# Two distinct keys build at a time (--builds 2): the second build starts
# before the first one ends.
built=$(grep -c 'kernel [0-9a-f]* built in' "$TMP/run1.err")
if [ "$built" -ge 2 ]; then
	check "$built kernels built, two at a time" awk '
		/: kernel [0-9a-f]*$/ { started++ }
		/ built in / { exit !(started >= 2) }' "$TMP/run1.err"
else
	skip "kernels built two at a time" \
		"the first run built $built kernels (they were up to date)"
fi

"$SYSFARM" run >"$TMP/run2" 2>"$TMP/run2.err"
check "second sysfarm run exits 0" test $? -eq 0
check "second run builds nothing" \
	sh -c "! grep 'built in\|kernel build failed' '$TMP/run2.err'"
check "second run finds the kernel of each of the 10 up to date" \
	test "$(grep -c 'is up to date' "$TMP/run2.err")" -eq 10
# --boots 2: the second configuration boots before the first one's verdict;
# the results stay in matrix order.
"$SYSFARM" run --boots 2 >"$TMP/run3" 2>"$TMP/run3.err"
check "--boots 2: exits 0" test $? -eq 0
check "... two boots at once: the second begins before the first ends" awk '
	/: booting / { booting++ }
	/: SNAPSHOT after / { exit !(booting >= 2) }' "$TMP/run3.err"
awk 'NR > 1 && NF { print $1 }' "$TMP/run3" >"$TMP/run3.names"
check "... the results in matrix order" diff "$TMP/configs.names" "$TMP/run3.names"
"$SYSFARM" run --boots 1 >"$TMP/run4" 2>"$TMP/run4.err"
check "--boots 1: one boot at a time" awk '
	/: booting / { if (booting) exit 1; booting = 1 }
	/: SNAPSHOT after / { booting = 0 }' "$TMP/run4.err"
done_testing
