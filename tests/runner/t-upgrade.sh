#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sysfarm upgrade on tests/upgrade: a matrix of two arches and three
# sources, and hand-written goldens. 6.1 -> 6.12 removes a file, adds a
# directory, changes a mode, a value, a link target and a probe's outcome
# on both arches (printed once, under both pairs), and a value on arm
# alone; 6.12 -> 6.13 removes a probe on x86_64 and changes nothing on
# arm. Each case's expectation, tests/upgrade/out/CASE: stdout, "status N",
# then stderr ($TMP shown as TMP in both).
. "$(dirname "$0")/../lib.sh"
U=$TOP/tests/upgrade
cd "$U" || exit 1

# upgrade CASE ARGS...: sysfarm upgrade ARGS against tests/upgrade/out/CASE
# ($MATRIX's configurations, matrix.yaml's by default)
upgrade() {
	name=$1
	shift
	"$SYSFARM" upgrade --matrix "${MATRIX:-matrix.yaml}" "$@" \
		>"$TMP/stdout" 2>"$TMP/stderr"
	echo "status $?" >>"$TMP/stdout"
	cat "$TMP/stdout" "$TMP/stderr" | sed "s|$TMP|TMP|g" >"$TMP/actual"
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

# Where it comes from: origin.yaml gives each source its own tree, and
# trees/ holds two fake ones (6.13's is not prepared). The fake 6.12's only
# kernel compiled led-class.c, backlight.c, power/sysfs.c and workqueue.c
# (nice, which a probe writes: a probe's file has its origin too): control is
# found once in what it compiled (not in staging/uncompiled.c), and
# max_brightness twice (led-class.c, backlight.c; staging/more.c's two
# left out); 6.1 has no kernel, so every *.c is scanned. Near misses
# (max_brightness_x, max, pattern_x, LED_DEVICE_ATTR(trigger),
# DEVICE_ATTRIBUTE(brightness), a header's pattern) match nothing; a
# macro split over lines is found where it begins.
B=$TMP/origin
for v in 6.1 6.12; do
	mkdir -p "$B/sources/linux-fake-$v"
	cp -r "trees/$v" "$B/sources/linux-fake-$v/src"
done
for o in drivers/leds/.led-class.o.cmd drivers/base/power/.sysfs.o.cmd \
	kernel/.workqueue.o.cmd \
	drivers/video/backlight/.backlight.o.cmd .vmlinux.o.cmd; do
	mkdir -p "$B/kernels/k612/$(dirname "$o")"
	: >"$B/kernels/k612/$o"
done
ln -s "$B/sources/linux-fake-6.12/src" "$B/kernels/k612/source"
# a kernel of another tree: its files are not the tree's
mkdir -p "$B/kernels/kother/drivers/staging"
: >"$B/kernels/kother/drivers/staging/.uncompiled.o.cmd"
ln -s "$TMP/elsewhere" "$B/kernels/kother/source"
MATRIX=origin.yaml
upgrade origin-text --build-dir "$B" --full --markdown "$TMP/origin.md"
sed "s|$TMP|TMP|g" "$TMP/origin.md" >"$TMP/origin.md.actual"
check "upgrade: where it comes from, as Markdown" \
	diff -u out/origin-markdown "$TMP/origin.md.actual"
upgrade origin-json --build-dir "$B" --full --json --from 6.1
# --no-origin: the review as without trees
upgrade text --build-dir "$B" --no-origin
# No kernel of 6.12 any more: every *.c (control twice, max_brightness four
# times, three named); no tree of 6.1: no "from" line
rm -r "$B/kernels/k612" "$B/sources/linux-fake-6.1"
upgrade origin-whole --build-dir "$B" --full --from 6.1
# x86_64 -> arm: an entry of the 6.12 and 6.13 pairs spans two trees on
# each side, each named (6.13's not prepared: said once, above)
upgrade origin-axis --build-dir "$B" --axis arch
MATRIX=

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
# renumbering as two renamed entries per arch, the base file's number
# (a build directory without trees: no statuses, no origins).
(cd "$TOP" && "$SYSFARM" upgrade --build-dir "$TMP/no-trees" \
	--from 6.1 --to 6.12) >"$TMP/review"
check "the 6.1 -> 6.12 review reads as real/review" \
	diff -u real/review "$TMP/review"
real 6.12 7.3 real/expect-7.3

# origin PATH SIDE WANT: where the real review ($TMP/real.json) says SIDE
# (from, to) defines PATH's attribute is WANT ("FILE MACRO", or "not
# found"), and the line it names in that tree holds the macro's call.
origin() {
	jq -r --arg p "$1" --arg s "$2" '.origin_trees as $t | .entries[] |
		select(.path == $p) | .origin[$s] | to_entries[] | .value as $o |
		if $o.found == 0 then "not found\t\t"
		elif $o.found > 1 then "\($o.found) candidates\t\t"
		else "\($o.sites[0].file) \($o.sites[0].macro)\t" +
			"\($t[.key].dir)/\($o.sites[0].file)\t" +
			"\($o.sites[0].line)" end' "$TMP/real.json" \
		>"$TMP/origin.out"
	IFS='	' read -r got file line <"$TMP/origin.out"
	call=${got#* }
	call=${call%, ...)}
	if [ -n "$file" ] && ! sed -n "${line}p" "$file" | grep -qF "${call%)}"
	then
		got="$got, not at $file:$line"
	fi
	check "real 6.12 -> 7.3: $1's attribute, $2: $3" test "$got" = "$3"
}

# Where it comes from in the real trees, when make farm prepared them: the
# workqueue's attributes in kernel/workqueue.c, the LEDs' trigger in the
# LED class; 7.3's chipX line's value is made at run time
# (gpiod_attr_init()), by no attribute macro: not found, not guessed.
if [ "$(jq '[.origin_trees // {} | .[] | select(.prepared)] | length' \
	"$TMP/real.json")" -ne 2 ]; then
	skip "real 6.12 -> 7.3: where attributes come from" \
		"6.12's and 7.3's trees are not both prepared in build/sources (make farm prepares them)"
else
	W=bus/workqueue/devices/writeback
	origin $W/affinity_scope from "kernel/workqueue.c __ATTR(affinity_scope, ...)"
	origin $W/affinity_scope to "kernel/workqueue.c __ATTR(affinity_scope, ...)"
	origin $W/max_active to "kernel/workqueue.c DEVICE_ATTR_RW(max_active)"
	# the probe that reads sysfarm_ordered/max_active (ENOENT -> ok)
	origin "probes[15].result" to \
		"kernel/workqueue.c DEVICE_ATTR_RW(max_active)"
	origin class/leds/gta04:red:power/trigger to \
		"drivers/leds/led-class.c BIN_ATTR(trigger, ...)"
	origin class/gpio/chip0/gpio0/value to "not found"
fi
done_testing
