#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Goldens end to end: the matrix passes against expected/; a patch that
# changes one mode, one value and removes one attribute makes exactly the
# sysfs-on configurations of its source DIFF (6.1, 6.12 and 7.3 each
# their own, 6.1's sysfs-off ones PASS), naming those paths, each change
# classed (removed, changed) and summed up so; NEW, obsolete goldens
# (update removes only its own, after a whole matrix gave snapshots),
# changed inputs, CI=true refusal, and interrupted updates; the review
# flow (pending snapshots, review on a terminal and by options,
# interrupted, a pending file under CI=true).
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
ABI=tests/golden/abi-change/series
ABI612=tests/golden/abi-change-6.12/series
ABI73=tests/golden/abi-change-7.3/series
# configs SOURCE: the configurations of one source, in matrix order
configs() {
	"$SYSFARM" list --json | jq -r ".[] | select(.source == \"$1\").config"
}
at_hand
"$SYSFARM" check --junit "$TMP/junit.xml" --markdown "$TMP/summary.md" \
	$AT_HAND >"$TMP/out" 2>"$TMP/err"
status=$?
check "sysfarm check: the whole matrix passes (status $status)" \
	test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/out"
n=$("$SYSFARM" list --json $AT_HAND | jq length)
check "results.json: $n configurations, all PASS" jq -e --argjson n "$n" \
	'[.configs[].verdict] | length == $n and all(. == "PASS")' \
	build/out/results.json
check "JUnit XML is well-formed" xmllint --noout "$TMP/junit.xml"
check "Markdown summary has a row per configuration" \
	test "$(grep -c '^| .*-sysfs-' "$TMP/summary.md")" -ge "$n"

# On x86_64: the series rebuilds every kernel it is given, and arm's
# sysfs-on one is rebuilt with it below. It changes only code: each
# kernel's .config stands (make rebuilt, nothing configured again).
K=$("$SYSFARM" list | awk '$1 == "x86_64-sysfs-on" { print $2 }')
touch -d @1 "build/kernels/$K/.config"
"$SYSFARM" check --series "$ABI" $(configs 6.1 | grep '^x86_64-') \
	>"$TMP/out" 2>"$TMP/err"
status=$?
check "a series changing only code: no kernel configured again" \
	test "$(stat -c %Y "build/kernels/$K/.config")" -eq 1
check "... but built again" grep -q ": kernel $K built in" "$TMP/err"
check "ABI-changing patch: check exits 1 (status $status)" test "$status" -eq 1
jq -r '.configs[] | "\(.config) \(.verdict)"' build/out/results.json \
	>"$TMP/actual"
cat >"$TMP/expect" <<EOT
x86_64-sysfs-on-tca6507 DIFF
x86_64-sysfs-on DIFF
x86_64-sysfs-off-tca6507 PASS
x86_64-sysfs-off PASS
EOT
check "exactly the sysfs-on configurations DIFF" \
	diff -u "$TMP/expect" "$TMP/actual"
# Each DIFF confirmed by a second boot of its kernel, kept beside the
# first; a PASS is booted once.
jq -r '.configs[] | "\(.config) \(.verdict) \(.confirmed)"' \
	build/out/results.json | while read -r c v confirmed; do
	second=$(test -s "build/out/$c/snapshot.confirm.json" && echo yes)
	echo "$c $v $confirmed ${second:-no}"
done >"$TMP/actual"
cat >"$TMP/expect" <<EOT
x86_64-sysfs-on-tca6507 DIFF true yes
x86_64-sysfs-on DIFF true yes
x86_64-sysfs-off-tca6507 PASS false no
x86_64-sysfs-off PASS false no
EOT
check "... each DIFF confirmed by a second boot, kept; no PASS booted twice" \
	diff -u "$TMP/expect" "$TMP/actual"
# Every change is one of the three, and each of the three is there.
jq -r '.configs[].diff[] | "\(.kind) \(.path | split("/") | last)"' \
	build/out/results.json | sort -u >"$TMP/actual"
printf '%s\n' "mode pool_ids" "removed numa" "value per_cpu" >"$TMP/expect"
check "the diff names the mode, the value and the removed attribute" \
	diff -u "$TMP/expect" "$TMP/actual"
