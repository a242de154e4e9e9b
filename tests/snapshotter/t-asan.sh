#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The unit test and every case again, built with ASan and UBSan; any report
# fails (it lands on stderr, and -fno-sanitize-recover=all makes it fatal).
SNAP=$(cd "$(dirname "$0")/../.." && pwd)/build/snapshotter/asan/snapshot
. "$(dirname "$0")/lib.sh"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

scratch_new || exit 1
if "$top/build/tests/snapshotter-unit-asan" >"$scratch/unit" 2>&1; then
	tap_ok "asan: unit tests"
else
	tap_not_ok "asan: unit tests" "$scratch/unit"
fi
run_real_roots "asan: real /sys, default roots"
scratch_remove
run_cases "asan:" "*"
tap_done
