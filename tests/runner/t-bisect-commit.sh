#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `sysfarm bisect --commit C` refuses what it cannot check before it
# builds anything, and reads the repository without writing to it: no
# commit by that name (or a name git would take for an option), a commit
# without a parent to revert it to, --commit without --kernel-src or with
# --good. The checks themselves build and boot (t-git-bisect.sh).
. "$(dirname "$0")/../lib.sh"
C=x86_64-sysfs-on
R=$TMP/repo
mkdir -p "$R" "$TMP/exp"
cp "$TOP/expected/$C.json" "$TMP/exp/"
git init -q "$R"
for i in 1 2; do
	echo "all: ; @echo $i" >"$R/Makefile"
	git -C "$R" add Makefile
	git -C "$R" -c user.name=t -c user.email=t@t commit -qm "commit $i"
done
root=$(git -C "$R" rev-parse HEAD~1)
# A stat change git would refresh the index for, were it let to write it
touch -d '-1 minute' "$R/Makefile"
touch "$TMP/before"

# bisect_commit ARGS...: bisect --commit in a build directory of its own
bisect_commit() {
	"$SYSFARM" bisect --matrix "$TOP/matrix.yaml" --build-dir "$TMP/b" \
		--expected "$TMP/exp" "$@" "$C" >"$TMP/out" 2>"$TMP/err"
}

bisect_commit --kernel-src "$R" --commit no-such-commit
check "no such commit: exit 2 (status $?)" test $? -eq 2
check "... naming it and the repository" grep -q \
	"^sysfarm: --commit 'no-such-commit': no commit of '$R'" "$TMP/err"
bisect_commit --kernel-src "$R" --commit --all
check "a name git would take for an option: exit 2 (status $?)" \
	test $? -eq 2
bisect_commit --kernel-src "$R" --commit "$root"
check "a commit without a parent to revert it to: exit 2 (status $?)" \
	test $? -eq 2
check "... said of the revert's git diff" grep -q \
	"^sysfarm: --commit $root: 'git diff' failed in '$R'" "$TMP/err"
check "... nothing built" test ! -e "$TMP/b/tree/kernels"
check "the repository is only read: nothing in it is newer" \
	test -z "$(find "$R" -newer "$TMP/before")"
bisect_commit --commit HEAD
check "--commit without --kernel-src: exit 2 (status $?)" test $? -eq 2
check "... saying it needs one" grep -q \
	"^sysfarm: --commit checks a commit of --kernel-src's repository" \
	"$TMP/err"
bisect_commit --kernel-src "$R" --commit HEAD --good 1
check "--commit with --good: exit 2 (status $?)" test $? -eq 2
done_testing