check "check prints the diff with full paths" grep -q \
	'bus/workqueue/devices/sysfarm_unbound/.*numa' "$TMP/out"
# Each change classed: the removal incompatible, mode and value to review.
jq -r '.configs[].diff[] | "\(.class) \(.kind)"' build/out/results.json |
	sort -u >"$TMP/actual"
printf '%s\n' "changed mode" "changed value" "removed removed" >"$TMP/expect"
check "... each change classed: removed, or changed (mode, value)" \
	diff -u "$TMP/expect" "$TMP/actual"
# summed per configuration, most severe first, from results.json's counts
jq -r '.configs[] | select(.verdict == "DIFF") | "\(.config): DIFF: \(
	[.diff[] | select(.class == "removed")] | length) removed, \(
	[.diff[] | select(.class == "changed")] | length) changed against "' \
	build/out/results.json >"$TMP/expect"
grep -F -f "$TMP/expect" "$TMP/out" | sed 's/ against .*/ against /' \
	>"$TMP/actual"
check "... and summed up per configuration: N removed, M changed" \
	diff -u "$TMP/expect" "$TMP/actual"

# The page check wrote for it, in a real browser: a cell per
# configuration, and the DIFF cells' sections with the classified changes.
mkdir -p build/tests
cp build/out/report.html build/tests/report-abi-change.html
check "check wrote the page and said where" \
	grep -q '^the page: .*build/out/report.html$' "$TMP/out"
