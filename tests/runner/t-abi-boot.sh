#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The ABI table on real kernels: every golden holds to it, with no
# unwaived finding and no stale row; a patch that gives every workqueue, the
# fixture's among them, an attribute no row names is reported as
# undocumented by check (beside the DIFF, whose changes are all classed
# "added") and by sysfarm abi; allowed additions (--allow-added) leave the
# table's ABI-MISMATCH; once the goldens accept it the verdict is
# ABI-MISMATCH; a row for it passes; a row that allows the addition passes
# against the old goldens.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
SERIES=tests/abi/undocumented/series

# Every golden against the table, rows against the prepared tree's
# Documentation/ABI (t-run.sh prepared the sources' trees).
"$SYSFARM" abi --goldens >"$TMP/out" 2>&1
status=$?
check "the goldens hold to expected/abi.yaml (status $status)" \
	test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/out"
configs=$("$SYSFARM" list --json | jq -r '.[].config')
for c in $configs; do
	check "$c: no unwaived finding" grep -q "^$c: .* 0 findings," \
		"$TMP/out"
done
# One line per source's tree: those t-run.sh prepared (at_hand's sources).
at_hand
trees=$("$SYSFARM" list --json $AT_HAND | jq '[.[].source] | unique | length')
check "every Documentation/ABI row matches a What: entry or is waived, in each of the $trees sources' trees" \
	test "$(grep -c '^/.*abi.yaml: .* 0 stale, ' "$TMP/out")" -eq "$trees"

"$SYSFARM" check --series "$SERIES" x86_64-sysfs-on arm-sysfs-on \
	>"$TMP/out" 2>"$TMP/err"
status=$?
check "undocumented attribute: check exits 1 (status $status)" \
	test "$status" -eq 1
jq -r '.configs[] | "\(.config) \(.verdict)"' build/out/results.json \
	>"$TMP/actual"
printf '%s\n' "x86_64-sysfs-on DIFF" "arm-sysfs-on DIFF" >"$TMP/expect"
check "both DIFF against their goldens" diff -u "$TMP/expect" "$TMP/actual"
jq -r '.configs[] | .config as $c | .abi[] | select(.waived == null) |
	"\($c) \(.kind) \(.path)"' build/out/results.json >"$TMP/actual"
for c in x86_64-sysfs-on arm-sysfs-on; do
	for wq in sysfarm_attrs sysfarm_percpu sysfarm_unbound writeback; do
		echo "$c undocumented bus/workqueue/devices/$wq/flags"
	done
done >"$TMP/expect"
check "the new file is undocumented on every queue, nothing else" \
	diff -u "$TMP/expect" "$TMP/actual"
check "check prints it" grep -q \
	'^  abi: undocumented bus/workqueue/devices/sysfarm_percpu/flags: 0444, no row' \
	"$TMP/out"
check "... its changes are additions, classed so" jq -e \
	'[.configs[].diff[] | .class] | length == 8 and all(. == "added")' \
	build/out/results.json
check "... and summed up so" grep -q \
	'^x86_64-sysfs-on: DIFF: 4 added against .*/expected/x86_64-sysfs-on.json$' \
	"$TMP/out"

# Additions allowed for the run: the golden no longer objects, the table
# still does.
"$SYSFARM" check --series "$SERIES" --allow-added x86_64-sysfs-on \
	>"$TMP/out" 2>&1
check "--allow-added, no row: exit 1 (status $?)" test $? -eq 1
check "... verdict ABI-MISMATCH, the additions shown as allowed" jq -e \
	'.configs[0].verdict == "ABI-MISMATCH" and
	 ([.configs[0].diff[].allowed] | length == 4 and
	  all(. == "--allow-added"))' build/out/results.json
check "... the summary says so" grep -q \
	'^x86_64-sysfs-on: ABI-MISMATCH: 4 findings against .*; 4 added (allowed) against ' \
	"$TMP/out"

"$SYSFARM" abi x86_64-sysfs-on >"$TMP/out" 2>&1
check "sysfarm abi on the snapshot: exit 1 (status $?)" test $? -eq 1
check "... names the file" grep -q \
	'^  undocumented bus/workqueue/devices/sysfarm_unbound/flags' "$TMP/out"

# Goldens that accept the change: equal, but the table still objects.
mkdir "$TMP/exp"
cp expected/abi.yaml expected/redactions.yaml "$TMP/exp"
cp build/out/x86_64-sysfs-on/snapshot.json "$TMP/exp/x86_64-sysfs-on.json"
"$SYSFARM" check --series "$SERIES" --expected "$TMP/exp" x86_64-sysfs-on \
	>"$TMP/out" 2>&1
check "accepted golden, no row: exit 1 (status $?)" test $? -eq 1
check "... verdict ABI-MISMATCH" jq -e \
	'.configs[0].verdict == "ABI-MISMATCH"' build/out/results.json
cat >>"$TMP/exp/abi.yaml" <<EOT
- path: /sys/bus/workqueue/devices/*/flags
  mode: RO
  source: tests/abi/undocumented (a test patch)
EOT
"$SYSFARM" check --series "$SERIES" --expected "$TMP/exp" x86_64-sysfs-on \
	>"$TMP/out" 2>&1
check "a row for it: PASS (status $?)" jq -e \
	'.configs[0].verdict == "PASS"' build/out/results.json

# The shipped goldens, and a row that allows the file to appear: PASS
# without --allow-added, each addition shown with the row's reason.
mkdir "$TMP/allow"
cp expected/x86_64-sysfs-on.json expected/redactions.yaml "$TMP/allow"
cp expected/abi.yaml "$TMP/allow"
cat >>"$TMP/allow/abi.yaml" <<EOT
- path: /sys/bus/workqueue/devices/*/flags
  mode: RO
  source: tests/abi/undocumented (a test patch)
  allow:
    added: a new attribute breaks no reader
EOT
"$SYSFARM" check --series "$SERIES" --expected "$TMP/allow" x86_64-sysfs-on \
	>"$TMP/out" 2>&1
status=$?
check "a row that allows the addition: PASS (status $status)" jq -e \
	'.configs[0].verdict == "PASS" and
	 ([.configs[0].diff[].allowed] | length == 4 and
	  all(. == "a new attribute breaks no reader"))' build/out/results.json
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/out"
check "... and prints the additions with the reason" grep -q \
	'^  + bus/workqueue/devices/writeback/flags: file 0444 .* (allowed: a new attribute breaks no reader)$' \
	"$TMP/out"
done_testing
