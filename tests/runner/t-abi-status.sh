#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Each change's Documentation/ABI status and the ABI table's status rules,
# on tests/abi/status: two trees (tree-old, 9.1's; tree-new, 9.2's) with a
# file in each of stable/, testing/, obsolete/ and removed/, copied where
# the farm prepares a source's tree; a golden and pending snapshots with a
# change of each status; abi.yaml lets an obsolete file's removal and an
# addition to testing/ pass. Nothing is built or booted: review judges a
# pending snapshot as check judges a fresh one (judge_snapshot()), upgrade
# compares the sides, report renders a results file in every format.
. "$(dirname "$0")/../lib.sh"
S=$TOP/tests/abi/status
B=$TMP/build
mkdir -p "$B/sources/linux-source-9.1" "$B/sources/linux-source-9.2" \
	"$TMP/exp" "$TMP/up"
cp -r "$S/tree-old" "$B/sources/linux-source-9.1/src"
cp -r "$S/tree-new" "$B/sources/linux-source-9.2/src"
cp "$S/golden.json" "$TMP/exp/x86_64-9.2.json"
cp "$S/abi.yaml" "$TMP/exp/abi.yaml"
# every file of the class documented: review holds a pending file to the
# table's findings as check does, so the verdict is the status rules' alone
printf '%s\n' '- path: /sys/class/farm/chip0/*' '  mode: RO' \
	"  source: t-abi-status.sh's class" >>"$TMP/exp/abi.yaml"

# review PENDING: x86_64-9.2's golden against tests/abi/status/PENDING.json;
# the verdict line and the changes (the table's findings left out) in
# $TMP/out
review() {
	cp "$S/$1.json" "$TMP/exp/x86_64-9.2.json.pending"
	"$SYSFARM" review --matrix "$S/matrix.yaml" --build-dir "$B" \
		--expected "$TMP/exp" --color never x86_64-9.2 </dev/null |
		grep -E '^x86_64-9.2: |^  [-+~] ' |
		sed "s|$TMP|TMP|g" >"$TMP/out"
}

