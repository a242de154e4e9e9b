#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Faults end in their own verdict with the evidence: a hung guest (TIMEOUT),
# a crashed snapshotter (NO-SNAPSHOT),
# a truncated or bit-flipped channel (CORRUPT), a kernel that panics
# (PANIC), QEMU that cannot start (QEMU-FAIL), and Ctrl-C leaves no QEMU.
# Runs after t-run.sh, so the kernels are built.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1

# run EXPECTED-VERDICT CONFIG ARGS...: sysfarm run exits 125 with that verdict.
run() {
	want=$1 config=$2
	shift 2
	"$SYSFARM" run "$@" "$config" >"$TMP/out" 2>"$TMP/err"
	status=$?
	verdict=$(jq -r .verdict "build/out/$config/result.json")
	if [ "$status" -ne 125 ] || [ "$verdict" != "$want" ]; then
		echo "status $status, verdict $verdict, wanted 125 and $want"
		cat "$TMP/out"
		return 1
	fi
}

no_qemu_left() {
	! pgrep -f "qemu-system.*build/out/$1/" >/dev/null
}

"$SYSFARM" build x86_64-sysfs-on >/dev/null 2>&1
start=$(date +%s)
check "init that hangs: TIMEOUT" \
	run TIMEOUT x86_64-sysfs-on --append sysfarm.fault=hang --timeout 10
elapsed=$(($(date +%s) - start))
check "TIMEOUT within the limit + 10 s (took ${elapsed}s)" test "$elapsed" -le 20
check "TIMEOUT leaves no QEMU behind" no_qemu_left x86_64-sysfs-on

check "truncated channel (x86_64, serial): CORRUPT" \
	run CORRUPT x86_64-sysfs-off --append sysfarm.fault=truncate
check "CORRUPT says the frame is truncated" \
	grep -q 'truncated' "$TMP/out"
check "bit-flipped channel (arm, virtio console): CORRUPT" \
	run CORRUPT arm-sysfs-on --append sysfarm.fault=bitflip
check "CORRUPT says the checksum failed" grep -qi 'crc\|checksum' "$TMP/out"

check "snapshotter crash: NO-SNAPSHOT, not a diff" \
	run NO-SNAPSHOT x86_64-sysfs-off --append sysfarm.fault=crash
check "... with the console line saying how it died" \
	grep -q 'snapshot exited with status 139' "$TMP/out"
check "no init to run: PANIC" \
	run PANIC arm-sysfs-off --append rdinit=/nonexistent --append init=/nonexistent
check "PANIC shows the console lines of the panic" \
	grep -q 'Kernel panic - not syncing' "$TMP/out"
check "init that exits: PANIC" \
	run PANIC x86_64-sysfs-on --append sysfarm.fault=exit

# The same matrix from build/tests/, its relative paths adjusted, naming a
# QEMU binary that does not exist.
mkdir -p build/tests
sed -e 's|qemu-system-x86_64|qemu-system-nonexistent|' \
	-e 's#\(\[\|, \|: \)\(patches\|snapshotter\|build\)/#\1../../\2/#g' \
	matrix.yaml >build/tests/no-qemu.yaml
check "QEMU missing: QEMU-FAIL" run QEMU-FAIL x86_64-sysfs-on \
	--matrix build/tests/no-qemu.yaml --build-dir build --series patches/series

# A requested option that olddefconfig drops: CONFIG-FAIL, named.
sed 's|\(sysfs-off.config\)\]|\1, ../../tests/runner/config-fail.config]|' \
	build/tests/no-qemu.yaml >build/tests/config-fail.yaml
"$SYSFARM" build --matrix build/tests/config-fail.yaml --build-dir build \
	--series patches/series x86_64-sysfs-off >"$TMP/out" 2>&1
check "a dropped Kconfig option: exit 125 (status $?)" test $? -eq 125
check "... CONFIG-FAIL naming the option and its fragment" grep -q \
	'CONFIG-FAIL: CONFIG_GPIO_SYSFS=y (../../tests/runner/config-fail.config:3) did not survive olddefconfig' \
	"$TMP/out"

# Ctrl-C in the middle of a boot: sysfarm dies, its QEMU with it.
"$SYSFARM" run --append sysfarm.fault=hang x86_64-sysfs-off \
	>/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
	pgrep -f "qemu-system.*build/out/x86_64-sysfs-off/" >/dev/null && break
	sleep 0.1
done
check "QEMU was running before SIGINT" \
	pgrep -f "qemu-system.*build/out/x86_64-sysfs-off/"
kill -INT "$pid"
wait "$pid"
check "SIGINT ends sysfarm (status $?)" test $? -ne 0
check "SIGINT leaves no QEMU behind" no_qemu_left x86_64-sysfs-off
# Bad patch series: refused by name, before anything is built.
"$SYSFARM" build --series tests/runner/series/bad-patch/series \
	x86_64-sysfs-on >"$TMP/out" 2>&1
check "a patch that does not apply: exit 125" test $? -eq 125
check "... named, with the file it failed on" grep -q \
	"patch '0001-workqueue-rename-a-comment-that-does-not-exist.patch' does not apply to kernel/workqueue.c" \
	"$TMP/out"
"$SYSFARM" build --series tests/runner/series/missing-patch/series \
	>"$TMP/out" 2>&1
check "a series naming a missing patch: exit 2" test $? -eq 2
check "... with file:line:col" grep -q \
	"series/missing-patch/series:3:5: no patch file '0002-missing.patch'" \
	"$TMP/out"
done_testing
