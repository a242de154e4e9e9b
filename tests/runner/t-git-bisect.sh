#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A maintainer's workflow on their own tree: a kernel git repository made
# from Debian's 6.1 tarball as it ships (no fixture) with a few commits on
# top (harmless ones, one that breaks the build and its fix, one that lets
# max_active accept 0). `update --kernel-src . --expected BASE` blesses a
# baseline from the good commit; `git bisect run sysfarm check --kernel-src
# . --expected BASE` names the commit that changed the ABI and skips the
# one that does not build; `bisect --commit` then verifies that commit
# (its tree built from nothing, the tip with it reverted). sysfarm builds
# a private copy of the repository with patches/series applied: the
# repository stays clean, and each step after the first recompiles only
# what its checkout changed.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
C=x86_64-sysfs-on
BD=$TOP/build/tests/git-bisect
REPO=$TOP/build/tests/git-bisect-linux	# outside BD: the copy is in BD
BASE=$BD/baseline
TARBALL=/usr/src/linux-source-6.1.tar.xz
WQ=kernel/workqueue.c
export CCACHE_DIR="${CCACHE_DIR:-$TOP/build/ccache}"
export GIT_AUTHOR_NAME=sysfarm GIT_AUTHOR_EMAIL=sysfarm@example.invalid
export GIT_COMMITTER_NAME=sysfarm GIT_COMMITTER_EMAIL=sysfarm@example.invalid
export GIT_AUTHOR_DATE='1970-01-01T00:00:00Z'
export GIT_COMMITTER_DATE='1970-01-01T00:00:00Z'
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY

g() {
	git -C "$REPO" "$@"
}

# commit NAME: the working tree's change, recorded in BD/commits by NAME.
commit() {
	g commit -q -a -m "$1" && echo "$(g rev-parse HEAD) $1" >>"$BD/commits"
}

# Debian's tree committed as "base", then the demo commits. Fast zlib and
# no auto gc: repacking 80k objects would cost minutes.
repo_create() {
	rm -rf "$REPO" "$BD/commits" "$BD/repo.stamp" &&
	mkdir -p "$REPO" "$BD" &&
	tar -xf "$TARBALL" -C "$REPO" --strip-components=1 &&
	g init -q -b main &&
	g config core.looseCompression 1 &&
	g config gc.auto 0 &&
	g add -A -f . &&
	g commit -q -m "linux-source-6.1 as Debian ships it" &&
	g tag base &&
	echo "/* sysfarm: a harmless comment */" >>"$REPO/$WQ" &&
	commit harmless-1 &&
	echo "this line does not compile;" >>"$REPO/$WQ" &&
	commit break-the-build &&
	sed -i '$d' "$REPO/$WQ" &&
	commit fix-the-build &&
	patch -s -d "$REPO" -p1 <tests/bisect/0009-let-max-active-accept-0.patch &&
	commit max-active-accepts-0 &&
	echo "/* sysfarm: another harmless comment */" >>"$REPO/$WQ" &&
	commit harmless-2 &&
	echo "/* sysfarm: one more harmless comment */" >>"$REPO/$WQ" &&
	commit harmless-3 &&
	echo "$stamp" >"$BD/repo.stamp"
}

start=$(date +%s)
# The repository is kept while the tarball and this recipe are unchanged.
stamp="$(stat -c %s:%Y "$TARBALL") $(cat "$0" \
	tests/bisect/0009-let-max-active-accept-0.patch | sha256sum)"
if [ "$(cat "$BD/repo.stamp" 2>/dev/null)" = "$stamp" ] &&
   { g bisect reset >/dev/null 2>&1; g checkout -q -f main; } &&
   [ -z "$(g status --porcelain)" ]; then
	echo "# reusing $REPO"
else
	check "a git repository of Debian's 6.1 tree and six commits" \
		repo_create
	echo "# repository made in $(($(date +%s) - start))s"
fi
commit_of() {
	sed -n "s/^\([0-9a-f]*\) $1\$/\1/p" "$BD/commits"
}
bad=$(commit_of max-active-accepts-0)
broken=$(commit_of break-the-build)
check "six commits on top of base" \
	test "$(g rev-list --count base..main)" -eq 6

# The baseline, blessed from the good commit (--force: CI=true writes no
# golden otherwise). Its kernel is built from the farm's ccache: the copy
# and its objects sit where the farm's own 6.1 build has them.
g checkout -q base
rm -rf "$BASE"
mkdir -p "$BASE"
t=$(date +%s)
(cd "$REPO" && CCACHE_STATSLOG=$TMP/ccache.log "$SYSFARM" update --force \
	--matrix "$TOP/matrix.yaml" --build-dir "$BD" --kernel-src . \
	--expected "$BASE" "$C") >"$TMP/base" 2>&1
