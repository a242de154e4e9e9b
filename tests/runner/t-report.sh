#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sysfarm report: tests/report/results.json as TAP, JUnit XML and Markdown
# against the expected.* beside it; refused results files under bad/, each
# beside a .expect: the message, then "status 2".
. "$(dirname "$0")/../lib.sh"
R=$TOP/tests/report

cd "$R" || exit 1
"$SYSFARM" report --tap results.json >"$TMP/tap"
check "TAP report" diff -u expected.tap "$TMP/tap"
"$SYSFARM" report results.json >"$TMP/default"
check "TAP is the default" diff -u expected.tap "$TMP/default"
"$SYSFARM" report --junit "$TMP/junit.xml" results.json >"$TMP/out"
check "--junit FILE writes nothing on stdout" test ! -s "$TMP/out"
check "JUnit report" diff -u expected.xml "$TMP/junit.xml"
if command -v xmllint >/dev/null; then
	check "JUnit XML is well-formed" xmllint --noout "$TMP/junit.xml"
else
	skip "JUnit XML is well-formed" "no xmllint (libxml2-utils)"
fi
echo "earlier step" >"$TMP/summary.md"
"$SYSFARM" report --markdown "$TMP/summary.md" results.json
{ echo "earlier step"; cat expected.md; } >"$TMP/expect.md"
check "Markdown report, appended as \$GITHUB_STEP_SUMMARY wants" \
	diff -u "$TMP/expect.md" "$TMP/summary.md"

for f in bad/*.json; do
	name=$(basename "$f" .json)
	(
		cd bad || exit 1
		"$SYSFARM" report "$name.json" 2>&1 >/dev/null
		echo "status $?"
	) >"$TMP/actual"
	check "bad results $name" diff -u "bad/$name.expect" "$TMP/actual"
done
"$SYSFARM" report 2>/dev/null
check "no results file is exit 2" test $? -eq 2
done_testing
