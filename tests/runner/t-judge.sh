#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One judge: check, update, bisect and review hold a snapshot with one
# new file to the same golden and the same ABI table, whose row allows
# the addition, and all four say PASS (bisect: no patch changed the ABI);
# bisect's --allow-added lets it pass as check's does. Nothing is built or
# booted: a kernel tree in name and a lab's LAVA log whose console holds
# the snapshot (tests/hostile/lab.sh).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/hostile/lab.sh"
cd "$TMP" || exit 1

lab_matrix
mkdir -p expected p
lab_tree
echo one >tree/README
printf '%s\n' 'From: t <t@t>' 'Subject: [PATCH] README: a second line' '' \
	'---' '--- a/README' '+++ b/README' '@@ -1 +1,2 @@' ' one' '+two' \
	>p/0001-readme.patch
echo 0001-readme.patch >p/series

# The golden: an LED with its brightness; the kernel adds its trigger,
# which the table's row allows to appear.
mkdir -p sys/class/leds/a sys/bus/workqueue sys/class/gpio
echo 0 >sys/class/leds/a/brightness
"$TOP/build/snapshotter/x86_64/snapshot" --sysfs "$PWD/sys" \
	-o expected/x86_64.json bus/workqueue class/leds class/gpio
echo none >sys/class/leds/a/trigger
cat >expected/abi.yaml <<'EOT'
- path: /sys/class/leds/*/brightness
  mode: RW
  source: a test
- path: /sys/class/leds/*/trigger
  mode: RW
  source: a test
  allow:
    added: a new attribute breaks no reader
EOT
cp -r expected upd
lab_frame "$TOP" console
A="--matrix $TMP/matrix.yaml --build-dir $TMP/build --kernel-src $TMP/tree --backend lab"
# shellcheck disable=SC2086
lab_log "$SYSFARM" console '{"case": "job", "definition": "lava", "result": "pass"}' $A x86_64
verdict() { jq -r '.configs[0].verdict' build/out/results.json; }

# shellcheck disable=SC2086
"$SYSFARM" check $A x86_64 >out 2>&1
status=$?
check "check: PASS, exit 0 (status $status)" test "$status/$(verdict)" = 0/PASS
check "... the addition allowed by the row" jq -e \
	'.configs[0].diff | length == 1 and .[0].allowed == "a new attribute breaks no reader"' \
	build/out/results.json
cp build/out/x86_64/snapshot.json expected/x86_64.json.pending

# shellcheck disable=SC2086
CI= "$SYSFARM" update $A --expected "$TMP/upd" x86_64 >out 2>&1
status=$?
check "update: PASS, the golden takes the addition (status $status)" \
	test "$status/$(verdict)" = 0/PASS
check "... written" grep -qx "wrote $TMP/upd/x86_64.json (PASS)" out

"$SYSFARM" review --matrix matrix.yaml --color never >out 2>&1 </dev/null
check "review: PASS, as check judged it" grep -qx \
	"x86_64: PASS: 1 added (allowed) against $TMP/expected/x86_64.json ($TMP/expected/x86_64.json.pending)" \
	out
rm expected/x86_64.json.pending

# shellcheck disable=SC2086
"$SYSFARM" bisect $A --series "$TMP/p/series" x86_64 >out 2>&1
status=$?
check "bisect: no patch changed the ABI (status $status)" sh -c "
	test $status -eq 0 &&
	grep -qx 'no ABI change: the first 1 patches match the golden' out"

# Without the row, --allow-added lets the addition pass, as in check.
sed -i '/allow:/,$d' expected/abi.yaml
rm -r build/bisect
# shellcheck disable=SC2086
"$SYSFARM" bisect $A --series "$TMP/p/series" --allow-added x86_64 >out 2>&1
check "bisect --allow-added, no row: no patch changed the ABI" \
	grep -qx 'no ABI change: the first 1 patches match the golden' out
done_testing
