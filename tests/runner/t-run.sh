#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The whole matrix, built and booted: every configuration sends a snapshot
# that matches FORMAT.md, no kernel is built twice, and a second run
# rebuilds nothing, kernel, initramfs or device tree.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
OUT=build/out
at_hand

"$SYSFARM" run $AT_HAND >"$TMP/run1" 2>"$TMP/run1.err"
status=$?
check "sysfarm run over the matrix exits 0" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/run1" "$TMP/run1.err"

"$SYSFARM" list --json $AT_HAND |
	jq -r '.[] | "\(.config) \(.source)"' >"$TMP/configs"
cut -d' ' -f1 "$TMP/configs" >"$TMP/configs.names"
while read -r c source; do
	check "$c: SNAPSHOT" \
		jq -e '.verdict == "SNAPSHOT"' "$OUT/$c/result.json"
	check "$c: snapshot matches FORMAT.md" \
		jq -e -f tests/snapshot-schema.jq "$OUT/$c/snapshot.json"
	case $c in
	x86_64-*) machine=x86_64 ;;
	arm-*) machine=armv7l ;;
	esac
	check "$c: the guest is $machine running $source" jq -e \
		".header.machine == \"$machine\" and (.header.release | startswith(\"$source.\"))" \
		"$OUT/$c/snapshot.json"
	case $c in
	*sysfs-on*)
		check "$c: sysfs mounted, writeback in /sys/bus/workqueue" jq -e \
			'.sysfs.mounted and (.roots["bus/workqueue"].entries.devices.entries.writeback.follow.entries.max_active.mode == "0644")' \
			"$OUT/$c/snapshot.json" ;;
	*sysfs-off*)
		check "$c: sysfs absent (ENODEV), no roots" jq -e \
			'(.sysfs.mounted | not) and .sysfs.error == "ENODEV" and .roots == {}' \
			"$OUT/$c/snapshot.json" ;;
	esac
done <"$TMP/configs"

# A key is built at most once per run, whatever shares it.
grep -o 'kernel [0-9a-f]* built' "$TMP/run1.err" | sort | uniq -d >"$TMP/twice"
check "no kernel built twice in one run" test ! -s "$TMP/twice"

# Two distinct keys build at a time (--builds 2): the second build starts
# before the first one ends.
built=$(grep -c 'kernel [0-9a-f]* built in' "$TMP/run1.err")
if [ "$built" -ge 2 ]; then
	check "$built kernels built, two at a time" awk '
		/: kernel [0-9a-f]*$/ { started++ }
		/ built in / { exit !(started >= 2) }' "$TMP/run1.err"
else
	skip "kernels built two at a time" \
		"the first run built $built kernels (they were up to date)"
fi
# The sources are prepared in the builds' slots: the first kernel starts
# as soon as its own source is ready, before the other source is.
check "a kernel starts building before the second source is ready" awk '
	/: kernel [0-9a-f]*$/ { started++ }
	/ sysfarm: source / && ++sources == 2 { exit !(started >= 1) }
	END { if (sources < 2) exit 1 }' "$TMP/run1.err"
# A configuration boots as soon as its kernel is built, while the others
# still build.
if [ "$built" -gt 2 ]; then
	check "the first boot begins before the last kernel is built" awk '
		/: booting / && !boot { boot = NR }
		/ built in / { last = NR }
		END { exit !(boot && boot < last) }' "$TMP/run1.err"
else
	skip "boots overlap builds" "the first run built $built kernels"
fi

# made: each initramfs and device tree the runs made, its inode and mtime
made() {
	find build/out \( -name initramfs.cpio -o -name virt.dts \
		-o -name board.dtb \) -exec stat -c '%n %i %y' {} + | sort
}
made >"$TMP/made1"

"$SYSFARM" run $AT_HAND >"$TMP/run2" 2>"$TMP/run2.err"
status=$?
check "second sysfarm run exits 0" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/run2" "$TMP/run2.err"
check "second run builds nothing" \
	sh -c "! grep 'built in\|kernel build failed' '$TMP/run2.err'"
