#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A series that stops applying after a source update is reported with the
# source version it last applied on and the current one; a series that
# applies again records the current version in the source's
# series-applied-on.
#
# The update is simulated by recording an older version: sysfarm compares
# that record with the version dpkg gives the tarball, the same path a real
# update takes. A tarball no package owns (an older .deb unpacked by hand)
# is named by its path and the kernel version in its Makefile.
#
# The last build also shows that a tree extracted afresh in another build
# directory, made again from its first object to its image, gives the
# farm's own image byte for byte (the series here adds only a comment at
# the end of a file). Its objects come from ccache: the tarball keeps the
# package's file name, so the tree has the farm's name and the compiler
# sees the farm's relative paths (a tree of another name would be compiled
# afresh, one kernel's worth of CI time). So this shows the cache, the
# link and the image steps reproducible, not the compiler: a compile
# without ccache giving the same objects is no longer shown here.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
C=arm-sysfs-off			# the fastest kernel to build
D=$TOP/build/tests/source-drift
OLD="linux-source-6.1 6.1.190-1"
TARBALL=/usr/src/linux-source-6.1.tar.xz
trap 'rm -rf "$TMP" "$D"' EXIT

# tree_version DIR: "6.1.192" from the tree's Makefile
tree_version() {
	sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$1/Makefile" |
		head -3 | paste -sd.
}
export CCACHE_DIR="${CCACHE_DIR:-$TOP/build/ccache}"

# What sysfarm calls the source: "PACKAGE VERSION" from dpkg.
if pkg=$(dpkg -S "$TARBALL" 2>/dev/null); then
	pkg=${pkg%%:*}
	NEW="$pkg $(dpkg-query -W -f='${Version}' "$pkg")"
else
	NEW="$TARBALL $(tree_version build/$SRC61/src) (no dpkg package owns it)"
fi

# A build directory with the farm's prepared tree (hard links: sysfarm
# replaces files by rename) instead of another extraction.
"$SYSFARM" build "$C" >"$TMP/farm" 2>&1
status=$?
check "the farm prepares its 6.1 tree (status $status)" test "$status" -eq 0
state=$(farm_state)
rm -rf "$D"
mkdir -p "$D/$SRC61"
check "a build directory sharing the 6.1 tree by hard links" \
	flock build/.lock cp -al build/$SRC61/src build/$SRC61/pristine \
	"$D/$SRC61"
check "... prepared with patches/series" test "$(farm_state)" = "$state"
printf '%s' "$OLD" >"$D/$SRC61/series-applied-on"

"$SYSFARM" build --build-dir "$D" \
	--series tests/runner/series/bad-patch/series "$C" >"$TMP/out" 2>&1
check "a series that no longer applies: exit 125 (status $?)" test $? -eq 125
check "... named, with the old and the new source version" grep -qF \
	"(the series last applied on $OLD; the source is now $NEW)" "$TMP/out"
check "... series-applied-on still names the old version" \
	test "$(cat "$D/$SRC61/series-applied-on")" = "$OLD"

"$SYSFARM" build --build-dir "$D" --series tests/source-drift/series "$C" \
	>"$TMP/out" 2>&1
status=$?
check "a series that applies again builds (status $status)" \
	test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/out"
check "... and series-applied-on names the current version" \
	test "$(cat "$D/$SRC61/series-applied-on")" = "$NEW"

# The same tarball where no package owns it (same size and mtime: the
# same tree), so nothing to build, and the snapshot's inputs name the file
# and its kernel.
OTHER=$D/other/linux-source-6.1.tar.xz
mkdir -p "$D/other"
cp -p "$TARBALL" "$OTHER"
"$SYSFARM" run --build-dir "$D" --series tests/source-drift/series \
	--tarball "$OTHER" "$C" >"$TMP/out" 2>&1
check "a tarball no package owns: the same tree, no rebuild (status $?)" \
	grep -q "kernel .* is up to date" "$TMP/out"
check "... its snapshot names the file and its kernel version" test \
	"$(jq -r .header.inputs.source "$D/out/$C/snapshot.json")" = \
	"$OTHER $(tree_version build/$SRC61/src) (no dpkg package owns it)"

# Another tarball (here the same bytes with a new mtime) is extracted
# afresh, and the kernel directory built from the last one starts afresh
# too: the new tree's files keep the tarball's mtimes, older than the
# objects there, and make would keep them: every object is compiled again
# (through ccache, which has them all).
K=$("$SYSFARM" list | awk -v c="$C" '$1 == c { print $2 }')
touch "$D/kernels/$K/built-from-the-last-tarball"
cp "$TARBALL" "$OTHER"
t=$(date +%s)
"$SYSFARM" build --build-dir "$D" \
	--series tests/source-drift/series --tarball "$OTHER" "$C" \
	>"$TMP/out" 2>&1
status=$?
echo "# extracted and built in $(($(date +%s) - t)) s"
check "another tarball: extracted and built again (status $status)" \
	grep -q "kernel $K built in" "$TMP/out"
check "... in a kernel directory started afresh" \
	test ! -e "$D/kernels/$K/built-from-the-last-tarball"
check "... every object compiled again (kernel/workqueue.o as well)" \
	grep -q '^  CC  *kernel/workqueue\.o$' "$D/kernels/$K/build.log"
IMAGE=arch/arm/boot/zImage	# matrix.yaml's image for arm
# Still the farm's kernel of its tree with patches/series?
if [ "$(farm_state)" = "$state" ]; then
	check "... the image is the farm's own byte for byte (through ccache)" \
		flock build/.lock \
		cmp "build/kernels/$K/$IMAGE" "$D/kernels/$K/$IMAGE"
else
	skip "... the image is the farm's own byte for byte" \
		"the farm's tree was repatched by another sysfarm meanwhile"
fi
done_testing
