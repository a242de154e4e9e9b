#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sysfarm review on hand-made pending files: tests/upgrade's matrix and
# goldens, x86_64.json.pending a copy of x86_64-6.12's golden (a DIFF),
# arm.json.pending of arm-6.12's. Nothing is built or booted: by options
# (--accept writes the golden by a rename and removes the pending file,
# --reject removes the pending file alone), listed without a terminal, and
# on one (script(1)'s pty) answered a line at a time, with a pending file
# replaced while it is on the screen.
. "$(dirname "$0")/../lib.sh"
U=$TOP/tests/upgrade
M=$U/matrix.yaml

# fresh DIR: the goldens and the two pending files in DIR
fresh() {
	rm -rf "$1"
	cp -r "$U/expected" "$1"
	cp "$U/expected/x86_64-6.12.json" "$1/x86_64.json.pending"
	cp "$U/expected/arm-6.12.json" "$1/arm.json.pending"
}

# review DIR ARGS...: sysfarm review, stdin not a terminal; its stdout
# and stderr in $TMP/out, its status in $status
review() {
	dir=$1
	shift
	"$SYSFARM" review --matrix "$M" --expected "$dir" --color never "$@" \
		</dev/null >"$TMP/out" 2>&1
	status=$?
}

# Without a terminal and without an option: listed, each with its diff.
fresh "$TMP/list"
review "$TMP/list"
check "no terminal, no option: listed, 2 left (status $status)" \
	test "$status" -eq 1
check "... each with its classified diff against its golden" grep -qx \
	"x86_64: DIFF: 1 removed, 4 changed, 2 added against $TMP/list/x86_64.json ($TMP/list/x86_64.json.pending)" \
	"$TMP/out"
check "... and the count left" grep -qx \
	"2 pending snapshots left in $TMP/list" "$TMP/out"
check "... the next one too, and no question asked" sh -c "
	grep -q '^arm: DIFF: ' '$TMP/out' &&
	! grep -q 'accept, reject, skip, quit?' '$TMP/out'"
check "... and nothing touched" diff -r "$U/expected" "$TMP/list" -x '*.pending'
check "... the pending files neither" sh -c "
	cmp '$U/expected/x86_64-6.12.json' '$TMP/list/x86_64.json.pending' &&
	cmp '$U/expected/arm-6.12.json' '$TMP/list/arm.json.pending'"

# --accept CONFIG: its golden replaced by a new file (a link to the old
# one keeps the old content: renamed over, never rewritten in place),
# its pending file gone, the other configuration's left.
fresh "$TMP/acc"
ln "$TMP/acc/x86_64.json" "$TMP/old-golden"
review "$TMP/acc" --accept x86_64
check "--accept x86_64 (status $status)" test "$status" -eq 0
check "... the golden is the pending snapshot" \
	cmp "$U/expected/x86_64-6.12.json" "$TMP/acc/x86_64.json"
check "... written to a new file renamed over the old" \
	cmp "$U/expected/x86_64.json" "$TMP/old-golden"
check "... its pending file removed" test ! -e "$TMP/acc/x86_64.json.pending"
check "... the other's pending file and golden untouched" sh -c "
	cmp '$U/expected/arm-6.12.json' '$TMP/acc/arm.json.pending' &&
	cmp '$U/expected/arm.json' '$TMP/acc/arm.json'"
check "... no temporary file left" \
	test -z "$(find "$TMP/acc" -name '*.tmp.*')"
check "... and said" grep -qx "accepted: wrote $TMP/acc/x86_64.json" "$TMP/out"

# --reject CONFIG: the pending file alone removed.
review "$TMP/acc" --reject arm
check "--reject arm (status $status)" test "$status" -eq 0
check "... its pending file removed, its golden untouched" sh -c "
	test ! -e '$TMP/acc/arm.json.pending' &&
	cmp '$U/expected/arm.json' '$TMP/acc/arm.json'"
check "... and said" grep -qx "rejected: removed \"$TMP/acc/arm.json.pending\"" \
	"$TMP/out"
review "$TMP/acc"
check "nothing left: listing exits 0 (status $status)" test "$status" -eq 0

# --reject also removes a pending file no configuration is named after.
fresh "$TMP/stray"
cp "$U/expected/arm.json" "$TMP/stray/gone.json.pending"
review "$TMP/stray"
check "a stray pending file is listed, 3 left (status $status)" sh -c "
	test $status -eq 1 && grep -qx '3 pending snapshots left in $TMP/stray' '$TMP/out'"
