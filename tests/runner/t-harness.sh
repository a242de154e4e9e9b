#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/harness holds each script to its plan: scripts made here print
# TAP, and the harness must call each as it is (its last line and status).
. "$(dirname "$0")/../lib.sh"

# harness_says NAME TAP-LINES EXPECTED: a script printing TAP-LINES (one
# a line, then exit 0) run by the harness, whose last line is EXPECTED
harness_says() {
	printf '#!/bin/sh\nprintf "%%s\\n" %s\n' "$2" >"$TMP/$1"
	chmod +x "$TMP/$1"
	HARNESS_LOG=$TMP/log "$TOP/tests/harness" "$TMP/$1" >"$TMP/$1.out" 2>&1
	echo "status $?" >>"$TMP/$1.out"
	sed -n '/passed,/p; /^status/p' "$TMP/$1.out" >"$TMP/$1.got"
	printf '%s\nstatus %s\n' "$3" "$4" >"$TMP/$1.want"
	check "harness: $1" diff -u "$TMP/$1.want" "$TMP/$1.got"
}

harness_says planned "'ok 1 - a' 'ok 2 - b' 1..2" "2 passed, 0 failed" 0
harness_says plan-first "1..1 'ok 1 - a'" "1 passed, 0 failed" 0
harness_says skipped-all "'1..0 # SKIP no kernel'" "0 passed, 0 failed" 0
# a script that stopped early, with status 0: its checks are not lost
harness_says stopped-early "1..3 'ok 1 - a'" "1 passed, 1 failed" 1
harness_says no-plan "'ok 1 - a'" "1 passed, 1 failed" 1
harness_says two-plans "'ok 1 - a' 1..1 1..1" "1 passed, 1 failed" 1
harness_says more-than-planned "'ok 1 - a' 'ok 2 - b' 1..1" "2 passed, 1 failed" 1
done_testing
