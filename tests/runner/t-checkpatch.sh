#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every patch of every source's series, and the kernel patch the fault tests
# apply, is clean for the checkpatch.pl of the kernel it is written for,
# taken from the prepared tree (run after t-run.sh, which prepares them).
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1

# checkpatch PATCH SOURCE: SOURCE's own checkpatch.pl finds nothing.
# Outside any git repository: checkpatch would read the .patch files
# tracked here as sources and report their diff lines.
checkpatch() {
	check "checkpatch.pl --no-tree ($2): $1" env GIT_DIR=/nonexistent \
		perl "build/sources/$2/src/scripts/checkpatch.pl" --no-tree \
		--quiet "$1"
}

# checkpatch_series SERIES SOURCE: each patch SERIES names.
checkpatch_series() {
	for p in $(sed -n 's/^[ \t]*\([^# \t][^ \t#]*\).*/\1/p' "$1"); do
		checkpatch "${1%/*}/$p" "$2"
	done
}

checkpatch_series patches/series linux-source-6.1
checkpatch_series patches/6.12/series linux-source-6.12
checkpatch tests/runner/series/early-fault/0003-lib-early-faults-on-request.patch \
	linux-source-6.1
done_testing
