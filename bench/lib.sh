# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # $failed, $secs: read by the sourcing script
# What bench/run and bench/kunit share. Sourced with BD (the bench
# directory), EXP (its copy of expected/) and SYSFARM set; sets $status,
# $secs and, when a step fails, $failed. Each step's output goes to
# BD/log.
failed=0
mkdir -p "$BD/log" || exit 1

now() { date +%s.%N; }
calc() { awk "BEGIN { print $* }"; }

# timed NAME CMD...: runs CMD with its output in BD/log/NAME.{out,err},
# sets $status and $secs.
timed() {
	local name=$1 t0
	shift
	echo "bench: $name ..." >&2
	t0=$(now)
	"$@" >"$BD/log/$name.out" 2>"$BD/log/$name.err"
	status=$?
	secs=$(calc "$(now) - $t0")
	echo "bench: $name: ${secs}s (status $status)" >&2
	[ "$status" -eq 0 ] || failed=1
}

# farm_check ARGS...: sysfarm check against BD's goldens: check deletes
# and writes pending files beside them, never in the repository's.
# shellcheck disable=SC2317 # run through timed
farm_check() {
	"$SYSFARM" check --expected "$EXP" "$@"
}
