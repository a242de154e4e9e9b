#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every patch in patches/, and the kernel patch the fault tests apply, is
# clean for the kernel's own checkpatch.pl, taken from the prepared tree
# (run after t-run.sh, which prepares it).
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
CHECKPATCH=build/src/scripts/checkpatch.pl

for p in $(grep -v '^ *#' patches/series | sed 's|^|patches/|') \
	tests/runner/series/early-fault/0003-lib-early-faults-on-request.patch; do
	# Outside any git repository: checkpatch would read the .patch files
	# tracked here as sources and report their diff lines.
	check "checkpatch.pl --no-tree: $p" env GIT_DIR=/nonexistent \
		perl "$CHECKPATCH" --no-tree --quiet "$p"
done
done_testing
