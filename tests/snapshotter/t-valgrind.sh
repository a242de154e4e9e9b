#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The unit test and every case again under valgrind memcheck, on a
# dynamically linked build (valgrind cannot follow a static heap).
top=$(cd "$(dirname "$0")/../.." && pwd)
vg="valgrind -q --error-exitcode=1 --leak-check=full"
SNAP="$vg $top/build/snapshotter/valgrind/snapshot"
. "$(dirname "$0")/lib.sh"

if ! command -v valgrind >/dev/null; then
	tap_skip "valgrind" "valgrind is not installed (ci/deps installs it)"
	tap_done
	exit
fi
scratch_new || exit 1
if $vg "$top/build/tests/snapshotter-unit" >"$scratch/unit" 2>&1; then
	tap_ok "valgrind: unit tests"
else
	tap_not_ok "valgrind: unit tests" "$scratch/unit"
fi
run_real_roots "valgrind: real /sys, default roots"
scratch_remove
run_cases "valgrind:" "*"
tap_done
