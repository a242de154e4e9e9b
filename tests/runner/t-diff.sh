#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sysfarm diff: each directory under tests/diff holds a.json, b.json, maybe
# redactions.yaml, maybe `args` (options, one a line: --full), and what
# `sysfarm diff` prints without colour (`expected`) and with --json
# (`expected.json`); empty means equal, exit 0.
# tests/diff/bad/*.json are refused inputs, tests/diff/redactions-bad/*.yaml
# refused rule files, each beside a .expect: the message, then "status 2".
. "$(dirname "$0")/../lib.sh"
DIFFS=$TOP/tests/diff

for dir in "$DIFFS"/*/; do
	name=$(basename "$dir")
	case $name in bad|redactions-bad) continue ;; esac
	set -- a.json b.json
	[ -f "$dir/redactions.yaml" ] &&
		set -- --redactions redactions.yaml "$@"
	# shellcheck disable=SC2046 # one option a line, no spaces
	[ -f "$dir/args" ] && set -- $(cat "$dir/args") "$@"
	want=1
	[ -s "$dir/expected" ] || want=0
	(cd "$dir" && "$SYSFARM" diff --color=never "$@") >"$TMP/out"
	check "diff $name: exit $want" test $? -eq "$want"
	check "diff $name: terminal output" diff -u "$dir/expected" "$TMP/out"
	(cd "$dir" && "$SYSFARM" diff --json "$@") >"$TMP/out"
	check "diff $name: --json output" \
		diff -u "$dir/expected.json" "$TMP/out"
	# a fold's entries in JSON are the changes it stands for, no more
	(cd "$dir" && "$SYSFARM" diff --json --no-renames --full "$@" |
		jq -S sort) >"$TMP/flat"
	jq -S '[.[] | if .entries then .entries[] else . end] | sort' \
		"$dir/expected.json" >"$TMP/members"
	check "diff $name: --json's folds hold every change" \
		diff -u "$TMP/flat" "$TMP/members"
done

# Refused input: the message names the file and where, the exit status is 2.
for f in "$DIFFS"/bad/*.json; do
	name=$(basename "$f" .json)
	(
		cd "$DIFFS/bad" || exit 1
		"$SYSFARM" diff ../equal/a.json "$name.json" 2>&1 >/dev/null
		echo "status $?"
	) >"$TMP/actual"
	check "bad input $name" diff -u "$DIFFS/bad/$name.expect" "$TMP/actual"
done
for f in "$DIFFS"/redactions-bad/*.yaml; do
	name=$(basename "$f" .yaml)
	(
		cd "$DIFFS/redactions-bad" || exit 1
		"$SYSFARM" diff --redactions "$name.yaml" ../equal/a.json \
			../equal/b.json 2>&1 >/dev/null
		echo "status $?"
	) >"$TMP/actual"
	check "bad redactions $name" \
		diff -u "$DIFFS/redactions-bad/$name.expect" "$TMP/actual"
done

# The shipped rules load, and they are all justified (the loader insists).
check "expected/redactions.yaml loads" "$SYSFARM" diff \
	--redactions "$TOP/expected/redactions.yaml" \
	"$DIFFS/equal/a.json" "$DIFFS/equal/b.json"

# Colour only when asked; the old side is a golden, a missing one is exit 2.
"$SYSFARM" diff --color=always "$DIFFS/added-removed/a.json" \
	"$DIFFS/added-removed/b.json" >"$TMP/color"
check "--color=always colours + lines green" \
	grep -q "$(printf '^\033\\[32m+ ')" "$TMP/color"
check "--color=auto writes no colour into a file" sh -c \
	"'$SYSFARM' diff --color=auto '$DIFFS/added-removed/a.json' \
	'$DIFFS/added-removed/b.json' | grep -vq '$(printf '\033')'"
"$SYSFARM" diff --color=sometimes "$DIFFS/equal/a.json" \
	"$DIFFS/equal/b.json" 2>/dev/null
check "a bad --color value is exit 2" test $? -eq 2
"$SYSFARM" diff "$DIFFS/equal/a.json" 2>/dev/null
check "one snapshot only is exit 2" test $? -eq 2
"$SYSFARM" diff "$TMP/none.json" "$DIFFS/equal/b.json" 2>"$TMP/err"
check "a missing file is exit 2" test $? -eq 2
check "a missing file is named" grep -qx \
	"sysfarm diff: $TMP/none.json: cannot read: No such file or directory" \
	"$TMP/err"
done_testing