n=$(wc -l <"$TMP/configs.names")
check "second run finds the kernel of each of the $n up to date" \
	test "$(grep -c 'is up to date' "$TMP/run2.err")" -eq "$n"
made >"$TMP/made2"
trees=$(grep -c '^arm-.*-tca6507' "$TMP/configs.names")
check "... and remakes none of the $n initramfs and $trees device trees" sh -c "
	test \$(grep -c initramfs.cpio '$TMP/made1') -ge $n &&
	test \$(grep -c board.dtb '$TMP/made1') -ge $trees &&
	diff -u '$TMP/made1' '$TMP/made2'"

# Boot data edited, the kernel kept: a device-tree fragment added, then
# edited, remakes the board's tree, never QEMU's machine tree; a probe file
# edited remakes the initramfs (one moved does not: it is made from
# bytes, not paths); back on the farm's matrix, both are as they were.
A=arm-sysfs-on-tca6507
D=build/tests/run-dtb
mkdir -p "$D"
echo '/ { sysfarm-test-a { }; };' >"$D/extra.dtsi"
cp snapshotter/probes/workqueue.probes "$D/"
sed -e 's#\(\[\|, \|: \)\(patches\|snapshotter\|build\)/#\1../../../\2/#g' \
	-e 's#\(dts: \[.*tca6507-gta04.dtsi\)\]#\1, extra.dtsi]#' \
	-e 's#[./]*/snapshotter/probes/workqueue.probes#workqueue.probes#' \
	matrix.yaml >"$D/matrix.yaml"
# row FILE NAME: the line of $A's NAME in FILE (made's output), not empty
row() {
	grep "^build/out/$A/$2 " "$1" >"$1.$2" && test -s "$1.$2"
}
# node NAME: does $A's board tree hold the node sysfarm-test-NAME? no_node
# NAME: it does not (and the tree decompiles).
node() {
	dtc -q -I dtb -O dts -o "$TMP/board.dts" "build/out/$A/board.dtb" &&
		grep -q "sysfarm-test-$1 {" "$TMP/board.dts"
}
no_node() {
	dtc -q -I dtb -O dts -o "$TMP/board.dts" "build/out/$A/board.dtb" &&
		! grep -q "sysfarm-test-$1 {" "$TMP/board.dts"
}
# remade NAME: $A's NAME differs between made3 and made4
remade() {
	row "$TMP/made3" "$1" && row "$TMP/made4" "$1" &&
	! cmp -s "$TMP/made3.$1" "$TMP/made4.$1"
}
kept() {
	row "$TMP/made3" "$1" && row "$TMP/made4" "$1" &&
	cmp "$TMP/made3.$1" "$TMP/made4.$1"
}
# boot_dtb_test: $A booted on the test's matrix, then made4 taken
boot_dtb_test() {
	"$SYSFARM" run --matrix "$D/matrix.yaml" --build-dir build "$A" \
		>"$TMP/dtb" 2>&1 &&
	grep -q "kernel .* is up to date" "$TMP/dtb" &&
	made >"$TMP/made4"
}
cp "$TMP/made2" "$TMP/made3"
cp "build/out/$A/initramfs.cpio" "$TMP/"
check "a fragment added: $A boots its kernel as built" boot_dtb_test
check "... its board tree made again" remade board.dtb
check "... holding the fragment's node" node a
check "... QEMU's machine tree kept" kept virt.dts
check "... the initramfs kept (its probe file moved, the same bytes)" \
	kept initramfs.cpio
cp "$TMP/made4" "$TMP/made3"
echo '/ { sysfarm-test-b { }; };' >"$D/extra.dtsi"
echo '# an edited probe file' >>"$D/workqueue.probes"
check "the fragment and the probe file edited: $A boots" boot_dtb_test
check "... its board tree made again" remade board.dtb
check "... holding the edited node" node b
check "... and not the old one" no_node a
check "... QEMU's machine tree kept" kept virt.dts
check "... the initramfs made again" remade initramfs.cpio
check "... holding the edited probe file" sh -c "cpio -i --quiet \
	--to-stdout 'etc/sysfarm/probes/*workqueue.probes' \
	<build/out/$A/initramfs.cpio | grep -q '^# an edited probe file'"