review "$TMP/stray" --reject
check "--reject: every one removed (status $status)" sh -c "
	test $status -eq 0 && test -z \"\$(find '$TMP/stray' -name '*.pending')\""
check "... no golden touched" diff -r "$U/expected" "$TMP/stray"

# On a terminal: script(1) runs review on a pty whose input is a FIFO,
# written one answer at a time once the prompt is there.
mkfifo "$TMP/answers"

# prompts N: wait (10 s at most) until the N-th prompt is on the screen
prompts() {
	tries=0
	while [ "$(grep -o 'accept, reject, skip, quit?' "$TMP/tty" |
		   wc -l)" -lt "$1" ]; do
		tries=$((tries + 1))
		[ "$tries" -le 200 ] || return 1
		sleep 0.05
	done
}

# x86_64 (shown first) is replaced while on the screen, then accepted;
# arm is rejected.
fresh "$TMP/tty-dir"
script -qec "'$SYSFARM' review --matrix '$M' --expected '$TMP/tty-dir'" \
	/dev/null <"$TMP/answers" >"$TMP/tty" 2>&1 &
pid=$!
exec 3>"$TMP/answers"
prompts 1
check "on a terminal: it asks" grep -q "^x86_64: DIFF: " "$TMP/tty"
cp "$U/expected/x86_64-6.13.json" "$TMP/newer"
mv "$TMP/newer" "$TMP/tty-dir/x86_64.json.pending"
echo a >&3
prompts 2
echo r >&3
exec 3>&-
wait "$pid"
status=$?
tr -d '\r' <"$TMP/tty" >"$TMP/tty.txt"
check "accept a replaced one, reject the next (status $status: one left)" \
	test "$status" -eq 1
check "... the golden is what was shown, not the replacement" \
	cmp "$U/expected/x86_64-6.12.json" "$TMP/tty-dir/x86_64.json"
check "... the replacement kept for the next review" \
	cmp "$U/expected/x86_64-6.13.json" "$TMP/tty-dir/x86_64.json.pending"
check "... and said" grep -q \
	"^\"$TMP/tty-dir/x86_64.json.pending\" changed since it was shown: kept for the next review" \
	"$TMP/tty.txt"
check "... r rejected the next: its pending file gone, its golden untouched" \
	sh -c "test ! -e '$TMP/tty-dir/arm.json.pending' &&
	       cmp '$U/expected/arm.json' '$TMP/tty-dir/arm.json'"

# Answers are whole words or their first letter; anything else asks again;
# the end of input quits, leaving the rest.
fresh "$TMP/tty-dir"
printf 'accepted\nskip\n' >"$TMP/words"
script -qec "'$SYSFARM' review --matrix '$M' --expected '$TMP/tty-dir'" \
	/dev/null <"$TMP/words" >"$TMP/tty" 2>&1
status=$?
tr -d '\r' <"$TMP/tty" >"$TMP/tty.txt"
check "'accepted' is no answer, 'skip' skips, the end quits (status $status)" \
	test "$status" -eq 1
check "... it asked again, then skipped and quit: nothing touched" sh -c "
	test \"\$(grep -o 'accept, reject, skip, quit?' '$TMP/tty' | wc -l)\" -eq 3 &&
	diff -r '$U/expected' '$TMP/tty-dir' -x '*.pending' &&
	grep -qx '2 pending snapshots left in $TMP/tty-dir' '$TMP/tty.txt'"
# An ABI table's allowed addition inside an added directory is allowed as
# before: the folded directory says how many; all of them, it is allowed.
fresh "$TMP/allow"
rm "$TMP/allow/arm.json.pending"
cat >"$TMP/allow/abi.yaml" <<EOT
- path: /sys/class/leds/*/power/control
  mode: RW
  source: Documentation/ABI/testing/sysfs-devices-power
  allow:
    added: runtime PM's control
EOT
review "$TMP/allow"
check "an allowed file in an added directory: counted in it" grep -qx \
	'  + class/leds/gta04:red:aux/power/: dir, 1 entry, 1 allowed' \
	"$TMP/out"
cat >>"$TMP/allow/abi.yaml" <<EOT
- path: /sys/class/leds/*/power
  mode: "0755"
  source: the LED class's device
  allow:
    added: the directory
EOT
review "$TMP/allow"
check "... the directory allowed too: the whole of it, each reason once" \
	grep -qx "  + class/leds/gta04:red:aux/power/: dir, 1 entry (allowed: the directory; runtime PM's control)" \
	"$TMP/out"
check "... and counted apart" grep -q \
	'^x86_64: DIFF: 1 removed, 4 changed, 1 added, 1 added (allowed) against ' \
	"$TMP/out"
done_testing
