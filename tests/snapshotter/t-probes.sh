#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Probe files on fake sysfs trees: outcomes recorded in order, and bad
# probe files refused with FILE:LINE:COL and exit 2 before anything runs.
. "$(dirname "$0")/lib.sh"

run_cases "probes" "probe-*" "badprobe-*"

# A FIFO nobody writes: refused at once, not waited for (its open would
# block without O_NONBLOCK; a snapshotter that waits fails after 10 s).
scratch_new || exit 1
trap scratch_remove EXIT
mkdir "$scratch/sys"
mkfifo "$scratch/fifo"
timeout 10 $SNAP --sysfs "$scratch/sys" --probes "$scratch/fifo" \
	>"$scratch/actual" 2>&1
echo "exit $?" >>"$scratch/actual"
printf '%s\n' "$scratch/fifo: not a regular file (a FIFO)" "exit 2" \
	>"$scratch/expect"
tap_diff "probes: a FIFO as probe file is refused without waiting, exit 2"
tap_done