cp "$TMP/made4" "$TMP/made3"
"$SYSFARM" run "$A" >"$TMP/dtb" 2>&1
check "back on matrix.yaml: $A boots (status $?)" test $? -eq 0
made >"$TMP/made4"
check "... its board tree made again" remade board.dtb
check "... without the test's node" no_node b
check "... QEMU's machine tree kept" kept virt.dts
check "... its initramfs byte for byte the one the first run made" \
	cmp "$TMP/initramfs.cpio" "build/out/$A/initramfs.cpio"
rm -rf "$D"

# --boots 2: the second configuration boots before the first one's verdict;
# the results stay in matrix order.
"$SYSFARM" run --boots 2 $AT_HAND >"$TMP/run3" 2>"$TMP/run3.err"
check "--boots 2: exits 0" test $? -eq 0
check "... two boots at once: the second begins before the first ends" awk '
	/: booting / { booting++ }
	/: SNAPSHOT after / { exit !(booting >= 2) }' "$TMP/run3.err"
awk 'NR > 1 && NF { print $1 }' "$TMP/run3" >"$TMP/run3.names"
check "... the results in matrix order" diff "$TMP/configs.names" "$TMP/run3.names"
"$SYSFARM" run --boots 1 $AT_HAND >"$TMP/run4" 2>"$TMP/run4.err"
check "--boots 1: one boot at a time" awk '
	/: booting / { if (booting) exit 1; booting = 1 }
	/: SNAPSHOT after / { booting = 0 }' "$TMP/run4.err"

# --prebuilt boots what the builds left, found by the configuration's
# kernel id in each kernel's sysfarm-kernel.json: no source, no compiler.
P=x86_64-sysfs-on
key=$("$SYSFARM" list --json "$P" | jq -r '.[0].key')
check "$P: its kernel's manifest names its key, and the source's sha256" \
	jq -e --arg k "$key" --arg h "$(sha256sum /usr/src/linux-source-6.1.tar.xz | cut -d' ' -f1)" \
	'.key == $k and (.inputs | length == 5) and .inputs.source_sha256 == $h' \
	"build/kernels/$key/sysfarm-kernel.json"
"$SYSFARM" run --prebuilt "$P" >"$TMP/pre" 2>"$TMP/pre.err"
check "run --prebuilt $P: SNAPSHOT (status $?)" \
	jq -e '.verdict == "SNAPSHOT" and (.built | not)' "build/out/$P/result.json"
check "... from the kernel the build left, nothing prepared" sh -c \
	"grep -q ': kernel .*/build/kernels/$key (prebuilt)$' '$TMP/pre.err' &&
	 ! grep -q 'preparing the kernel source' '$TMP/pre.err'"
check "... the header's inputs those of a build" jq -e \
	'.header.inputs | has("source", "source_sha256", "series", "compiler", "config", "qemu")' \
	"build/out/$P/snapshot.json"
# A kernel built from another series (a build that failed after a patch
# was edited leaves the last one) is refused, and so is one behind a link.
D=$TMP/prebuilt
mkdir -p "$D/kernels"
cp -a "build/kernels/$key" "$D/kernels/"
jq '.inputs.series = "0000000000000000"' "build/kernels/$key/sysfarm-kernel.json" \
	>"$D/kernels/$key/sysfarm-kernel.json"
"$SYSFARM" run --prebuilt --build-dir "$D" "$P" >"$TMP/pre" 2>&1
check "a kernel of another series: BUILD-FAIL, build it again (status $?)" \
	grep -q "BUILD-FAIL: the kernel in .* was built from series 0000000000000000, .*patches/series is .* now: build it again" "$TMP/pre"
rm -rf "$D/kernels/$key"
ln -s "$TOP/build/kernels/$key" "$D/kernels/link"
"$SYSFARM" run --prebuilt --build-dir "$D" "$P" >"$TMP/pre" 2>&1
check "a kernel directory that is a link: not booted (status $?)" \
	grep -q "BUILD-FAIL: no kernel of $P in" "$TMP/pre"
rm -rf "$D"
done_testing
