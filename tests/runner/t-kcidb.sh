#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# report --kcidb and check --kcidb: a KCIDB v5.3 document, held to
# tests/report/kcidb-v05_03.schema.json (kcidb-io's v05_03.py, transcribed)
# by Debian's python3-jsonschema as kcidb-io's validate_exactly() holds it.
# A results file with every verdict (PASS, DIFF, BUILD-FAIL, PANIC ...):
# the document pinned, each verdict's KCIDB status, a checkout per source,
# a build per key; a check through a lab (nothing built or booted) whose
# patchset hash is KCIDB's; hostile names and values still give a valid
# document; a bad --origin is bad usage.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/hostile/lab.sh"
R=$TOP/tests/report
SCHEMA=$R/kcidb-v05_03.schema.json
cd "$TMP" || exit 1

# valid DESC DOCUMENT: DOCUMENT passes the schema, by Debian's
# python3-jsonschema, a test-only tool (ci/deps-test); skipped without it.
schema=
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null && schema=yes
valid() {
	if [ -n "$schema" ]; then
		check "$1" "$R/kcidb-validate.py" "$SCHEMA" "$2"
	else
		skip "$1" "no python3-jsonschema (make check installs it: ci/deps-test)"
	fi
}

# The fixture's results, with what check now records (a kernel's inputs,
# its arch, fragments, roots, the series' patchset hash) and a PANIC; the
# 6.12 entry from another source.
jq '.configs |= (map(if .key then . + {arch: (.axes[0].value |
	if . == "arm" then "arm" else "x86_64" end),
	kconfig: ["kconfig/base.config", "kconfig/sysfs-\(.axes[1].value).config"],
	roots: ["bus/workqueue", "class/leds"],
	inputs: {source: "linux-source-6.1 6.1.158-1",
		source_sha256: ("ab" * 32), series: "8493f74c99abff86",
		compiler: "gcc (Debian 12.2.0-14) 12.2.0",
		config: "8d363dc124ce14c4"},
	patchset_hash: ("0f" * 32), built: true, build_seconds: 60.5}
	else . end) + [{config: "arm-sysfs-on-6.12", verdict: "PANIC",
	key: "c0ffee000612", arch: "arm", seconds: 4.75,
	message: "Kernel panic - not syncing: VFS: Unable to mount root fs\n---[ end Kernel panic ]---",
	inputs: {source: "linux-source-6.12 6.12.118-1~deb12u1",
		series: "1b8b4cb27789f96d", compiler: "gcc", config: "980e0461dbc8a1fe"},
	patchset_hash: ""}])' "$R/results.json" >results.json
"$SYSFARM" report --kcidb kcidb.json --origin sysfarm_ci results.json >out
check "report --kcidb FILE writes nothing on stdout" test ! -s out
check "the document, pinned" diff -u "$R/expected.kcidb.json" kcidb.json
valid "... passes the v5.3 schema" kcidb.json

# Each verdict in KCIDB's words: the build's status, the test's.
jq -r '.tests[] as $t | .builds[] | select(.id == $t.build_id) |
	"\($t.misc.verdict) \(.status) \($t.status)"' kcidb.json >statuses
cat >expect <<'EOT'
PASS PASS PASS
DIFF PASS FAIL
NEW PASS DONE
BUILD-FAIL FAIL MISS
TIMEOUT PASS MISS
FLAKY PASS ERROR
SNAPSHOT PASS DONE
ABI-MISMATCH PASS FAIL
PANIC PASS FAIL
EOT
check "verdicts as KCIDB statuses (ERROR: the test's fault, MISS: the harness's)" \
	diff -u expect statuses
check "a checkout per source (6.1, none named, 6.12), the patchset hash each" jq -e \
	'[.checkouts[] | [.tree_name, .patchset_hash]] ==
	 [["linux-source-6.1", "0f" * 32], [null, null],
	  ["linux-source-6.12", ""]]' kcidb.json
check "a build per key: 8 (two configurations share a2316d8d80a7)" jq -e \
	'(.builds | length) == 8 and
	 ([.tests[] | select(.misc.config | startswith("x86_64-sysfs-on")) |
	   .build_id] | unique | length) == 2' kcidb.json
check "a test per configuration, at sysfs_abi.CONFIG, its changes in misc" jq -e \
	'(.tests | length) == 9 and .tests[1].path == "sysfs_abi.x86_64-sysfs-on-tca6507" and
	 (.tests[1].misc.changes | length) == 5' kcidb.json

# A check through a lab, with a one-patch series: results.json records
# the kernel's inputs and the series' patchset hash, which is KCIDB's
# (`sha256sum *.patch | cut -c-64 | sha256sum`).
lab_matrix
lab_tree
mkdir p
printf '%s\n' 'From: t <t@t>' 'Subject: [PATCH] README: a line' '' '---' \
	'--- /dev/null' '+++ b/README' '@@ -0,0 +1 @@' '+one' >p/0001-readme.patch
echo 0001-readme.patch >p/series
lab_frame "$TOP" console
A="--matrix $TMP/matrix.yaml --build-dir $TMP/build --kernel-src $TMP/tree --series $TMP/p/series --backend lab"
# shellcheck disable=SC2086
lab_log "$SYSFARM" console '{"case": "job", "definition": "lava", "result": "pass"}' $A x86_64
# shellcheck disable=SC2086
"$SYSFARM" check $A --kcidb check.json --origin sysfarm_ci x86_64 >out 2>&1
status=$?
check "check --kcidb through a lab: NEW, exit 1 (status $status)" test "$status" -eq 1
want=$(sha256sum p/0001-readme.patch | cut -c-64 | sha256sum | cut -c-64)
check "... the patchset hash is KCIDB's ($want)" jq -e --arg h "$want" \
	'.configs[0].patchset_hash == $h and
	 (.configs[0].inputs.source | endswith("/tree 6.1.0"))' \
	build/out/results.json