if command -v chromium >/dev/null; then
	. "$TOP/tests/lib-html.sh"
	P=$TOP/build/tests/report-abi-change.html
	check "chromium: a grid cell per configuration run (4)" \
		test "$(html_xpath "$P" 'count(//a[@data-config])')" -eq 4
	check "... the sysfs-on ones DIFF" test "$(html_xpath "$P" \
		'count(//a[@data-verdict="DIFF"][contains(@data-config,"sysfs-on")])')" -eq 2
	href=$(html_xpath "$P" \
		'string(//a[@data-config="x86_64-sysfs-on"]/@href)')
	sec="//section[@id=\"${href#\#}\"]"
	check "... whose section shows numa removed, its golden side" \
		test "$(html_xpath "$P" "string($sec//tr[@class=\"removed\"][contains(td[@class=\"path\"],\"numa\")]/td[@class=\"old\"])")" = \
		'file 0644 "1\n"'
	html_shot "$P" "$TOP/build/tests/report-abi-change.png"
	check "a screenshot for a person: build/tests/report-abi-change.png" \
		test -s build/tests/report-abi-change.png
else
	skip "the page in chromium" "no chromium (make check installs it: ci/deps-test)"
fi

# The review flow. Outside CI, check leaves each DIFF snapshot pending
# beside its golden, and removes the stale pending file of a PASS.
cp -r expected "$TMP/rev"
cp expected/x86_64-sysfs-off.json "$TMP/rev/x86_64-sysfs-off.json.pending"
CI= "$SYSFARM" check --series "$ABI" --expected "$TMP/rev" \
	x86_64-sysfs-on-tca6507 x86_64-sysfs-on x86_64-sysfs-off \
	>"$TMP/out" 2>&1
check "outside CI: check exits 1 (status $?)" test $? -eq 1
TCA=x86_64-sysfs-on-tca6507
summary=$(jq -r '.configs[] | select(.config == "x86_64-sysfs-on") | "\(
	[.diff[] | select(.class == "removed")] | length) removed, \(
	[.diff[] | select(.class == "changed")] | length) changed"' \
	build/out/results.json)
ls "$TMP/rev" | grep pending >"$TMP/actual"
printf '%s\n' "$TCA.json.pending" x86_64-sysfs-on.json.pending \
	>"$TMP/expect"
check "... leaves each DIFF snapshot pending, a PASS's stale one removed" \
	diff -u "$TMP/expect" "$TMP/actual"
check "... the pending file is the snapshot" cmp \
	build/out/x86_64-sysfs-on/snapshot.json \
	"$TMP/rev/x86_64-sysfs-on.json.pending"
check "... check names them and the command that reviews them" \
	grep -q "^pending (sysfarm review: .*accept or reject" "$TMP/out"
check "... a diff two configurations share is printed once" \
	grep -q "^$TCA (same in: x86_64-sysfs-on):\$" "$TMP/out"
cp -r "$TMP/rev" "$TMP/rev2"
cp -r "$TMP/rev" "$TMP/rev3"
"$SYSFARM" review --expected "$TMP/rev" </dev/null >"$TMP/out" 2>&1
check "review without a terminal lists them (status $?)" test $? -eq 1
check "... each with its classified diff ($summary)" grep -q \
	"^x86_64-sysfs-on: DIFF: $summary against" "$TMP/out"
check "... and what the ABI table would find in it" \
	grep -q 'abi.yaml finds [0-9]* faults in it' "$TMP/out"
check "... and touches nothing" \
	test -f "$TMP/rev/$TCA.json.pending" -a \
	-f "$TMP/rev/x86_64-sysfs-on.json.pending"
# On a terminal (script(1) gives it one): skip the first, accept the next.
(sleep 1; echo s; sleep 1; echo a) |
	script -qec "'$SYSFARM' review --expected '$TMP/rev'" /dev/null \
	>"$TMP/out" 2>&1
check "on a terminal: skip, then accept (status $?: one left)" test $? -eq 1
check "... the skipped one is still pending, its golden untouched" sh -c \
	"test -f '$TMP/rev/$TCA.json.pending' && cmp expected/$TCA.json '$TMP/rev/$TCA.json'"
check "... the accepted one's golden is its snapshot, its pending file gone" \
	sh -c "cmp build/out/x86_64-sysfs-on/snapshot.json '$TMP/rev/x86_64-sysfs-on.json' && test ! -e '$TMP/rev/x86_64-sysfs-on.json.pending'"
# By options, for scripts.
"$SYSFARM" review --reject --expected "$TMP/rev2" "$TCA" >"$TMP/out" 2>&1
check "review --reject CONFIG (status $?)" test $? -eq 0
check "... removes its pending file, its golden untouched" sh -c \
	"test ! -e '$TMP/rev2/$TCA.json.pending' && cmp expected/$TCA.json '$TMP/rev2/$TCA.json'"
"$SYSFARM" review --accept --expected "$TMP/rev2" >"$TMP/out" 2>&1
check "review --accept: nothing left pending (status $?)" test $? -eq 0
check "... the golden is the snapshot" cmp \
	build/out/x86_64-sysfs-on/snapshot.json "$TMP/rev2/x86_64-sysfs-on.json"
# Interrupted at the prompt: nothing is lost.
(sleep 4) | script -qec "'$SYSFARM' review --expected '$TMP/rev3'" /dev/null \
	>"$TMP/out" 2>&1 &
sleep 2
pkill -INT -f "^$SYSFARM review --expected $TMP/rev3"
wait
check "review interrupted: both still pending, goldens untouched" sh -c \
	"test -f '$TMP/rev3/$TCA.json.pending' && test -f '$TMP/rev3/x86_64-sysfs-on.json.pending' && cmp expected/$TCA.json '$TMP/rev3/$TCA.json' && cmp expected/x86_64-sysfs-on.json '$TMP/rev3/x86_64-sysfs-on.json'"
check "... no temporary file left" \
	test -z "$(find "$TMP/rev3" -name '*.tmp.*')"
# CI=true: a pending file left in the tree fails the run, before a build.
CI=true "$SYSFARM" check --expected "$TMP/rev3" x86_64-sysfs-off \
	>"$TMP/out" 2>&1
check "CI=true: a pending file in the tree is bad input (status $?)" \
	test $? -eq 2
check "... named" grep -q "^\"$TMP/rev3/$TCA.json.pending\": a pending snapshot" \
	"$TMP/out"

# abi_change SOURCE SERIES: the same on SOURCE, by its own series: each of
# its configurations (all sysfs-on) DIFFs, no other is checked, and the
# diffs name the mode, the value and the removed attribute.
abi_change() {
	"$SYSFARM" check --series "$2" $(configs "$1") >"$TMP/out" 2>"$TMP/err"
	status=$?
	check "$1's ABI-changing patch: check exits 1 (status $status)" \
		test "$status" -eq 1
	jq -r '.configs[] | "\(.config) \(.verdict)"' build/out/results.json \
		>"$TMP/actual"
	configs "$1" | sed 's/$/ DIFF/' >"$TMP/expect"
	check "... every $1 configuration DIFFs, and no other is checked" \
		diff -u "$TMP/expect" "$TMP/actual"
	# which, and why (a FLAKY names the paths its two boots disagree on)
	cmp -s "$TMP/expect" "$TMP/actual" ||
		jq -r '.configs[] | "\(.config): \(.verdict): \(.message)"' \
			build/out/results.json | sed 's/^/# /'
	jq -r '.configs[].diff[] | "\(.kind) \(.path | split("/") | last)"' \
		build/out/results.json | sort -u >"$TMP/actual"
	printf '%s\n' "mode affinity_strict" "removed affinity_scope" \
		"value per_cpu" >"$TMP/expect"
	check "... naming the mode, the value and the removed attribute" \
		diff -u "$TMP/expect" "$TMP/actual"
}
abi_change 6.12 "$ABI612"
case " $AT_HAND " in
"  " | *" source=7.3 "*) abi_change 7.3 "$ABI73" ;;
*) skip "7.3's ABI-changing patch" "source 7.3 cannot be had (above)" ;;
esac

