#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sysfarm bisect over tests/bisect/series (patches/ plus sixteen demo patches:
# harmless ones, one breaking the build, one letting max_active accept 0)
# names the ABI-changing patch within ceil(log2 16) + 1 = 5 builds (one more
# per untestable step) and verifies it (its step rebuilt from nothing, the
# series without it), reuses its log on a rerun, and reports a range when
# skips hide the answer. A series where a later patch makes the culprit's
# change again (tests/bisect/same) leaves it unverified.
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
check "... and ends with its two checks passed" \
	test "$(tail -1 "$TMP/out")" = "verify: PASS, revert: PASS"
# progress_at WHAT: the run's seconds when the progress line WHAT began
progress_at() {
	sed -n "s/^\[ *\([0-9]*\)\.[0-9]s\] $C: bisect: $1.*/\1/p" \
		"$TMP/err" | head -1
}
v=$(progress_at verify:)
r=$(progress_at revert:)
check "revert built the series without it, then verify its step from nothing" \
	sh -c "[ -n '$v' ] && [ -n '$r' ] &&
	       grep -q 'without 0009-let-max-active-accept-0.patch' '$TMP/err' &&
	       grep -q 'verify: 9 patches, up to 0009-let-max-active-accept-0.patch, built from nothing' '$TMP/err'"
echo "# revert: $((${v:-0} - ${r:-0}))s, verify: $((secs - ${v:-0}))s (of ${secs}s)"
# An untestable step costs one more build: its neighbour is tried instead.
# The log's steps; the checks are logged as "verify K PATCH BAD PASS SECS"
grep -v '^verify \|^revert ' "build/bisect/$C.log" >"$TMP/steps"
skips=$(grep -cv ' PASS \| DIFF ' "$TMP/steps")
check "at most ceil(log2 16) + 1 = 5 builds, one more per untestable step ($builds builds, $skips untestable)" \
	test "$builds" -le $((5 + skips))
check "every step is logged" test "$(wc -l <"$TMP/steps")" -eq "$builds"
check "... and both checks, passed" sh -c \
	"grep -q '^verify 9 0009-let-max-active-accept-0.patch 18 PASS ' 'build/bisect/$C.log' &&
	 grep -q '^revert 9 0009-let-max-active-accept-0.patch 18 PASS ' 'build/bisect/$C.log'"

"$SYSFARM" bisect --series tests/bisect/series "$C" >"$TMP/out" 2>"$TMP/err"
check "a rerun replays the log: same answer" grep -q \
	'^first bad patch: 0009-' "$TMP/out"
grep -q '^first bad patch: 0009-' "$TMP/out" ||
	sed 's/^/# /' "$TMP/out" "$TMP/err"
check "... building only the answer again for its diff" grep -q \
	'^bisect .*: [01] builds\{0,1\}$' "$TMP/out"
check "... its checks replayed from the log, not built again" sh -c \
	"test \"\$(tail -1 '$TMP/out')\" = 'verify: PASS, revert: PASS' &&
	 grep -q 'bisect: verify: PASS (logged by an earlier run)' '$TMP/err' &&
	 grep -q 'bisect: revert: PASS (logged by an earlier run)' '$TMP/err'"

# 0019 lets max_active accept 0 as 0009 does: without 0009, the entry stays
rm -f "build/bisect/$C.log"
"$SYSFARM" bisect --series tests/bisect/same/series --good 3 "$C" \
	>"$TMP/out" 2>"$TMP/err"
check "a culprit whose change a later patch makes too: exit 125 (status $?)" \
	test $? -eq 125
check "... unverified, not an answer" sh -c \
	"grep -q '^unverified culprit patch: 0009-let-max-active-accept-0.patch: ' '$TMP/out' &&
	 ! grep -q '^first bad' '$TMP/out'"
check "... revert failed, so verify (a build from nothing) was not run" sh -c \
	"grep -qx 'verify: SKIP, revert: FAIL' '$TMP/out' &&
	 grep -qx '  verify not run: revert failed, the culprit is unverified either way' '$TMP/out'"
check "... showing what revert saw: the culprit's entry" sh -c \
	"grep -A1 '^  revert saw DIFF.*, still the culprit.s entries:$' '$TMP/out' |
	 grep -q 'probes\[1\]\.result.*\"EINVAL\" -> \"ok\"'"

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
