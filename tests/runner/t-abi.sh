#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sysfarm abi on hand-written snapshots: each directory under
# tests/abi/cases holds snapshot.json, maybe its own table.yaml (else
# tests/abi/base.yaml) and kernel tree (tree/, else tests/abi/tree), and
# what `sysfarm abi` prints (`expected`, ending in its exit status).
# tests/abi/bad/*.yaml are refused tables beside their .expect. Then a
# golden with one file more. (The goldens against the shipped table need
# the prepared tree: t-abi-boot.sh.)
. "$(dirname "$0")/../lib.sh"
ABI=$TOP/tests/abi

for dir in "$ABI"/cases/*/; do
	name=$(basename "$dir")
	table=../../base.yaml tree=../../tree
	[ -f "$dir/table.yaml" ] && table=table.yaml
	[ -d "$dir/tree" ] && tree=tree
	(
		cd "$dir" || exit 1
		"$SYSFARM" abi --table "$table" --kernel-tree "$tree" \
			--snapshot snapshot.json --kconfig ../../kconfig
		echo "status $?"
	) >"$TMP/actual" 2>&1
	check "case $name" diff -u "$dir/expected" "$TMP/actual"
done

for f in "$ABI"/bad/*.yaml; do
	name=$(basename "$f" .yaml)
	(
		cd "$ABI/bad" || exit 1
		"$SYSFARM" abi --table "$name.yaml" --kernel-tree ../tree \
			--snapshot ../cases/clean/snapshot.json 2>&1 >/dev/null
		echo "status $?"
	) >"$TMP/actual"
	check "bad table $name" diff -u "$ABI/bad/$name.expect" "$TMP/actual"
done

# The table check reads each snapshot's followed links and conditions
# through the same code as check: a golden that gains a file must fail.
cd "$TOP" || exit 1
jq '.roots["class/leds"].entries["gta04:red:aux"].follow.entries.flash =
    {"type": "file", "mode": "0644", "value": "0\n"}' \
	expected/x86_64-sysfs-on-tca6507.json >"$TMP/extra.json"
"$SYSFARM" abi --snapshot "$TMP/extra.json" --kconfig patches/kconfig/sysfarm.config \
	>"$TMP/out" 2>&1
check "a golden with a file more: exit 1 (status $?)" test $? -eq 1
check "... the file is undocumented" grep -q \
	'^  undocumented class/leds/gta04:red:aux/flash: 0644, no row' "$TMP/out"

done_testing
