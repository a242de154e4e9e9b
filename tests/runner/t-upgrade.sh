#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sysfarm upgrade on tests/upgrade: a matrix of two arches and three
# sources, and hand-written goldens. 6.1 -> 6.12 removes a file, adds a
# directory, changes a mode, a value, a link target and a probe's outcome
# on both arches (printed once, under both pairs), and a value on arm
# alone; 6.12 -> 6.13 removes a probe on x86_64 and changes nothing on
# arm. Each case's expectation, tests/upgrade/out/CASE: stdout, "status N",
# then stderr ($TMP shown as TMP).
. "$(dirname "$0")/../lib.sh"
U=$TOP/tests/upgrade
cd "$U" || exit 1

# upgrade CASE ARGS...: sysfarm upgrade ARGS against tests/upgrade/out/CASE
upgrade() {
	name=$1
	shift
	"$SYSFARM" upgrade --matrix matrix.yaml "$@" >"$TMP/actual" \
		2>"$TMP/stderr"
	echo "status $?" >>"$TMP/actual"
	sed "s|$TMP|TMP|g" "$TMP/stderr" >>"$TMP/actual"
	check "upgrade $name: $*" diff -u "out/$name" "$TMP/actual"
}

upgrade text
upgrade json --json

# --markdown FILE: stdout as without it, the Markdown appended to FILE (as
# check and report append to GITHUB_STEP_SUMMARY); a FILE that cannot be
# written is 125, the text still shown.
echo "an earlier step's summary" >"$TMP/summary.md"
upgrade text --markdown "$TMP/summary.md"
{ echo "an earlier step's summary"; cat out/markdown; } >"$TMP/md.expect"
check "upgrade --markdown FILE: appended to FILE" \
	diff -u "$TMP/md.expect" "$TMP/summary.md"
upgrade markdown-lost --markdown "$TMP/no-dir/summary.md"
upgrade from-to --from 6.12 --to 6.13
upgrade to-only --to 6.12
upgrade axis --axis arch --from x86_64
upgrade config x86_64
upgrade no-delta arm-6.13

# With --snapshots, the last run's; redaction rules apply to both sides.
for c in x86_64 x86_64-6.12; do
	mkdir -p "$TMP/build/out/$c"
	cp "expected/$c.json" "$TMP/build/out/$c/snapshot.json"
done
upgrade snapshots --snapshots --build-dir "$TMP/build" \
	--redactions redactions.yaml x86_64

# A missing golden, named; the pairs that have both still shown: 1, as a
# delta outranks could-not-test (lib/exitcode.h), 125 without a delta.
cp -r expected "$TMP/missing"
rm "$TMP/missing/arm-6.12.json"
upgrade missing --expected "$TMP/missing"
upgrade missing-json --json --expected "$TMP/missing" --from 6.1
upgrade missing-only --expected "$TMP/missing" arm-6.13

# A golden that does not parse: 2, with its position; nothing else shown.
cp -r expected "$TMP/bad"
cp malformed.json "$TMP/bad/arm-6.12.json"
upgrade malformed --expected "$TMP/bad"

# Roots that overlap ("class" holds "class/leds"): each change of
# class/leds is found twice in the pair, and counts and is shown once.
cp -r expected "$TMP/overlap"
for c in x86_64 x86_64-6.12; do
	jq '.roots.class = {type: "dir", mode: "0755",
			    entries: {leds: .roots["class/leds"]}}' \
		"expected/$c.json" >"$TMP/overlap/$c.json"
done
upgrade overlap --expected "$TMP/overlap" x86_64

# real FROM TO EXPECT: matrix.yaml's goldens, FROM -> TO: every entry as
# the expectation written from the two kernel trees' sources (EXPECT,
# "CLASS KIND PATH PAIRS" a line) says, nothing more, and every TO
# configuration compared with its FROM pair (the one whose other axes have
# the same values, from list --json).
real() {
	(cd "$TOP" && "$SYSFARM" upgrade --json --from "$1" --to "$2") \
		>"$TMP/real.json"
	status=$?
	check "matrix.yaml's goldens: a delta from $1 to $2 (status $status)" \
		test "$status" -eq 1
	jq -r '.entries[] | "\(.class) \(.kind) \(.path)\(
		if .change == "renamed" then " -> \(.new)" else "" end
		) \(.configs | length)"' \
		"$TMP/real.json" | LC_ALL=C sort >"$TMP/real.actual"
	grep -v '^#' "$3" | LC_ALL=C sort >"$TMP/real.expect"
	check "... each entry explained in $3, and no other" \
		diff -u "$TMP/real.expect" "$TMP/real.actual"
	# a rename's or a subtree's entries are the changes it stands for
	# (an entry two folds share is in the pairs of both)
	by_change='group_by([.path, .change, .old, .new]) |
		map(.[0] + {n: (map(.n) | add)})'
	(cd "$TOP" && "$SYSFARM" upgrade --json --no-renames --full \
		--from "$1" --to "$2") | jq -S "[.entries[] |
		{path, change, old, new, n: (.configs | length)}] | $by_change" \
		>"$TMP/flat"
	jq -S "[.entries[] | (.configs | length) as \$n |
		if .entries then .entries[] |
			{path, change: .kind, old, new, \$n}
		else {path, change, old, new, \$n} end] | $by_change" \
		"$TMP/real.json" >"$TMP/members"
	check "... its folds hold every change of --no-renames --full" \
		diff -u "$TMP/flat" "$TMP/members"
	jq -r '.pairs[] | select(.compared) | "\(.from) \(.to)"' \
		"$TMP/real.json" >"$TMP/pairs.actual"
	(cd "$TOP" && "$SYSFARM" list --json) | jq -r --arg from "$1" \
		--arg to "$2" '
		map(select(.source == $from)) as $old | .[] |
		select(.source == $to) as $new | $old[] |
		select([.arch, .sysfs, .tca6507] ==
		       [$new.arch, $new.sysfs, $new.tca6507]) |
		"\(.config) \($new.config)"' >"$TMP/pairs.expect"
	check "... every $2 configuration compared with its $1 pair" \
		diff -u "$TMP/pairs.expect" "$TMP/pairs.actual"
}

real 6.1 6.12 real/expect
# The review as a maintainer reads it: the workqueue delta as before, the
# renumbering as two renamed entries per arch, the base file's number.
(cd "$TOP" && "$SYSFARM" upgrade --from 6.1 --to 6.12) >"$TMP/review"
check "the 6.1 -> 6.12 review reads as real/review" \
	diff -u real/review "$TMP/review"
real 6.12 7.3 real/expect-7.3
done_testing
