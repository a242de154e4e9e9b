#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Snapshots of fake sysfs trees (cases/*/ that hold no probes) against the
# expected JSON.
. "$(dirname "$0")/lib.sh"
SYSFARM=$top/build/sysfarm

for c in "$cases"/*/; do
	c=${c%/}
	case ${c##*/} in
	probe-* | badprobe-*) ;;
	*) run_case "fake tree" "$c" ;;
	esac
done

scratch_new || exit 1
trap scratch_remove EXIT
name="cli: a full stdout is an error, exit 1"
$SNAP --sysfs "$scratch" >/dev/full 2>"$scratch/actual"
echo "exit $?" >>"$scratch/actual"
printf '%s\n' "snapshot: cannot write 'stdout': No space left on device" \
	"exit 1" >"$scratch/expect"
tap_diff "$name"

# -o FILE on a full disk (here: past the file size limit, SIGXFSZ ignored
# so that write() fails with EFBIG): FILE keeps its old content whole and
# no temporary file is left beside it.
mkdir -p "$scratch/sys/class/big" "$scratch/out"
head -c 8192 /dev/zero | tr '\0' x >"$scratch/sys/class/big/attr"
name="cli: -o FILE that cannot be written whole: exit 1, FILE kept"
echo old >"$scratch/out/snap.json"
(ulimit -f 4 && trap '' XFSZ && exec $SNAP --sysfs "$scratch/sys" \
	-o "$scratch/out/snap.json" class) 2>"$scratch/actual"
echo "exit $?" >>"$scratch/actual"
ls "$scratch/out" >>"$scratch/actual"
head -c 80 "$scratch/out/snap.json" >>"$scratch/actual"
printf '%s\n' \
	"snapshot: cannot write '$scratch/out/snap.json': File too large" \
	"exit 1" snap.json old >"$scratch/expect"
tap_diff "$name"

name="cli: -o FILE replaces FILE with the whole snapshot"
echo old >"$scratch/out/snap.json"
$SNAP --sysfs "$scratch/sys" -o "$scratch/out/snap.json" class \
	>"$scratch/actual" 2>&1
echo "exit $?" >>"$scratch/actual"
cat "$scratch/out/snap.json" >>"$scratch/actual"
ls "$scratch/out" >>"$scratch/actual"
{ echo "exit 0" && $SNAP --sysfs "$scratch/sys" class && echo snap.json; } \
	>"$scratch/expect"
tap_diff "$name"

# init's crash fault needs the open of a FIFO to block: written in place
# (a snapshotter that never opens it leaves cat waiting for 10 s)
name="cli: -o FIFO is written in place"
mkfifo "$scratch/out/fifo"
timeout 10 cat "$scratch/out/fifo" >"$scratch/fifo.out" &
$SNAP --sysfs "$scratch/sys" -o "$scratch/out/fifo" class \
	>"$scratch/actual" 2>&1
echo "exit $?" >>"$scratch/actual"
wait
cat "$scratch/fifo.out" >>"$scratch/actual"
{ echo "exit 0" && $SNAP --sysfs "$scratch/sys" class; } >"$scratch/expect"
tap_diff "$name"

# Depth: a dir 1000 levels below its root is not listed, so that the host
# parses every snapshot (1100 levels gave JSON nested deeper than its
# 2048). 1000 levels of "d" are 2000 bytes of path, under PATH_MAX.
name="depth: 1000 levels below the root are listed whole"
levels=$(printf 'd/%.0s' $(seq 1000))
mkdir -p "$scratch/deep/devices/fake/$levels"
$SNAP --sysfs "$scratch/deep" devices/fake >"$scratch/deep.json" \
	2>"$scratch/actual"
echo "exit $?" >>"$scratch/actual"
grep -c '"truncated"' "$scratch/deep.json" >>"$scratch/actual"
printf '%s\n' "exit 0" 0 >"$scratch/expect"
tap_diff "$name"

name="depth: 1100 levels are cut at 1000, recorded, taken by the host's diff"
mkdir -p "$scratch/deep/devices/fake/$levels$(printf 'e/%.0s' $(seq 100))"
$SNAP --sysfs "$scratch/deep" devices/fake >"$scratch/deeper.json" \
	2>"$scratch/actual"
echo "exit $?" >>"$scratch/actual"
grep -c '"truncated": true' "$scratch/deeper.json" >>"$scratch/actual"
$SYSFARM diff --color=never "$scratch/deep.json" "$scratch/deeper.json" \
	>>"$scratch/actual" 2>&1
echo "exit $?" >>"$scratch/actual"
printf '%s\n' "exit 0" 1 \
	"~ devices/fake/${levels%/}: error (none) -> (truncated)" "exit 1" \
	>"$scratch/expect"
tap_diff "$name"

name="cli: --help to a full stdout is an error too"
$SNAP --help >/dev/full 2>/dev/null
if [ $? -eq 1 ]; then
	tap_ok "$name"
else
	tap_not_ok "$name"
fi
tap_done
