#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Both builds are static; the arm one passes every case under qemu-arm user
# emulation where qemu-user-static is installed.
. "$(dirname "$0")/lib.sh"

for arch in $(uname -m) arm; do
	bin=$top/build/snapshotter/$arch/snapshot
	if file "$bin" | grep -q 'statically linked'; then
		tap_ok "$arch build is statically linked"
	else
		file "$bin" >"$top/build/tests/file.out" 2>&1
		tap_not_ok "$arch build is statically linked" \
			"$top/build/tests/file.out"
	fi
done

qemu=$(command -v qemu-arm-static || command -v qemu-arm)
if [ -z "$qemu" ]; then
	tap_skip "arm: cases under qemu-arm" "qemu-user-static is not installed"
	tap_done
	exit
fi
SNAP="$qemu $top/build/snapshotter/arm/snapshot"
run_cases "arm:" "*"
tap_done
