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

# discard PATH...: each PATH (under BD) that exists is moved into BD/trash,
# which bench/run empties once its last figure is taken. This machine's
# ext4 has no journal, and then every inode allocation skips, one by one,
# the inodes deleted in the last minutes (fs/ext4/ialloc.c,
# recently_deleted()): a 6.1 tree extracted right after one was deleted
# took 31-62 s here, 5.9 s when nothing had been deleted for minutes. No
# figure pays for the bench's own clean-up.
discard() {
	local p
	for p; do
		[ -e "$p" ] || continue
		mkdir -p "$BD/trash" &&
			mv -- "$p" "$(mktemp -d "$BD/trash/XXXXXX")/" || exit 1
	done
}

# farm_check ARGS...: sysfarm check against BD's goldens: check deletes
# and writes pending files beside them, never in the repository's.
# shellcheck disable=SC2317 # run through timed
farm_check() {
	"$SYSFARM" check --expected "$EXP" "$@"
}
