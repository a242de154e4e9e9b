# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests: TAP output, a temp dir, where things are.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SYSFARM=${SYSFARM:-$TOP/build/sysfarm}
TMP=$(mktemp -d)
# As in CI, run or not: check leaves no pending snapshot in expected/, and
# update writes only where a test says CI= itself.
export CI=true
trap 'rm -rf "$TMP"' EXIT
test_count=0
last_check=$(date +%s)

# Where a boot test's minutes go: 10 s or more since the last check is
# said, as a TAP comment, before the next one.
check_time() {
	check_now=$(date +%s)
	[ $((check_now - last_check)) -lt 10 ] ||
		echo "# $((check_now - last_check)) s since the last check"
	last_check=$check_now
}

# check DESCRIPTION COMMAND...: "ok" when COMMAND succeeds; its output is
# shown as TAP comments when it does not.
check() {
	desc=$1
	shift
	test_count=$((test_count + 1))
	if "$@" >"$TMP/check.out" 2>&1; then
		check_time
		echo "ok $test_count - $desc"
	else
		check_time
		echo "not ok $test_count - $desc"
		sed 's/^/# /' "$TMP/check.out"
	fi
}

# The farm's 6.1 source under a build directory: its tree is $SRC61/src.
SRC61=sources/linux-source-6.1

# farm_state: which tarball and series the 6.1 tree holds now, read under
# the farm's lock (another sysfarm may be patching it).
farm_state() {
	flock "$TOP/build/.lock" jq -c '{tarball, series}' \
		"$TOP/build/$SRC61/src/.sysfarm-state.json"
}

# run EXPECTED-VERDICT CONFIG ARGS...: `sysfarm run ARGS CONFIG` exits 125
# with that verdict; its stdout in $TMP/out, stderr in $TMP/err.
run() {
	want=$1 config=$2
	shift 2
	"$SYSFARM" run "$@" "$config" >"$TMP/out" 2>"$TMP/err"
	status=$?
	verdict=$(jq -r .verdict "build/out/$config/result.json")
	if [ "$status" -ne 125 ] || [ "$verdict" != "$want" ]; then
		echo "status $status, verdict $verdict, wanted 125 and $want"
		cat "$TMP/out"
		return 1
	fi
}

skip() {
	test_count=$((test_count + 1))
	check_time
	echo "ok $test_count - $1 # SKIP $2"
}

# at_hand: AT_HAND selects the configurations whose kernel source can be
# had here: the whole matrix ("") unless a source fetched from a Debian
# suite cannot be (the suite dropped the pinned version, or the package:
# `sysfarm fetch` exits 125 naming the version to pin). Each such source
# is one skip that quotes why, never a failure: the archive moved, not the
# code. Any other failure of the fetch is left to the test to meet.
at_hand() {
	AT_HAND=
	at_hand_all=1
	for s in $("$SYSFARM" list --json | jq -r '[.[].source] | unique[]'); do
		if "$SYSFARM" fetch "source=$s" >/dev/null 2>"$TMP/fetch.err"; then
			AT_HAND="$AT_HAND source=$s"
		elif [ $? -eq 125 ]; then
			at_hand_all=
			skip "source $s: its configurations" \
				"$(tr '\n' ' ' <"$TMP/fetch.err")"
		else
			AT_HAND="$AT_HAND source=$s"
		fi
	done
	[ -z "$at_hand_all" ] || AT_HAND=
}

done_testing() {
	echo "1..$test_count"
}
