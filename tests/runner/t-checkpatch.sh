#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every patch of every source's series, and the kernel patch the fault tests
# apply, is clean for the checkpatch.pl of the kernel it is written for,
# taken from the prepared tree (run after t-run.sh, which prepares them).
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1

# checkpatch PATCH SOURCE [OPTION...]: SOURCE's own checkpatch.pl finds
# nothing. Outside any git repository: checkpatch would read the .patch
# files tracked here as sources and report their diff lines.
checkpatch() {
	patch=$1 src=$2
	shift 2
	check "checkpatch.pl --no-tree${*:+ $*} ($src): $patch" env GIT_DIR=/nonexistent \
		perl "build/sources/$src/src/scripts/checkpatch.pl" --no-tree \
		--quiet "$@" "$patch"
}

# checkpatch_series SERIES SOURCE [OPTION...]: each patch SERIES names.
checkpatch_series() {
	series=$1
	shift
	for p in $(sed -n 's/^[ \t]*\([^# \t][^ \t#]*\).*/\1/p' "$series"); do
		checkpatch "${series%/*}/$p" "$@"
	done
}

checkpatch_series patches/series linux-source-6.1
checkpatch_series patches/6.12/series linux-source-6.12
# 7.3's series has no MAINTAINERS hunk, so that it applies to -next trees
# (patches/README.md): exactly the warning that new files may need one
# (FILE_PATH_CHANGES) is ignored, for this series only.
# A fetched source's tree is named after its package and version
# (linux-source-7.3_7.3.4-1_bpo13_1).
at_hand
case " $AT_HAND " in
"  " | *" source=7.3 "*)
	tree=$(cd build/sources && ls -d linux-source-7.3_* | tail -n 1)
	checkpatch_series patches/7.3/series "$tree" --ignore FILE_PATH_CHANGES ;;
*)	skip "7.3's series" "source 7.3 cannot be had (above)" ;;
esac
checkpatch tests/runner/series/early-fault/0003-lib-early-faults-on-request.patch \
	linux-source-6.1
done_testing
