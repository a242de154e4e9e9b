#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Probe files on fake sysfs trees: outcomes recorded in order, and bad
# probe files refused with FILE:LINE:COL and exit 2 before anything runs.
. "$(dirname "$0")/lib.sh"

run_cases "probes" "probe-*" "badprobe-*"
tap_done
