# SPDX-License-Identifier: GPL-2.0
# Shared by the snapshotter's shell tests: TAP output and the case runner.
#
# A case is a directory cases/<name>/ holding
#   args            arguments after `--sysfs DIR` (word-split), may be empty
#   tree            optional: sh script run in DIR to build the fake sysfs
#   probes          optional: a probe file the args refer to (run in the
#                   case directory, so messages say "probes:LINE:COL")
#   wrap            optional: command prefix, e.g. setpriv to run as nobody
#   expected.json   stdout, header release/machine replaced by R and M
#   expected.err    optional: stderr (else it must be empty)
#   expected.status optional: exit status (else 0)
#   filter          optional: jq program applied to stdout before comparing
#   after           optional: sh script run in DIR after the snapshot; its
#                   output must equal expected.after
# Cases without probes are also run twice: the two outputs must be equal.

top=$(cd "$(dirname "$0")/../.." && pwd)
cases=$top/tests/snapshotter/cases
SNAP=${SNAP:-$top/build/snapshotter/$(uname -m)/snapshot}
tap_n=0
tap_failed=0

tap_ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

# tap_not_ok NAME [FILE]: FILE holds the diagnostics, printed as comments
tap_not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	[ -z "$2" ] || sed 's/^/# /' "$2"
}

tap_skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# tap_diff NAME: ok when $scratch/actual equals $scratch/expect; both are
# removed then, so that the next check, should its command fail before it
# writes them, compares nothing (not ok) rather than what this one left.
# A check puts its command's exit status in actual, so that a command
# that fails with the expected output still fails the check.
tap_diff() {
	if diff -u "$scratch/expect" "$scratch/actual" >"$scratch/diff" 2>&1
	then
		tap_ok "$1"
	else
		tap_not_ok "$1" "$scratch/diff"
	fi
	rm -f "$scratch/expect" "$scratch/actual"
}

tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# A scratch directory anyone may traverse (cases run as nobody too).
scratch_new() {
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/snapshotter-test.XXXXXX") &&
	chmod 0755 "$scratch"
}

scratch_remove() {
	# a case may leave a directory without write permission behind
	chmod -R u+rwx "$scratch" 2>/dev/null
	rm -rf "$scratch"
}

# Replace what depends on the machine the snapshot ran on.
header_normalise() {
	sed -e 's/^\(    "release": \)".*"/\1"R"/' \
	    -e 's/^\(    "machine": \)".*"/\1"M"/'
}

# run_case LABEL DIR: one TAP line for the case in DIR.
run_case() {
	label=$1 c=$2 name=${2##*/} wrap=
	[ ! -f "$c/wrap" ] || wrap=$(cat "$c/wrap")
	if [ -n "$wrap" ] && ! $wrap true 2>/dev/null; then
		tap_skip "$label $name" "cannot run '$wrap' here"
		return
	fi
	scratch_new || { tap_not_ok "$label $name: mktemp"; return; }
	mkdir "$scratch/sys"
	if [ -f "$c/tree" ] &&
	   ! (cd "$scratch/sys" && sh -e "$c/tree") >"$scratch/log" 2>&1; then
		tap_not_ok "$label $name: tree script failed" "$scratch/log"
		scratch_remove
		return
	fi
	# shellcheck disable=SC2046 # args are words on purpose
	(cd "$c" && $wrap $SNAP --sysfs "$scratch/sys" $(cat "$c/args")) \
		>"$scratch/out" 2>"$scratch/actual.err"
	echo $? >"$scratch/actual.status"
	if [ -f "$c/filter" ]; then
		jq -S -f "$c/filter" "$scratch/out" >"$scratch/filtered" 2>&1
	else
		cp "$scratch/out" "$scratch/filtered"
	fi
	header_normalise <"$scratch/filtered" >"$scratch/actual"
	: >"$scratch/expect.err"
	[ ! -f "$c/expected.err" ] || cp "$c/expected.err" "$scratch/expect.err"
	cat "$c/expected.status" 2>/dev/null >"$scratch/expect.status" ||
		echo 0 >"$scratch/expect.status"
	: >"$scratch/expect"
	[ ! -f "$c/expected.json" ] || cp "$c/expected.json" "$scratch/expect"
	if [ -f "$c/after" ]; then
		(cd "$scratch/sys" && sh "$c/after") \
			>"$scratch/actual.after" 2>&1
		cp "$c/expected.after" "$scratch/expect.after"
	fi
	{
		diff -u "$scratch/expect.status" "$scratch/actual.status" &&
		{ [ ! -f "$c/after" ] || diff -u "$scratch/expect.after" \
			"$scratch/actual.after"; } &&
		diff -u "$scratch/expect.err" "$scratch/actual.err" &&
		diff -u "$scratch/expect" "$scratch/actual"
	} >"$scratch/diff" 2>&1
	if [ $? -ne 0 ]; then
		tap_not_ok "$label $name" "$scratch/diff"
	elif [ ! -f "$c/probes" ] && ! (cd "$c" && $wrap $SNAP \
			--sysfs "$scratch/sys" $(cat "$c/args")) 2>/dev/null |
			cmp - "$scratch/out" >"$scratch/diff" 2>&1; then
		tap_not_ok "$label $name: second run differs" "$scratch/diff"
	else
		tap_ok "$label $name"
	fi
	scratch_remove
}

# run_cases LABEL PATTERN...: every case directory whose name matches
run_cases() {
	label=$1
	shift
	for pattern; do
		for c in "$cases"/$pattern/; do
			[ -d "$c" ] && run_case "$label" "${c%/}"
		done
	done
}

# run_real_roots LABEL [ARG...]: snapshot the host's real /sys (read only,
# no probes) into $scratch/real; one TAP line: exit 0, no stderr, valid JSON.
run_real_roots() {
	label=$1
	shift
	$SNAP "$@" >"$scratch/real" 2>"$scratch/real.err"
	status=$?
	if [ $status -ne 0 ] || [ -s "$scratch/real.err" ]; then
		echo "exit status $status" >>"$scratch/real.err"
		tap_not_ok "$label" "$scratch/real.err"
	elif ! jq -e . "$scratch/real" >/dev/null 2>"$scratch/real.err"; then
		tap_not_ok "$label: not valid JSON" "$scratch/real.err"
	else
		tap_ok "$label"
	fi
}
