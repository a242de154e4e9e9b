#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bad input under `git bisect run` stops the bisection instead of marking
# the commit bad: a real `git bisect run` with a broken matrix.
. "$(dirname "$0")/../lib.sh"

R=$TMP/repo
git init -q "$R"
for i in 1 2 3 4; do
	echo "$i" >"$R/f"
	git -C "$R" add f
	git -C "$R" -c user.name=t -c user.email=t@t commit -qm "commit $i"
done
printf 'axes: [\n' >"$TMP/broken.yaml"

"$SYSFARM" check --matrix "$TMP/broken.yaml" --kernel-src "$R" \
	2>"$TMP/err"
check "bad matrix outside a bisection: exit 2 (status $?)" test $? -eq 2

# bisect_run DIR: git bisect run in DIR over the four commits.
bisect_run() {
	(cd "$1" && git bisect start HEAD HEAD~3 >/dev/null &&
	 git bisect run "$SYSFARM" check --matrix "$TMP/broken.yaml" \
		--kernel-src . >"$TMP/out" 2>&1)
}

bisect_run "$R"
check "git bisect run stops (status $?)" test $? -ne 0
check "... because sysfarm exited 128" \
	grep -q 'exit code 128 from' "$TMP/out"
check "... saying why" grep -q \
	'^sysfarm: a git bisect is in progress: exit status 128 stops it' \
	"$TMP/out"
check "... and no commit was marked bad or good" \
	test "$(git -C "$R" bisect log | grep -c '^git bisect \(bad\|good\)')" -eq 0
git -C "$R" bisect reset -q 2>/dev/null || git -C "$R" bisect reset >/dev/null

# A worktree keeps its bisection in the git directory its .git file names.
git -C "$R" worktree add -q "$TMP/wt" 2>/dev/null
bisect_run "$TMP/wt"
check "in a worktree (.git is a file): stops too" \
	grep -q 'exit code 128 from' "$TMP/out"
git -C "$TMP/wt" bisect reset >/dev/null 2>&1

"$SYSFARM" check --matrix "$TMP/broken.yaml" --kernel-src "$R" \
	2>"$TMP/err"
check "after git bisect reset: exit 2 again (status $?)" test $? -eq 2
done_testing