check "... and the checkout's" jq -e --arg h "$want" \
	'.checkouts[0].patchset_hash == $h and .checkouts[0].tree_name == null and
	 .tests[0].status == "DONE"' check.json
valid "... the document passes the v5.3 schema" check.json

# The same with a kernel that does not build: BUILD-FAIL, the build's
# FAIL with its message, the test MISS, the checkout still its source's.
cp -r tree badtree
sed -i 's|echo kernel >.*|echo "error: no kernel" >\&2; false|' badtree/Makefile
"$SYSFARM" check --matrix matrix.yaml --build-dir "$TMP/build2" \
	--kernel-src "$TMP/badtree" --series "$TMP/p/series" --backend lab \
	--kcidb fail.json --origin sysfarm_ci x86_64 >out 2>&1
status=$?
check "check --kcidb, a kernel that does not build: exit 125 (status $status)" \
	test "$status" -eq 125
check "... the build FAIL with its message, the test MISS, the patchset hash" \
	jq -e --arg h "$want" '.builds[0].status == "FAIL" and
	 (.builds[0].log_excerpt | test("no kernel")) and
	 .tests[0].status == "MISS" and .checkouts[0].patchset_hash == $h and
	 (.checkouts[0].comment | endswith("/badtree 6.1.0"))' fail.json
valid "... the document passes the v5.3 schema" fail.json

# Hostile names and values: still a valid document. A configuration
# named with dots, slashes, UTF-8, control characters or nothing; a 100 kB
# message, cut to KCIDB's 16384 (a UTF-8 sequence whole); an arch in
# capitals; a key with a newline.
jq -n '{configs: [
	{config: "x86_64/6.12 \u00e9\u0001\n", verdict: "DIFF", key: "k\nk",
	 arch: "X86-64 \u00e9", message: ("\u00e9" * 50000),
	 inputs: {source: "p\u0001 v\n", compiler: "\u001b[2J"}},
	{config: "", verdict: "PASS"},
	{config: "a.b", verdict: "BUILD-FAIL", message: "\u0007\u007f"}]}' \
	>hostile.json
"$SYSFARM" report --kcidb hostile.kcidb --origin o results.json >/dev/null &&
"$SYSFARM" report --kcidb hostile.kcidb --origin o hostile.json
check "hostile names and values: a document" test $? -eq 0
valid "... that passes the v5.3 schema" hostile.kcidb
check "... names spelled [A-Za-z0-9_-] in paths, the arch [a-z0-9_]" jq -e \
	'[.tests[].path] == ["sysfs_abi.x86_64_6_12_____", "sysfs_abi._", "sysfs_abi.a_b"] and
	 .builds[0].architecture == "x86_64___" and
	 (.tests[0].log_excerpt | utf8bytelength) == 16384' hostile.kcidb

# The schema can fail: a status outside the enum, an id without its
# origin, a path with an empty component, a newer minor, a key of ours.
n=0
for bad in '.tests[0].status = "DIFF"' '.builds[0].id = "b0"' \
	'.tests[0].path = "sysfs_abi..x"' '.version.minor = 4' \
	'.tests[0].extra = 1'; do
	n=$((n + 1))
	jq "$bad" kcidb.json >bad$n.json
done
if [ -n "$schema" ]; then
	"$R/kcidb-validate.py" "$SCHEMA" bad*.json >refused
	check "the schema refuses each of 5 broken documents" sh -c \
		"test \$(cut -d: -f1 refused | sort -u | wc -l) -eq 5"
fi

"$SYSFARM" report --kcidb - --origin o results.json >stdout.json
check "--kcidb - writes the document on stdout" jq -e \
	'.version == {major: 5, minor: 3} and (.tests | length) == 9' stdout.json
"$SYSFARM" report --kcidb "$TMP/none/k.json" --origin o results.json 2>err
check "a document that cannot be written: exit 125, said" sh -c \
	"test $? -eq 125 && grep -q \"cannot write '$TMP/none/k.json'\" err"

# --origin: required with --kcidb, KCIDB's [a-z0-9_]+, nothing else.
while read -r args; do
	# shellcheck disable=SC2086
	"$SYSFARM" report $args results.json >/dev/null 2>err
	status=$?
	check "report $args: exit 2, said (status $status)" sh -c \
		"test $status -eq 2 && grep -q -- '--origin' err"
done <<'EOT'
--kcidb k.json
--kcidb k.json --origin Sysfarm
--kcidb k.json --origin sys-farm
--origin sysfarm
EOT
"$SYSFARM" report --kcidb k.json --origin "$(printf 'a\nb')" results.json 2>err
status=$?
printf '%s\n' "sysfarm report: --origin 'a\\nb' may hold only a-z, 0-9 and _ (KCIDB's origin)" >expect
check "an origin with a newline: exit 2 (status $status), quoted" sh -c \
	"test $status -eq 2 && diff -u expect err"
check "... and nothing written" test ! -e k.json
"$SYSFARM" check --matrix matrix.yaml --kcidb k.json x86_64 >/dev/null 2>err
check "check --kcidb without --origin: exit 2 before anything runs" sh -c \
	"test $? -eq 2 && grep -qx 'sysfarm check: --kcidb needs --origin NAME, the CI system submitting it' err"
done_testing
