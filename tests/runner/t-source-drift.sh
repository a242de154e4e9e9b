#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A series that stops applying after a source update is reported with the
# source version it last applied on and the current one; a series that
# applies again records the current version in build/series-applied-on.
#
# The update is simulated by recording an older version: sysfarm compares
# that record with the version dpkg gives the tarball, the same path a real
# update takes (an older linux-source-6.1 .deb's tarball would belong to no
# package, so its version would be "unknown").
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
C=arm-sysfs-off			# the fastest kernel to build
D=$TOP/build/tests/source-drift
OLD="linux-source-6.1 6.1.190-1"
TARBALL=/usr/src/linux-source-6.1.tar.xz
trap 'rm -rf "$TMP" "$D"' EXIT
export CCACHE_DIR="${CCACHE_DIR:-$TOP/build/ccache}"

# What sysfarm calls the source: "PACKAGE VERSION" from dpkg.
if pkg=$(dpkg -S "$TARBALL" 2>/dev/null); then
	pkg=${pkg%%:*}
	NEW="$pkg $(dpkg-query -W -f='${Version}' "$pkg")"
else
	NEW=unknown
fi

# A build directory with the farm's prepared tree (hard links: sysfarm
# replaces files by rename) instead of another extraction.
"$SYSFARM" build "$C" >"$TMP/farm" 2>&1
status=$?
check "the farm prepares build/src (status $status)" test "$status" -eq 0
state=$(farm_state)
rm -rf "$D"
mkdir -p "$D"
check "a build directory sharing build/src by hard links" \
	flock build/.lock cp -al build/src build/pristine "$D"
check "... prepared with patches/series" test "$(farm_state)" = "$state"
printf '%s' "$OLD" >"$D/series-applied-on"

"$SYSFARM" build --build-dir "$D" \
	--series tests/runner/series/bad-patch/series "$C" >"$TMP/out" 2>&1
check "a series that no longer applies: exit 125 (status $?)" test $? -eq 125
check "... named, with the old and the new source version" grep -qF \
	"(the series last applied on $OLD; the source is now $NEW)" "$TMP/out"
check "... series-applied-on still names the old version" \
	test "$(cat "$D/series-applied-on")" = "$OLD"

"$SYSFARM" build --build-dir "$D" --series tests/source-drift/series "$C" \
	>"$TMP/out" 2>&1
status=$?
check "a series that applies again builds (status $status)" \
	test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/out"
check "... and series-applied-on names the current version" \
	test "$(cat "$D/series-applied-on")" = "$NEW"
done_testing