# Goldens of our own, so that expected/ is never touched.
cp -r expected "$TMP/exp"
CI=true "$SYSFARM" update --series "$ABI" --expected "$TMP/exp" \
	x86_64-sysfs-on >"$TMP/out" 2>"$TMP/err"
check "CI=true: update refuses (status $?)" test $? -eq 2
check "... leaves the golden untouched" \
	cmp expected/x86_64-sysfs-on.json "$TMP/exp/x86_64-sysfs-on.json"
check "... and leaves the would-be golden and its diff as artifacts" \
	grep -q numa build/out/x86_64-sysfs-on/snapshot.diff

# Interrupt updates at different moments: each golden is whole, old or new.
for delay in 1 4 9; do
	CI= "$SYSFARM" update --series "$ABI" --expected "$TMP/exp" \
		x86_64-sysfs-on arm-sysfs-on >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	for c in x86_64-sysfs-on arm-sysfs-on; do
		g="$TMP/exp/$c.json"
		check "SIGINT after ${delay}s: $c golden is whole" sh -c \
			"cmp -s '$g' 'expected/$c.json' || cmp -s '$g' 'build/out/$c/snapshot.json'"
	done
	check "SIGINT after ${delay}s: no temporary file left" \
		test -z "$(find "$TMP/exp" -name '*.tmp.*')"
done
CI= "$SYSFARM" update --series "$ABI" --expected "$TMP/exp" \
	x86_64-sysfs-on >"$TMP/out" 2>&1
check "update writes the new golden" \
	cmp build/out/x86_64-sysfs-on/snapshot.json "$TMP/exp/x86_64-sysfs-on.json"
"$SYSFARM" check --series "$ABI" --expected "$TMP/exp" x86_64-sysfs-on \
	>"$TMP/out" 2>&1
check "... which check then finds equal, the ABI table not (status $?)" \
	jq -e '.configs[0].verdict == "ABI-MISMATCH"' build/out/results.json
# pool_ids' mode, and the per-cpu queue now reads as unbound without
# the unbound queues' files
jq -r '[.configs[0].abi[] | select(.waived == null) |
	"\(.kind) \(.path | split("/") | last)"] | unique[]' \
	build/out/results.json >"$TMP/actual"
printf '%s\n' "missing cpumask" "missing nice" "missing numa" \
	"missing pool_ids" "mode pool_ids" >"$TMP/expect"
check "... naming what expected/abi.yaml promises otherwise" \
	diff -u "$TMP/expect" "$TMP/actual"
rm "$TMP/exp/abi.yaml"
"$SYSFARM" check --series "$ABI" --expected "$TMP/exp" x86_64-sysfs-on \
	>"$TMP/out" 2>&1
check "... and without a table, passes" test $? -eq 0