status=$?
check "update --kernel-src . --expected BASE on the good commit (status $status)" \
	test "$status" -eq 0 -a -f "$BASE/$C.json"
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/base"
hits=0 misses=0
if [ -f "$TMP/ccache.log" ]; then
	CCACHE_STATSLOG=$TMP/ccache.log ccache --show-log-stats -v \
		>"$TMP/stats" 2>&1
	hits=$(sed -n 's/^ *Hits: *\([0-9]*\).*/\1/p' "$TMP/stats" | head -1)
	misses=$(sed -n 's/^ *Misses: *\([0-9]*\).*/\1/p' "$TMP/stats" | head -1)
fi
echo "# baseline: $(($(date +%s) - t))s, ccache $CCACHE_DIR: ${hits:-0} hits, ${misses:-0} misses"
check "... built from Debian's tree with patches/series: the fixture's queues" \
	jq -e '.roots["bus/workqueue"].entries.devices.entries.sysfarm_percpu' \
	"$BASE/$C.json"
check "... the repository is untouched (git status clean)" \
	test -z "$(g status --porcelain --ignored)"

# git bisect run, from the commit that breaks the build so that it is
# tried first: it must be skipped, not called bad. Each step's count of
# compiled objects is kept beside its exit status.
g checkout -q main
check "git bisect start main base" g bisect start main base
g checkout -q "$broken"
cat >"$TMP/step" <<EOT
#!/bin/sh
"$SYSFARM" check --matrix "$TOP/matrix.yaml" --build-dir "$BD" \\
	--kernel-src . --expected "$BASE" "$C"
s=\$?
echo "\$(git rev-parse HEAD) \$s \$(cat "$BD"/tree/kernels/*/build.log |
	grep -c '^  CC ')" >>"$TMP/steps"
exit \$s
EOT
chmod +x "$TMP/step"
t=$(date +%s)
(cd "$REPO" && git bisect run "$TMP/step") >"$TMP/bisect" 2>&1
status=$?
secs=$(($(date +%s) - t))
g bisect log >"$TMP/log" 2>&1
g bisect reset >/dev/null 2>&1
steps=$(grep -c '^running ' "$TMP/bisect")
skipped=$(grep -c '^# skip:' "$TMP/log")
echo "# git bisect run: $steps steps, $skipped skipped, ${secs}s; compiled per step: $(awk '{print $3}' "$TMP/steps" | paste -sd' ')"
check "git bisect run exits 0 (status $status)" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/bisect"
check "names the commit that lets max_active accept 0 as the first bad" \
	grep -qx "$bad is the first bad commit" "$TMP/bisect"
check "the commit that breaks the build was skipped (125)" \
	grep -q "^# skip: \[$broken\]" "$TMP/log"
check "at most 4 steps for 6 commits and the skip ($steps)" \
	test "$steps" -le 4
check "every step compiled at most 20 objects: only what its checkout changed" \
	test "$(awk '$3 > 20' "$TMP/steps" | wc -l)" -eq 0
on_main_clean() {
	[ "$(g rev-parse HEAD)" = "$(g rev-parse main)" ] &&
	[ -z "$(g status --porcelain --ignored)" ]
}
check "git bisect reset leaves main checked out and clean" on_main_clean

# The commit git named, checked as bisect checks a first bad patch: its
# tree built from nothing, the tip (main) with it reverted. The
# repository is only read: nothing under it, .git included, is newer.
touch "$TMP/before"
t=$(date +%s)
(cd "$REPO" && "$SYSFARM" bisect --matrix "$TOP/matrix.yaml" \
	--build-dir "$BD" --kernel-src . --expected "$BASE" \
	--commit "$bad" "$C") >"$TMP/verify" 2>"$TMP/verify.err"
status=$?
echo "# bisect --commit: $(($(date +%s) - t))s"
check "bisect --commit FIRST-BAD exits 0 (status $status)" \
	test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/verify" "$TMP/verify.err"
check "... names it, with its entry (max_active 0 no longer refused)" sh -c \
	"grep -qx 'first bad commit: $bad max-active-accepts-0' '$TMP/verify' &&
	 grep -q 'probes\[1\]\.result.*\"EINVAL\" -> \"ok\"' '$TMP/verify'"
check "... and ends with verify: PASS, revert: PASS" \
	test "$(tail -1 "$TMP/verify")" = "verify: PASS, revert: PASS"
check "... the revert patch is git's, in the build directory" \
	grep -q '^-.*val < 0' "$BD/bisect/$C.revert.patch"
check "... the repository only read: nothing in it newer, main clean" sh -c \
	"test -z \"\$(find '$REPO' -newer '$TMP/before' | head -3)\" &&
	 [ \"\$(git -C '$REPO' rev-parse HEAD)\" = \"\$(git -C '$REPO' rev-parse main)\" ] &&
	 [ -z \"\$(git -C '$REPO' status --porcelain --ignored)\" ]"
done_testing
