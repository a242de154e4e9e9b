#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Snapshots of fake sysfs trees (cases/*/ that hold no probes) against the
# expected JSON.
. "$(dirname "$0")/lib.sh"

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

name="cli: --help to a full stdout is an error too"
$SNAP --help >/dev/full 2>/dev/null
if [ $? -eq 1 ]; then
	tap_ok "$name"
else
	tap_not_ok "$name"
fi
tap_done