# NEW, obsolete, and a changed input on the default series.
mkdir "$TMP/empty"
"$SYSFARM" check --expected "$TMP/empty" x86_64-sysfs-off >"$TMP/out" 2>&1
check "no golden: NEW, exit 1 (status $?)" test $? -eq 1
check "NEW says how to accept it" grep -q 'sysfarm review' "$TMP/out"
cp -r expected "$TMP/obs"
cp expected/x86_64-sysfs-off.json "$TMP/obs/x86_64-gone.json"
"$SYSFARM" check --expected "$TMP/obs" x86_64-sysfs-off >"$TMP/out" 2>&1
check "an obsolete golden does not fail a run of one configuration (status $?)" \
	test $? -eq 0
check "... and is named" grep -q 'x86_64-gone.json: obsolete' "$TMP/out"
jq '.header.inputs.source = "linux-source-6.1 6.1.190-1"' \
	expected/x86_64-sysfs-off.json >"$TMP/obs/x86_64-sysfs-off.json"
rm "$TMP/obs/x86_64-gone.json"
"$SYSFARM" check --expected "$TMP/obs" x86_64-sysfs-off >"$TMP/out" 2>&1
check "another source version, same ABI: still PASS (status $?)" test $? -eq 0
check "... the changed input is reported first, on its own line" \
	grep -q '^inputs changed: source: linux-source-6.1 6.1.190-1 -> ' \
	"$TMP/out"

# A whole matrix of one configuration (the kernel is the one just used)
# that gives its snapshot: update removes the goldens sysfarm wrote that
# it does not make, naming each first, and leaves a link and a stranger's
# file alone.
sed -e '/^include:/,$d' \
	-e 's#\(\[\|, \|: \)\(patches\|snapshotter\|build\)/#\1'"$TOP"'/\2/#g' \
	matrix.yaml >"$TMP/one.yaml"
printf '%s\n' 'exclude:' '  - {arch: arm}' '  - {sysfs: "on"}' \
	'  - {tca6507: emulated}' '  - {source: "6.12"}' '  - {source: "7.3"}' \
	>>"$TMP/one.yaml"
mkdir "$TMP/obs1"
cp expected/x86_64-sysfs-off.json "$TMP/obs1/"
cp expected/x86_64-sysfs-off.json "$TMP/obs1/x86_64-gone.json"
"$SYSFARM" check --matrix "$TMP/one.yaml" --build-dir build \
	--series patches/series --expected "$TMP/obs1" >"$TMP/out" 2>&1
check "an obsolete golden fails a whole-matrix run that passed (status $?)" \
	test $? -eq 1
check "... and is named" grep -q 'x86_64-gone.json: obsolete' "$TMP/out"
cp -r expected "$TMP/one"
echo '{"name": "not-a-golden"}' >"$TMP/one/package.json"
ln -s "$TOP/expected/arm-sysfs-on.json" "$TMP/one/link.json"
CI= "$SYSFARM" update --matrix "$TMP/one.yaml" --build-dir build \
	--series patches/series --expected "$TMP/one" >"$TMP/out" 2>&1
check "update, every configuration with a snapshot (status $?)" \
	test $? -eq 0
(cd expected && ls ./*.json) | grep -v x86_64-sysfs-off.json |
	sed "s|^\.|removing obsolete $TMP/one|" | LC_ALL=C sort >"$TMP/expect"
grep '^removing obsolete ' "$TMP/out" | LC_ALL=C sort >"$TMP/actual"
check "... names each of the other goldens" \
	diff -u "$TMP/expect" "$TMP/actual"
ls "$TMP/one" | LC_ALL=C sort >"$TMP/actual"
printf '%s\n' abi.yaml link.json package.json redactions.yaml \
	x86_64-sysfs-off.json >"$TMP/expect"
check "... removes them, keeps the link and the stranger's file" \
	diff -u "$TMP/expect" "$TMP/actual"
check "... and the link's target" test -s expected/arm-sysfs-on.json

# A series changing a Kconfig file (a comment): the kernel is configured
# again, as every series that changes what the configuration reads.
touch -d @1 "build/kernels/$K/.config"
"$SYSFARM" build --series tests/runner/series/kconfig-comment/series \
	x86_64-sysfs-on >"$TMP/out" 2>&1
check "a series changing a Kconfig file: configured again (status $?)" \
	test "$(stat -c %Y "build/kernels/$K/.config")" -ne 1
done_testing
