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
	# Interrupted (Ctrl-C reaches the whole group): bash itself goes on
	# when its child exits 130 rather than dying of the signal.
	[ "$status" -ne 130 ] || exit 130
}

# discard PATH...: each PATH under BD that exists is moved into BD/trash
# (a rename: BD's own file system), which bench/run empties when it ends.
# This machine's ext4 has no journal, and then every new inode skips, one
# at a time, the inodes deleted in the last minutes (fs/ext4/ialloc.c,
# recently_deleted()): the 6.1 tarball extracted in 31.7 s right after a
# tree was deleted, in 5.9 s when nothing had been deleted for minutes.
# No figure pays for the bench's own clean-up.
discard() {
	local p t
	for p; do
		[ -e "$p" ] || continue
		case $p in
		"$BD"/*) ;;
		*) echo "bench: discard: $p is not under $BD" >&2; exit 1 ;;
		esac
		[ "$(stat -c %d -- "$p")" = "$(stat -c %d -- "$BD")" ] || {
			echo "bench: discard: $p is not on $BD's file system" >&2
			exit 1
		}
		mkdir -p "$BD/trash" && t=$(mktemp -d "$BD/trash/XXXXXX") &&
			mv -- "$p" "$t/" || exit 1
	done
}

# farm_check ARGS...: sysfarm check against BD's goldens: check deletes
# and writes pending files beside them, never in the repository's.
# shellcheck disable=SC2317 # run through timed
farm_check() {
	"$SYSFARM" check --expected "$EXP" "$@"
}
