#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The fuzz targets in `make check`: every input that once crashed, leaked or
# hit UB (tests/fuzz/regress/TARGET/) runs clean, then a short deterministic
# run of each target (`make fuzz` does FUZZ_RUNS of them).
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1

export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
runs=${FUZZ_CHECK_RUNS:-3000}

for target in snapshot matrix report; do
	for f in tests/fuzz/regress/$target/*; do
		[ -f "$f" ] || continue
		check "$target regression $(basename "$f")" \
			"build/fuzz/fuzz_$target" -timeout=10 "$f"
	done
	check "$target: $runs executions clean" \
		tests/fuzz/run "$target" "$runs"
	sed 's/^/# /' "$TMP/check.out"
done
done_testing
