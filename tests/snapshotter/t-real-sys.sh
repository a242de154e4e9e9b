#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The snapshotter on this machine's real /sys, read only and without probes:
# valid JSON, byte-identical across runs, links followed, plus kmsg, frame
# and output errors.
. "$(dirname "$0")/lib.sh"

frame_check=$top/build/tests/snapshotter-frame-check
scratch_new || exit 1
trap scratch_remove EXIT

# Default roots: bus/workqueue (and class/leds, class/gpio where present).
# class/mem is added as a tree of attributes that cannot change while the
# machine runs. Counters elsewhere (class/block, class/bdi) do change, and
# class/zram-control/hot_add creates a device on every read, so the test
# stays away from them.
run_real_roots "real /sys: default roots"
run_real_roots "real /sys: default roots and class/mem" \
	bus/workqueue class/leds class/gpio class/mem
cp "$scratch/real" "$scratch/first"
$SNAP bus/workqueue class/leds class/gpio class/mem >"$scratch/actual"
echo "exit $?" >>"$scratch/actual"
{ cat "$scratch/first" && echo "exit 0"; } >"$scratch/expect"
tap_diff "real /sys: two runs are byte-identical"

name="real /sys: bus/workqueue/devices/writeback is followed"
if [ -d /sys/bus/workqueue/devices/writeback ]; then
	jq -r '.roots["bus/workqueue"].entries.devices.entries.writeback |
		"\(.type) \(.follow.type) \(.follow.entries.max_active.value |
		@json)"' \
		"$scratch/first" >"$scratch/actual" &&
	max_active=$(cat /sys/bus/workqueue/devices/writeback/max_active) &&
	printf 'link dir "%s\\n"\n' "$max_active" >"$scratch/expect"
	tap_diff "$name"
else
	tap_skip "$name" "no writeback workqueue in this kernel's sysfs"
fi

# A fresh sysfs mount in a private mount namespace shows the same tree.
name="--mount-sysfs in a private mount namespace"
if unshare --mount --propagation private true 2>/dev/null; then
	mkdir "$scratch/sys"
	unshare --mount --propagation private $SNAP --mount-sysfs \
		--sysfs "$scratch/sys" bus/workqueue >"$scratch/actual"
	echo "exit $?" >>"$scratch/actual"
	{ $SNAP bus/workqueue && echo "exit 0"; } >"$scratch/expect"
	tap_diff "$name"
else
	tap_skip "$name" "unshare --mount not permitted here"
fi

# The oldest record in the kernel log comes back under its own prefix.
name="--kmsg-prefix collects /dev/kmsg messages"
first=$(dd if=/dev/kmsg bs=8192 count=1 iflag=nonblock 2>/dev/null |
	sed -n '1s/^[^;]*;//p')
if [ -n "$first" ]; then
	prefix=$(printf '%.12s' "$first")
	$SNAP --kmsg-prefix "$prefix" --kmsg-prefix sysfarm-no-such-prefix \
		bus/workqueue >"$scratch/snap.json"
	echo "exit $?" >"$scratch/actual"
	jq -r '.kmsg[0]' "$scratch/snap.json" >>"$scratch/actual" &&
	printf 'exit 0\n%s\n' "$first" >"$scratch/expect"
	tap_diff "$name"
else
	tap_skip "$name" "/dev/kmsg is not readable here"
fi

name="a missing /dev/kmsg is recorded"
if unshare --mount --propagation private true 2>/dev/null; then
	unshare --mount --propagation private sh -c \
		'mount -t tmpfs none /dev && mknod /dev/null c 1 3 &&
		exec "$@"' sh $SNAP --kmsg-prefix sysfarm bus/workqueue \
		>"$scratch/snap.json"
	echo "exit $?" >"$scratch/actual"
	jq -c .kmsg "$scratch/snap.json" >>"$scratch/actual" &&
	printf '%s\n' "exit 0" '{"error":"ENOENT"}' >"$scratch/expect"
	tap_diff "$name"
else
	tap_skip "$name" "unshare --mount not permitted here"
fi

# Early in a guest's boot the kernel's RNG is not ready, and a read of
# /dev/urandom waits for it (6.1 runs its jitter loop: seconds under TCG).
# Here /dev/urandom is a FIFO nobody writes: a read would never end.
name="the snapshotter never reads /dev/urandom"
if unshare --mount --propagation private true 2>/dev/null; then
	timeout 20 unshare --mount --propagation private sh -c \
		'mount -t tmpfs none /dev && mknod /dev/null c 1 3 &&
		mkfifo /dev/urandom /dev/random && exec "$@"' sh \
		$SNAP bus/workqueue >"$scratch/actual"
	echo "status $?" >>"$scratch/actual"
	{ $SNAP bus/workqueue && echo "status 0"; } >"$scratch/expect"
	tap_diff "$name"
else
	tap_skip "$name" "unshare --mount not permitted here"
fi

name="--frame: the frame decodes to the plain snapshot"
$SNAP --frame -o "$scratch/frame" >"$scratch/actual" 2>&1
echo "exit $?" >>"$scratch/actual"
$frame_check "$scratch/frame" >>"$scratch/actual" 2>&1
$SNAP >"$scratch/plain"
{ echo "exit 0" && cat "$scratch/plain"; } >"$scratch/expect"
tap_diff "$name"

name="a cut or altered frame is refused"
head -c 100 "$scratch/frame" >"$scratch/cut"
sed 's/"format": 1,/"format": 2,/' "$scratch/frame" >"$scratch/flipped"
{
	$frame_check "$scratch/cut"
	$frame_check "$scratch/flipped"
	$frame_check "$scratch/plain"
} >"$scratch/actual" 2>&1
printf '%s\n' "truncated frame" "frame checksum mismatch" "no frame" \
	>"$scratch/expect"
tap_diff "$name"

tap_done
