#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Faults end in their own verdict with the evidence, an infrastructure
# failure after a second boot (matrix.yaml's attempts), a panic at once:
# a hung guest (TIMEOUT),
# a crashed snapshotter (NO-SNAPSHOT), a truncated or bit-flipped channel
# (CORRUPT), a kernel that panics (PANIC), also one that panics or hangs
# before its console driver registers (PANIC, TIMEOUT, with the console's
# lines on every arch), QEMU that cannot start (QEMU-FAIL), two boots
# that disagree (FLAKY); the frame on the console instead of the channel
# (the same snapshot, the same CORRUPT); SIGINT and SIGTERM leave no QEMU
# or make behind; a boot worker killed is named so; a full disk fails the
# build with its message.
# Runs after t-run.sh, so the kernels are built.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1

# no_process PATTERN: no process's command line matches (pgrep's output
# shown otherwise). Patterns name $TOP: another checkout may run the same
# kernels and QEMUs at the same time.
no_process() {
	! pgrep -af "$1"
}

no_qemu_left() {
	no_process "qemu-system.*$TOP/build/out/$1/"
}

# wait_for PATTERN: until a process matches, at most 60 s.
wait_for() {
	for _ in $(seq 600); do
		pgrep -f "$1" >/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# retried C VERDICT...: the boots C retried ended so (matrix.yaml's
# attempts: 2 boots an infrastructure failure twice).
retried() {
	c=$1
	shift
	test "$(jq -r '.retried | join(" ")' "build/out/$c/result.json")" = "$*"
}

"$SYSFARM" build x86_64-sysfs-on >/dev/null 2>&1
start=$(date +%s)
check "init that hangs: TIMEOUT" \
	run TIMEOUT x86_64-sysfs-on --append sysfarm.fault=hang --timeout 5
elapsed=$(($(date +%s) - start))
check "... booted twice, each within the limit + 5 s (took ${elapsed}s)" \
	test "$elapsed" -le 20
check "... the first TIMEOUT retried, and said so" sh -c \
	"jq -e '.retried == [\"TIMEOUT\"]' build/out/x86_64-sysfs-on/result.json &&
	 grep -q '^x86_64-sysfs-on: booted again after TIMEOUT$' '$TMP/out'"
check "TIMEOUT leaves no QEMU behind" no_qemu_left x86_64-sysfs-on

check "truncated channel (x86_64, serial): CORRUPT" \
	run CORRUPT x86_64-sysfs-off --append sysfarm.fault=truncate
check "CORRUPT says the frame is truncated" \
	grep -q 'truncated' "$TMP/out"
check "... retried once" retried x86_64-sysfs-off CORRUPT
check "bit-flipped channel (arm, virtio console): CORRUPT" \
	run CORRUPT arm-sysfs-on --append sysfarm.fault=bitflip
check "CORRUPT says the checksum failed" grep -qi 'crc\|checksum' "$TMP/out"

# The frame on the console (--result console, base64 between markers, as
# a lab without a second serial port gets it): the same snapshot byte for
# byte on both arches, the same CORRUPT when it is damaged.
for c in x86_64-sysfs-on-tca6507 arm-sysfs-on-tca6507; do
	"$SYSFARM" run "$c" >/dev/null 2>&1
	cp "build/out/$c/snapshot.json" "$TMP/channel.json"
	"$SYSFARM" run --result console "$c" >"$TMP/out" 2>&1
	check "$c, frame on the console: SNAPSHOT (status $?)" \
		jq -e '.verdict == "SNAPSHOT"' "build/out/$c/result.json"
	check "... byte for byte the channel's snapshot" \
		cmp "$TMP/channel.json" "build/out/$c/snapshot.json"
	check "... the frame was on the console, the channel empty" sh -c \
		"grep -q '^sysfarm-frame-begin' 'build/out/$c/console.log' &&
		 ! test -s 'build/out/$c/channel.out'"
done
check "bit-flipped frame on the console: CORRUPT" \
	run CORRUPT x86_64-sysfs-off --result console \
	--append sysfarm.fault=bitflip
check "... its checksum failed, in console.log" sh -c \
	"grep -qi 'crc\|checksum' '$TMP/out' && grep -q 'console.log' '$TMP/out'"
check "truncated frame on the console: CORRUPT" \
	run CORRUPT x86_64-sysfs-off --result console \
	--append sysfarm.fault=truncate

# A guest is stopped once its whole frame has arrived, not waited for:
# one that stays up after sending it (fault=linger) would be stopped only
# at its limit (600 s here, where the frame would still give PASS); the
# farm stops it long before, on the channel and on the console alike.
for r in channel console; do
	"$SYSFARM" check --result "$r" --timeout 600 \
		--append sysfarm.fault=linger x86_64-sysfs-on >"$TMP/out" 2>&1
	status=$?
	check "guest that stays up after its frame ($r): PASS (status $status)" \
		test "$status" -eq 0
	check "... stopped on its frame, not at its 600 s limit" jq -e \
		'.configs[0].boot_seconds < 300' build/out/results.json
	check "... QEMU stopped by the farm" grep -q 'terminating on signal' \
		build/out/x86_64-sysfs-on/qemu.log
	check "... and none left" no_qemu_left x86_64-sysfs-on
done

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
check "... never retried: a panic that happens once is reported" \
	retried x86_64-sysfs-on

# Two boots that disagree: each gives the workqueues random max_active
# values, the first DIFFs, the second does not confirm it: FLAKY, both
# snapshots kept, the paths that differ named.
"$SYSFARM" check --append sysfarm.fault=flaky x86_64-sysfs-on \
	>"$TMP/out" 2>&1
status=$?
O=build/out/x86_64-sysfs-on
check "boots that disagree: check exits 125 (status $status)" \
	test "$status" -eq 125
check "... verdict FLAKY, not DIFF" jq -e \
	'.configs[0].verdict == "FLAKY" and .configs[0].confirmed == false' \
	build/out/results.json
check "... naming the paths the two boots disagree on" grep -q \
	'^x86_64-sysfs-on: FLAKY: two boots of one kernel disagree on [0-9]* paths\{0,1\}: "bus/workqueue/devices/[a-z_]*/max_active"' \
	"$TMP/out"
check "... both snapshots kept, and they differ" sh -c \
	"test -s $O/snapshot.json && test -s $O/snapshot.confirm.json &&
	 ! '$SYSFARM' diff $O/snapshot.json $O/snapshot.confirm.json >/dev/null"
"$SYSFARM" check x86_64-sysfs-on >"$TMP/out" 2>&1
check "... the next check passes, and keeps no stale second snapshot (status $?)" \
	test $? -eq 0 -a ! -e "$O/snapshot.confirm.json"

# Faults before the console driver registers, from a kernel that has them on
# request (sysfarm_test.early_fault=, tests/runner/series/early-fault): the
# matrix's earlycon shows them on every arch, so PANIC names the panic and
# TIMEOUT's console tail is the kernel's log. Without the parameter the same
# kernel passes.
S=tests/runner/series/early-fault/series
for c in x86_64-sysfs-off arm-sysfs-off; do
	"$SYSFARM" check --series "$S" "$c" >"$TMP/out" 2>&1
	check "$c, early-fault kernel, no fault: PASS (status $?)" test $? -eq 0
	# That early the kernel cannot reboot: it halts until the timeout.
	check "$c: panic while parsing early parameters: PANIC" \
		run PANIC "$c" --series "$S" --timeout 5 \
		--append sysfarm_test.early_fault=param
	check "... with the panic's line" grep -q \
		'Kernel panic - not syncing: sysfarm_test: panic while parsing early parameters' \
		"$TMP/out"
	check "$c: panic in an early initcall: PANIC" \
		run PANIC "$c" --series "$S" --append sysfarm_test.early_fault=panic
	check "... with the panic's line" grep -q \
		'Kernel panic - not syncing: sysfarm_test: panic in an early initcall' \
		"$TMP/out"
	check "$c: hang in an early initcall: TIMEOUT" \
		run TIMEOUT "$c" --series "$S" --timeout 5 \
		--append sysfarm_test.early_fault=hang
	check "... its console tail shows the kernel's last line" grep -q \
		'sysfarm_test: hanging in an early initcall' "$TMP/out"
done

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

# Ctrl-C or SIGTERM in the middle of a boot: sysfarm dies by that signal,
# its QEMU with it, and the next run works.
for sig in INT:130 TERM:143; do
	want=${sig#*:} sig=${sig%:*}
	"$SYSFARM" check --append sysfarm.fault=hang x86_64-sysfs-off \
		>/dev/null 2>&1 &
	pid=$!
	wait_for "qemu-system.*$TOP/build/out/x86_64-sysfs-off/"
	check "SIG$sig: QEMU was running" \
		pgrep -f "qemu-system.*$TOP/build/out/x86_64-sysfs-off/"
	kill -"$sig" "$pid"
	wait "$pid"
	status=$?
	check "SIG$sig ends sysfarm check by that signal (status $status)" \
		test "$status" -eq "$want"
	check "SIG$sig leaves no QEMU behind" no_qemu_left x86_64-sysfs-off
	"$SYSFARM" check x86_64-sysfs-off >"$TMP/out" 2>&1
	check "SIG$sig: the next check passes (status $?)" test $? -eq 0
done

# A boot worker killed (the OOM killer, say): its run says how it ended,
# its QEMU dies with it (PR_SET_PDEATHSIG), the other boot goes on to its
# own verdict (both hang: TIMEOUT).
rm -f build/out/arm-sysfs-off/result.json
"$SYSFARM" check --boots 2 --timeout 5 --append sysfarm.fault=hang \
	x86_64-sysfs-off arm-sysfs-off >"$TMP/out" 2>&1 &
pid=$!
wait_for "qemu-system.*$TOP/build/out/x86_64-sysfs-off/"
qemu=$(pgrep -f "qemu-system.*$TOP/build/out/x86_64-sysfs-off/")
kill -KILL "$(ps -o ppid= -p "$qemu")"
wait "$pid"
check "a boot worker killed: exit 125 (status $?)" test $? -eq 125
check "... QEMU-FAIL saying it was killed by signal 9" grep -q \
	'QEMU-FAIL.*the boot of x86_64-sysfs-off was killed by signal 9' \
	"$TMP/out"
check "... its QEMU died with it" no_qemu_left x86_64-sysfs-off
check "... the other boot went on: TIMEOUT" \
	jq -e '.verdict == "TIMEOUT"' build/out/arm-sysfs-off/result.json

# SIGTERM while make compiles two kernels at once (another series changes
# kernel/workqueue.c): no make or compiler left, and the next run rebuilds
# and passes.
K=$("$SYSFARM" list | awk '$1 == "x86_64-sysfs-off" { print $2 }')
KA=$("$SYSFARM" list | awk '$1 == "arm-sysfs-off" { print $2 }')
"$SYSFARM" check --series tests/golden/abi-change/series x86_64-sysfs-off \
	arm-sysfs-off >/dev/null 2>&1 &
pid=$!
wait_for "$TOP/build/kernels/$K" && wait_for "$TOP/build/kernels/$KA" &&
	sleep 1
check "SIGTERM during two builds: make was running for both" \
	sh -c "pgrep -f '$TOP/build/kernels/$K' &&
	       pgrep -f '$TOP/build/kernels/$KA'"
kill -TERM "$pid"
wait "$pid"
status=$?
check "... sysfarm ends by SIGTERM (status $status)" test "$status" -eq 143
check "... leaving no make, compiler or linker behind" \
	no_process "$TOP/build/kernels/($K|$KA)"
"$SYSFARM" check x86_64-sysfs-off arm-sysfs-off >"$TMP/out" 2>&1
check "... and the next check rebuilds and passes (status $?)" test $? -eq 0

# Two sysfarm runs on one build directory: the second waits for the first.
"$SYSFARM" check x86_64-sysfs-off >"$TMP/first" 2>&1 &
pid=$!
wait_for "qemu-system.*$TOP/build/out/x86_64-sysfs-off/"
"$SYSFARM" check x86_64-sysfs-off >"$TMP/second" 2>&1
second=$?
wait "$pid"
first=$?
check "two checks at once on one build directory both pass ($first, $second)" \
	test "$first" -eq 0 -a "$second" -eq 0
check "... the second one waited for the first" \
	grep -q 'in use by another sysfarm, waiting' "$TMP/second"

# A build directory on a small tmpfs fills up while the farm copies the
# prepared tree there: BUILD-FAIL with the copy's complaint, nothing else.
D=build/tests/disk-full
mkdir -p "$D"
if mount -t tmpfs -o size=6m sysfarm-disk-full "$D" 2>"$TMP/err"; then
	CCACHE_DISABLE=1 "$SYSFARM" build --build-dir "$D" \
		--kernel-src build/sources/linux-source-6.1/src x86_64-sysfs-off \
		>"$TMP/out" 2>&1
	status=$?
	umount "$D"
	check "disk full during the build: exit 125 (status $status)" \
		test "$status" -eq 125
	check "... BUILD-FAIL with 'No space left on device' from the log" \
		sh -c "grep -q 'BUILD-FAIL' '$TMP/out' &&
		       grep -q 'No space left on device' '$TMP/out'"
else
	skip "disk full during the build" \
		"cannot mount a tmpfs here: $(cat "$TMP/err")"
	skip "... BUILD-FAIL with its message" "no tmpfs"
fi
rmdir "$D"

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
