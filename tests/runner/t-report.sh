#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sysfarm report: tests/report/results.json as TAP, JUnit XML, Markdown
# and HTML against the expected.* beside it, the HTML opened in chromium; refused results files under bad/, each
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

# HTML: the page pinned, then opened in a real browser (Debian's
# chromium, headless): the grid has a cell per configuration, rows and
# columns the axes, and a DIFF cell leads to its classified changes.
"$SYSFARM" report --html "$TMP/report.html" results.json >"$TMP/out"
check "--html FILE writes nothing on stdout" test ! -s "$TMP/out"
check "HTML report" diff -u expected.html "$TMP/report.html"
check "HTML report: no script, nothing fetched" sh -c \
	"! grep -Eq '<script|<link|src=|https?:' '$TMP/report.html'"
if command -v chromium >/dev/null; then
	. "$TOP/tests/lib-html.sh"
	P=$TMP/report.html
	check "chromium: a grid cell per configuration (8)" \
		test "$(html_xpath "$P" 'count(//table[@id="grid"]//a[@data-config])')" -eq 8
	check "... rows x86_64/arm x sysfs on/off, columns tca6507 x source" \
		test "$(html_xpath "$P" 'count(//table[@id="grid"]/tbody/tr)')" -eq 5
	check "... the corner names them" test \
		"$(html_xpath "$P" 'string(//th[@class="corner"])')" = \
		'arch, sysfs \ tca6507, source'
	check "... cells coloured by verdict: DIFF, NEW, ABI-MISMATCH fail" \
		test "$(html_xpath "$P" 'count(//td[contains(@class,"fail")])')" -eq 3
	href=$(html_xpath "$P" 'string(//a[@data-verdict="DIFF"]/@href)')
	check "... the DIFF cell leads to its section ($href)" \
		test "$href" = "#c1"
	check "... which holds its classified changes, golden beside snapshot" \
		test "$(html_xpath "$P" 'count(//section[@id="c1"]//table[@class="diff"]//tr[td][@class="changed"]/td[@class="old"])')" -eq 3
	check "... a rename's and a subtree's changes beneath each, folded" \
		test "$(html_xpath "$P" 'count(//section[@id="c1"]//tr[@class="members"]//details[not(@open)]//tr[@class="removed"])')" -eq 14
	check "... and a fault's section its console lines" grep -q \
		'no snapshot within 120 s' "$TMP/dom.html"
	# Two configurations with the same axis values (a results file
	# gathered twice): both in the cell, which takes the worse colour.
	jq '.configs += [.configs[0] | .config = "twin" | .verdict = "DIFF"]' \
		results.json >"$TMP/twin.json"
	"$SYSFARM" report --html "$TMP/twin.html" "$TMP/twin.json"
	check "a cell two configurations share shows both, coloured as the worse" \
		test "$(html_xpath "$TMP/twin.html" 'count(//td[contains(@class,"fail")][a[@data-config="x86_64-sysfs-on"]][a[@data-config="twin"]])')" -eq 1
	# More values than a grid can show: a list, every configuration in it.
	jq -n '{configs: [range(100) | {config: "c\(.)", verdict: "PASS",
		axes: [{name: "arch", value: "a\(.)"}]}]}' >"$TMP/many.json"
	"$SYSFARM" report --html "$TMP/many.html" "$TMP/many.json"
	check "100 values of one axis: a list of all 100" \
		test "$(html_xpath "$TMP/many.html" 'count(//table[@id="grid"]//a[@data-config])')" -eq 100
	# An older results file, without axes: a configuration a row.
	jq '{configs: [.configs[] | del(.axes)]}' results.json >"$TMP/old.json"
	"$SYSFARM" report --html "$TMP/old.html" "$TMP/old.json"
	check "no axes: a list, a row per configuration (8)" \
		test "$(html_xpath "$TMP/old.html" 'count(//table[@id="grid"]//tr[td/a[@data-config]])')" -eq 8
	mkdir -p "$TOP/build/tests"
	html_shot "$P" "$TOP/build/tests/report-fixture.png"
	check "a screenshot for a person: build/tests/report-fixture.png" \
		test -s "$TOP/build/tests/report-fixture.png"
else
	skip "HTML report in chromium" "no chromium (make check installs it: ci/deps-test)"
fi

# GitHub shows at most 1 MiB of a step summary: details that would pass it
# are cut, and the summary says so; the table keeps every configuration.
jq -n '{configs: [
	{config: "small", verdict: "DIFF", diff: [{kind: "removed",
		path: "bus/workqueue/devices/x/numa", old: "file 0644 \"1\\n\""}]},
	{config: "big", verdict: "DIFF", diff: [range(12000) | {kind: "added",
		path: "class/leds/led\(.)/brightness",
		new: "file 0644 \"\("x" * 60)\""}]},
	{config: "after", verdict: "DIFF", diff: [{kind: "removed",
		path: "bus/workqueue/devices/x/numa", old: "file 0644 \"1\\n\""}]}
	]}' >"$TMP/big.json"
"$SYSFARM" report --markdown "$TMP/big.md" "$TMP/big.json"
check "a summary past 1 MiB: cut below it ($(wc -c <"$TMP/big.md") bytes)" \
	test "$(wc -c <"$TMP/big.md")" -lt 1048576
check "... saying so, and how many configurations' details are cut" grep -q \
	'^\*\*The details of 2 configurations are cut here:\*\* GitHub shows at most 1 MiB' \
	"$TMP/big.md"
check "... the table still has every configuration, the first's details" \
	sh -c "grep -c '^| .* | ❌ DIFF |' '$TMP/big.md' | grep -qx 3 &&
	       grep -q '^<details><summary>small: DIFF, 1 removed' '$TMP/big.md'"

jq -n '{configs: [range(30000) | {config: "x86_64-configuration-number-\(.)",
	verdict: "PASS"}]}' >"$TMP/rows.json"
"$SYSFARM" report --markdown "$TMP/rows.md" "$TMP/rows.json"
check "30,000 rows: the table itself stops below 1 MiB, and says so" sh -c \
	"test \$(wc -c <'$TMP/rows.md') -lt 1048576 &&
	 grep -q '^\*\*The rows of [0-9]* configurations are cut here' '$TMP/rows.md'"

# A table row keeps 300 bytes of a name, a UTF-8 sequence whole (the
# 300th byte is inside an e-acute: 299 bytes), and of a message's first line.
jq -n '{configs: [{config: ("a" * 299 + "\u00e9" + "b" * 50),
	verdict: "DIFF", message: ("m" * 400 + "\nsecond line")}]}' \
	>"$TMP/cap.json"
"$SYSFARM" report --markdown "$TMP/cap.md" "$TMP/cap.json"
jq -nr '"| " + "a" * 299 + " | \u274c DIFF |  | " + "m" * 300 + " |"' \
	>"$TMP/cap.expect"
grep '^| a' "$TMP/cap.md" >"$TMP/cap.row"
check "Markdown cells: 300 bytes of a name (a UTF-8 sequence whole) and of a message" \
	diff -u "$TMP/cap.expect" "$TMP/cap.row"

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
