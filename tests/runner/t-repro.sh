#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Kernel builds are reproducible: one configuration's kernel built in two
# fresh build directories, the second without ccache, is the same image
# byte for byte, and the same as the farm's own build of that kernel.
#
# Both directories share the farm's extracted and patched tree through hard
# links (sysfarm replaces files by rename, never in place): the inputs are
# the same, only the paths differ, and no extraction is paid.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
C=arm-sysfs-off			# the fastest kernel to build
IMAGE=arch/arm/boot/zImage	# matrix.yaml's image for arm
A=$TOP/build/tests/repro-a
B=$TOP/build/tests/repro-second	# another path length, too
trap 'rm -rf "$TMP" "$A" "$B"' EXIT
export CCACHE_DIR="${CCACHE_DIR:-$TOP/build/ccache}"

# The farm's own kernel first: it prepares its 6.1 tree with patches/series.
"$SYSFARM" build "$C" >"$TMP/farm" 2>&1
status=$?
check "the farm builds $C (status $status)" test "$status" -eq 0
if [ "$status" -ne 0 ]; then
	done_testing
	exit 0
fi
state=$(farm_state)
key=$("$SYSFARM" list --json | jq -r ".[] | select(.config == \"$C\").key")

rm -rf "$A" "$B"
mkdir -p "$A" "$B"
mkdir -p "$A/$SRC61" "$B/$SRC61"
check "two build directories sharing the 6.1 tree by hard links" sh -c \
	"flock '$TOP/build/.lock' cp -al '$TOP/build/$SRC61/src' \
		'$TOP/build/$SRC61/pristine' '$A/$SRC61' &&
	 cp -al '$A/$SRC61/src' '$A/$SRC61/pristine' '$B/$SRC61'"
# The tree could have been repatched between the farm's build and cp.
check "... prepared with patches/series" test "$(farm_state)" = "$state"

# build DIR [VAR=VALUE...]: sysfarm build in DIR with that environment.
build() {
	dir=$1
	shift
	t=$(date +%s)
	env "$@" "$SYSFARM" build --build-dir "$dir" "$C" >"$TMP/out" 2>&1
	status=$?
	echo "# $C in ${dir#"$TOP"/}: $(($(date +%s) - t))s $*" >&3
	[ "$status" -eq 0 ] || { cat "$TMP/out"; return 1; }
}
exec 3>&1
check "builds in $A (ccache on)" build "$A"
check "builds in $B (ccache off)" build "$B" CCACHE_DISABLE=1

check "the two images are the same" \
	cmp "$A/kernels/$key/$IMAGE" "$B/kernels/$key/$IMAGE"
# Still the farm's kernel of its tree with patches/series?
if [ "$(farm_state)" = "$state" ] && [ -f "build/kernels/$key/$IMAGE" ]; then
	check "... and the same as the farm's own" flock build/.lock \
		cmp "build/kernels/$key/$IMAGE" "$A/kernels/$key/$IMAGE"
else
	skip "... and the same as the farm's own" \
		"the tree was repatched by another sysfarm meanwhile"
fi
done_testing
