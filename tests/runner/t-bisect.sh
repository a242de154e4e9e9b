#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sysfarm bisect over tests/bisect/series (patches/ plus sixteen demo patches:
# harmless ones, one breaking the build, one letting max_active accept 0)
# names the ABI-changing patch within ceil(log2 16) + 1 = 5 builds (one more
# per untestable step), reuses its log on a rerun, and reports a range when
# skips hide the answer.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
C=x86_64-sysfs-on
rm -f "build/bisect/$C.log"

start=$(date +%s)
"$SYSFARM" bisect --series tests/bisect/series "$C" >"$TMP/out" 2>"$TMP/err"
check "bisect exits 0 (status $?)" test $? -eq 0
secs=$(($(date +%s) - start))
builds=$(sed -n 's/^bisect .*: \([0-9]*\) builds\{0,1\}$/\1/p' "$TMP/out")
echo "# $builds builds, ${secs}s"
check "names the ABI-changing patch" grep -qx \
	'first bad patch: 0009-let-max-active-accept-0.patch: workqueue: let max_active accept 0' \
	"$TMP/out"
check "shows the diff it introduced (max_active 0 no longer refused)" \
	grep -q 'probes\[1\]\.result.*"EINVAL" -> "ok"' "$TMP/out"
# An untestable step costs one more build: its neighbour is tried instead.
skips=$(grep -cv ' PASS \| DIFF ' "build/bisect/$C.log")
check "at most ceil(log2 16) + 1 = 5 builds, one more per untestable step ($builds builds, $skips untestable)" \
	test "$builds" -le $((5 + skips))
check "every step is logged" test "$(wc -l <"build/bisect/$C.log")" -eq "$builds"

"$SYSFARM" bisect --series tests/bisect/series "$C" >"$TMP/out" 2>"$TMP/err"
check "a rerun replays the log: same answer" grep -q \
	'^first bad patch: 0009-' "$TMP/out"
check "... building only the answer again for its diff" grep -q \
	'^bisect .*: [01] builds\{0,1\}$' "$TMP/out"

rm -f "build/bisect/$C.log"
"$SYSFARM" bisect --series tests/bisect/skip/series --good 5 "$C" \
	>"$TMP/out" 2>"$TMP/err"
check "untestable steps: exit 125 (status $?)" test $? -eq 125
check "... and a range, not a single patch" \
	grep -q 'skipped steps leave a range' "$TMP/out"
check "... naming the untestable patches" sh -c \
	"grep -q '0006-break-the-build.patch.*(untestable)' '$TMP/out' &&
	 grep -q '0009-let-max-active-accept-0.patch.*(untestable)' '$TMP/out'"
check "... each with the compiler's error from its build log" grep -q \
	"^    | .*tca6507-emu.c:[0-9]*:[0-9]*: error: " "$TMP/out"
check "... and its build log kept, not overwritten by the next step" sh -c \
	"grep -q 'build log kept: .*/bisect/$C.6.build.log' '$TMP/out' &&
	 grep -q 'tca6507-emu.c:575:.*error: ' 'build/bisect/$C.6.build.log' &&
	 grep -q 'tca6507-emu.c:57[0-9]:.*error: ' 'build/bisect/$C.7.build.log'"
rm -f "build/bisect/$C.log"
done_testing
