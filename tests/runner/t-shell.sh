#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sysfarm shell: the configuration's kernel and initramfs booted with a
# shell on the console, driven here through a terminal (script(1) gives
# it one): commands typed reach the guest, /sys is its sysfs (the
# emulated TCA6507's LEDs are there), `exit` ends the guest and QEMU.
# Runs after t-run.sh built the kernels: it only boots.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
C=x86_64-sysfs-on-tca6507

# wait_for TEXT: until the terminal shows TEXT (120 s at most).
wait_for() {
	n=0
	until grep -q "$1" "$TMP/typescript" 2>/dev/null; do
		n=$((n + 1))
		[ "$n" -gt 240 ] && return 1
		sleep 0.5
	done
}

mkfifo "$TMP/in"
timeout 300 script -qfec "'$SYSFARM' shell $C" "$TMP/typescript" \
	<"$TMP/in" >/dev/null 2>&1 &
pid=$!
exec 3>"$TMP/in"
wait_for 'sysfarm: a shell in the guest'
check "the guest's init gives a shell on the terminal" \
	grep -q 'sysfarm: a shell in the guest' "$TMP/typescript"
# The answer is computed in the guest: the typed line itself never
# matches it.
echo 'ls /sys/class/leds; echo "done-$((6 * 7))"' >&3
wait_for 'done-42'
check "a typed command runs in the guest and /sys is its sysfs" \
	grep -q 'gta04:red:power' "$TMP/typescript"
echo 'exit' >&3
exec 3>&-
wait "$pid"
status=$?
check "exit ends the guest and QEMU (status $status)" test "$status" -eq 0
check "QEMU was the configuration's, its command line logged" grep -q \
	"sysfarm.shell=1" "build/out/$C/qemu.log"
"$SYSFARM" shell 'x86_64-*' >"$TMP/out" 2>&1
check "more than one configuration: exit 2 (status $?)" test $? -eq 2
n=$("$SYSFARM" list --json 'x86_64-*' | jq length)
check "... said in one line ($n selected)" grep -qx \
	"sysfarm shell: takes one configuration, and $n are selected (usage: sysfarm shell \[OPTIONS\] CONFIG)" \
	"$TMP/out"
"$SYSFARM" shell --backend lava "$C" >"$TMP/out" 2>&1
status=$?
check "--backend lava: exit 2, no shell through LAVA (status $status)" \
	sh -c "test $status -eq 2 &&
	       grep -q '^sysfarm shell: --backend lava cannot give a shell' '$TMP/out'"
done_testing
