#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# matrix.yaml parsing: each case directory under tests/runner/matrix holds a
# matrix.yaml and `expect`: what `sysfarm list` prints (errors on stderr,
# valid ones as JSON lines without the build key), then "status N".
. "$(dirname "$0")/../lib.sh"

for dir in "$TOP"/tests/runner/matrix/*/; do
	name=$(basename "$dir")
	(
		cd "$dir" || exit 1
		"$SYSFARM" list --json --matrix matrix.yaml >"$TMP/out" 2>"$TMP/err"
		status=$?
		if [ "$status" -eq 0 ]; then
			jq -c '.[] | del(.key)' <"$TMP/out"
		else
			cat "$TMP/err"
		fi
		echo "status $status"
	) >"$TMP/actual"
	check "matrix case $name" diff -u "$dir/expect" "$TMP/actual"
done

# The real matrix: 16 configurations (6.1's eight, 6.12's and 7.3's four
# each with sysfs), 8 kernels, each shared by two; the source is part of
# the build key.
"$SYSFARM" list --json --matrix "$TOP/matrix.yaml" >"$TMP/real"
check "matrix.yaml expands to 16 configurations" \
	test "$(jq length "$TMP/real")" -eq 16
check "16 configurations share 8 build keys" \
	test "$(jq -r '.[].key' "$TMP/real" | sort -u | wc -l)" -eq 8
check "no kernel is shared across sources" test "$(jq -r \
	'[group_by(.key)[] | map(.source) | unique | length] | max' \
	"$TMP/real")" -eq 1
jq -r '.[].config' "$TMP/real" >"$TMP/actual"
cat >"$TMP/expect" <<EOT
x86_64-sysfs-on-tca6507
x86_64-sysfs-on-tca6507-6.12
x86_64-sysfs-on-tca6507-7.3
x86_64-sysfs-on
x86_64-sysfs-on-6.12
x86_64-sysfs-on-7.3
x86_64-sysfs-off-tca6507
x86_64-sysfs-off
arm-sysfs-on-tca6507
arm-sysfs-on-tca6507-6.12
arm-sysfs-on-tca6507-7.3
arm-sysfs-on
arm-sysfs-on-6.12
arm-sysfs-on-7.3
arm-sysfs-off-tca6507
arm-sysfs-off
EOT
check "configuration names are stable" diff -u "$TMP/expect" "$TMP/actual"

# Counts on the command line: whole numbers in range, or exit 2 naming it.
for bad in "--builds 0" "--jobs x" "--timeout 86401" "--builds 2x"; do
	set -- $bad
	"$SYSFARM" run --matrix "$TOP/matrix.yaml" "$1" "$2" 2>"$TMP/err"
	check "$bad: exit 2 (status $?)" test $? -eq 2
	check "... naming $1 and '$2'" grep -q -- "^sysfarm: $1 takes .* not '$2'\$" \
		"$TMP/err"
done
# Selecting configurations: a name, a glob, AXIS=VALUE (conditions joined
# by commas all hold), each added once in matrix order.
# sel ARGS...: the configurations `list --json ARGS` selects, on one line
sel() {
	"$SYSFARM" list --json --matrix "$TOP/matrix.yaml" "$@" |
		jq -r '[.[].config] | join(" ")'
}
check "a glob: 'x86_64-sysfs-off*'" test "$(sel 'x86_64-sysfs-off*')" = \
	"x86_64-sysfs-off-tca6507 x86_64-sysfs-off"
check "an axis value: arch=arm,sysfs=on,source=6.1" \
	test "$(sel arch=arm,sysfs=on,source=6.1)" = \
	"arm-sysfs-on-tca6507 arm-sysfs-on"
check "an axis value: source=6.12" test "$(sel source=6.12)" = \
	"x86_64-sysfs-on-tca6507-6.12 x86_64-sysfs-on-6.12 arm-sysfs-on-tca6507-6.12 arm-sysfs-on-6.12"
check "a name and a glob that also matches it: once" \
	test "$(sel arm-sysfs-off 'arm-sysfs-off*')" = \
	"arm-sysfs-off arm-sysfs-off-tca6507"
"$SYSFARM" list --matrix "$TOP/matrix.yaml" arc=arm 2>"$TMP/err"
check "an unknown axis: exit 2 (status $?)" test $? -eq 2
check "... naming it and the axes there are" grep -q \
	"no axis 'arc' in .*matrix.yaml (axes: arch, sysfs, tca6507, source)" \
	"$TMP/err"
"$SYSFARM" list --matrix "$TOP/matrix.yaml" 'arch=arm,' 2>"$TMP/err"
check "an empty condition: exit 2 (status $?)" test $? -eq 2
check "... said" grep -q \
	"an empty name, axis or value in 'arch=arm,'" "$TMP/err"
"$SYSFARM" list --matrix "$TOP/matrix.yaml" 'riscv-*' 2>"$TMP/err"
check "a selector no configuration matches: exit 2 (status $?)" \
	test $? -eq 2
check "... said, with the forms a selector takes" grep -q \
	"no configuration matches 'riscv-\\*' (see 'sysfarm list'; NAME, a glob" \
	"$TMP/err"
done_testing