review every
cat >"$TMP/want" <<'WANT'
x86_64-9.2: DIFF: 2 removed, 2 changed, 1 added, 1 removed (allowed), 1 added (allowed) against TMP/exp/x86_64-9.2.json (TMP/exp/x86_64-9.2.json.pending)
  ~ class/farm/chip0/changed_attr: value "1\n" -> "2\n" [testing]
  ~ class/farm/chip0/gone_attr: mode 0444 -> 0644 [removed]
  + class/farm/chip0/new_attr: file 0444 "1\n" [testing] (allowed: testing/ is where new files start)
  - class/farm/chip0/old_attr: file 0444 "1\n" [obsolete] (allowed: the farm's class is obsolete, its going expected)
  - class/farm/chip0/plain_attr: file 0444 "1\n" [undocumented]
  - class/farm/chip0/stable_attr: file 0444 "1\n" [stable]
  + kmsg[1]: "farm: again"
WANT
check "a change of each status, each labelled; the rules' allowed with their reasons; a kmsg line has none" \
	diff -u "$TMP/want" "$TMP/out"

review allowed
check "an obsolete file's removal and a testing/ addition alone: PASS, shown and labelled" \
	grep -qx 'x86_64-9.2: PASS: 1 removed (allowed), 1 added (allowed) against .*' \
	"$TMP/out"
check "... each line with its status and reason" sh -c "
	grep -qx '  - class/farm/chip0/old_attr: file 0444 \"1.n\" \[obsolete\] (allowed: the farm.s class is obsolete, its going expected)' '$TMP/out' &&
	grep -qx '  + class/farm/chip0/new_attr: file 0444 \"1.n\" \[testing\] (allowed: testing/ is where new files start)' '$TMP/out'"

review stable
check "the same removal of a stable file: DIFF" grep -qx \
	'x86_64-9.2: DIFF: 1 removed against .*' "$TMP/out"

# Without the tree at hand, no status is guessed, and no rule allows.
rm -rf "$B/sources/linux-source-9.2/src"
review allowed
check "no tree: no status, nothing allowed: DIFF" sh -c "
	grep -qx 'x86_64-9.2: DIFF: 1 removed, 1 added against .*' '$TMP/out' &&
	! grep -q '\[' '$TMP/out'"
cp -r "$S/tree-new" "$B/sources/linux-source-9.2/src"

# upgrade: a removal takes the old side's tree's status (moved_attr,
# obsolete in 9.1's, in removed/ in 9.2's), an addition the new side's
# (new_attr, undocumented in 9.1's, testing in 9.2's).
cp "$S/golden.json" "$TMP/up/x86_64.json"
cp "$S/x86_64-9.2.json" "$TMP/up/x86_64-9.2.json"
upgrade() {
	"$SYSFARM" upgrade --matrix "$S/matrix.yaml" --build-dir "$B" \
		--expected "$TMP/up" --axis source --no-origin "$@"
}
upgrade >"$TMP/out"
cat >"$TMP/want" <<'WANT'
source 9.1 -> 9.2: 1 pair compared, 0 not; 1 removed, 0 changed, 1 added

x86_64 -> x86_64-9.2: 1 removed, 0 changed, 1 added
  - file class/farm/chip0/moved_attr: file 0444 "1\n" [obsolete]
  + file class/farm/chip0/new_attr: file 0444 "1\n" [testing]
WANT
check "upgrade: a removal the old tree's status, an addition the new's" \
	diff -u "$TMP/want" "$TMP/out"
upgrade --json | jq -c '.entries[] | [.path, .abi_status]' >"$TMP/out"
printf '%s\n' '["class/farm/chip0/moved_attr","obsolete"]' \
	'["class/farm/chip0/new_attr","testing"]' >"$TMP/want"
check "upgrade --json: abi_status per entry" diff -u "$TMP/want" "$TMP/out"
upgrade --markdown "$TMP/md" >/dev/null
check "upgrade --markdown: the status beside the path" sh -c "
	grep -q '| class/farm/chip0/moved\\\\_attr \\\\\\[obsolete\\\\\\] |' '$TMP/md' &&
	grep -q '| class/farm/chip0/new\\\\_attr \\\\\\[testing\\\\\\] |' '$TMP/md'"

# report: a results file whose PASS has an allowed obsolete removal and
# whose DIFF has a change of each other status, in every format.
R=$S/results.json
"$SYSFARM" report --tap "$R" >"$TMP/tap"
check "TAP: the allowed removal passes, labelled" sh -c "
	grep -qx 'ok 1 - x86_64-9.2: PASS' '$TMP/tap' &&
	grep -qx '# - class/farm/chip0/old_attr: file 0444 \"1.n\" \[obsolete\] (allowed: .*)' '$TMP/tap'"
for st in testing removed undocumented stable; do
	check "TAP, JUnit, Markdown and the page show [$st]" sh -c "
		grep -q '^# .*/[a-z]*_attr: .* \[$st\]\$' '$TMP/tap' &&
		'$SYSFARM' report --junit - '$R' | grep -q '_attr: .* \[$st\]\$' &&
		'$SYSFARM' report --markdown - '$R' | grep -q '^[-~] .*_attr: .* \[$st\]\$' &&
		'$SYSFARM' report --html - '$R' |
			grep -q '_attr <span class=\"abi $st\">\[$st\]</span>'"
done
check "JUnit, Markdown and the page: the obsolete removal allowed" sh -c "
	'$SYSFARM' report --junit - '$R' | grep -q 'old_attr: .* \[obsolete\] (allowed: ' &&
	'$SYSFARM' report --markdown - '$R' | grep -q 'old_attr: .* \[obsolete\] (allowed: ' &&
	'$SYSFARM' report --html - '$R' | grep -q 'old_attr <span class=\"abi obsolete\">\[obsolete\]</span>'"
check "the kmsg line has no status anywhere" sh -c "
	grep -qx '# + kmsg\[1\]: \"farm: again\"' '$TMP/tap' &&
	! '$SYSFARM' report --html - '$R' | grep -q 'kmsg\[1\] <span class=\"abi'"
echo "1..$test_count"
