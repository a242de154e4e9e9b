#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `git bisect run sysfarm check --kernel-src .` in a kernel git repository
# made from the prepared tree (the good base) plus one commit per demo patch
# of tests/bisect/series: the commit that breaks the build is skipped (125)
# and git names the commit of 0009 (max_active accepts 0) as the first bad.
#
# The repository lives where the farm keeps its 6.1 tree, BD/$SRC61/src,
# and sysfarm runs with --build-dir BD, so the paths from its object
# directory to the tree (../../$SRC61/src) are those of the farm's own
# builds: with the farm's ccache, the first build is mostly
# cache hits. The repository is kept while the tree and the demo patches
# are unchanged.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
C=x86_64-sysfs-on
BD=$TOP/build/tests/git-bisect
REPO=$BD/$SRC61/src
export CCACHE_DIR="${CCACHE_DIR:-$TOP/build/ccache}"
export GIT_AUTHOR_NAME=sysfarm GIT_AUTHOR_EMAIL=sysfarm@example.invalid
export GIT_COMMITTER_NAME=sysfarm GIT_COMMITTER_EMAIL=sysfarm@example.invalid
export GIT_AUTHOR_DATE='1970-01-01T00:00:00Z'
export GIT_COMMITTER_DATE='1970-01-01T00:00:00Z'
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

g() {
	git -C "$REPO" "$@"
}

# The state of the farm's tree, read while no sysfarm is patching it.
# Prepares the 6.1 tree with patches/series (a no-op when it already is).
farm_prepare() {
	"$SYSFARM" build "$C" >"$TMP/prep" 2>&1 ||
		{ cat "$TMP/prep"; return 1; }
}

# The demo patches that come after patches/series' own.
demo_patches() {
	sed -n 's/^[ \t]*\([^# \t][^ \t#]*\).*/\1/p' patches/series |
		while read -r p; do realpath "patches/$p"; done >"$TMP/own"
	sed -n 's/^[ \t]*\([^# \t][^ \t#]*\).*/\1/p' tests/bisect/series |
		while read -r p; do realpath "tests/bisect/$p"; done |
		grep -vxF -f "$TMP/own"
}

# Copies the farm's 6.1 tree to REPO while it has patches/series applied: another
# sysfarm (a bisect) may repatch it between our prepare and our copy.
copy_prepared() {
	for _ in 1 2 3; do
		rm -rf "$REPO"
		mkdir -p "${REPO%/*}" &&
		farm_prepare &&
		flock "$TOP/build/.lock" cp -a "$TOP/build/$SRC61/src" "$REPO" &&
		farm_prepare || return 1
		copied=$(jq -c '{tarball, series}' "$REPO/.sysfarm-state.json")
		[ "$copied" = "$(farm_state)" ] && return 0
	done
	echo "the 6.1 tree kept being repatched by other sysfarm runs"
	return 1
}

# REPO: the farm's tree committed as "base", then one commit per patch;
# BD/commits maps each patch file name to its commit. Fast zlib and no
# auto gc: repacking 80k objects would cost minutes.
repo_create() {
	rm -rf "$BD/kernels" "$BD/commits" "$BD/repo.stamp" &&
	mkdir -p "$BD" &&
	copy_prepared &&
	rm "$REPO/.sysfarm-state.json" &&
	g init -q -b main &&
	g config core.looseCompression 1 &&
	g config gc.auto 0 &&
	g add -A -f . &&
	g commit -q -m "linux-source with patches/series (sysfarm's 6.1 tree)" &&
	g tag base &&
	for p in $(demo_patches); do
		g am -q "$p" || return 1
		echo "$(g rev-parse HEAD) ${p##*/}" >>"$BD/commits"
	done &&
	echo "$copied $(cat tests/bisect/series $(demo_patches) | sha256sum)" \
		>"$BD/repo.stamp"
}

# The repository is valid while the farm's prepared tree (its extraction
# and patches/series) and the demo patches are those it was made from.
stamp_now() {
	farm_prepare &&
	echo "$(farm_state) $(cat tests/bisect/series $(demo_patches) | sha256sum)"
}

start=$(date +%s)
if ! stamp=$(stamp_now); then
	skip "git bisect run" "the farm cannot prepare its 6.1 tree: $(tail -1 "$TMP/prep")"
	done_testing
	exit 0
fi
# A second look when another sysfarm had the tree repatched at the first.
[ "$(cat "$BD/repo.stamp" 2>/dev/null)" = "$stamp" ] || stamp=$(stamp_now)
if [ "$(cat "$BD/repo.stamp" 2>/dev/null)" = "$stamp" ] &&
   { g bisect reset >/dev/null 2>&1; g checkout -q -f main; } &&
   [ -z "$(g status --porcelain)" ]; then
	echo "# reusing $REPO"
else
	check "a git repository from the 6.1 tree prepared with patches/series and the demo patches" \
		repo_create
	echo "# repository made in $(($(date +%s) - start))s"
fi
ndemo=$(demo_patches | wc -l)
check "one commit per demo patch ($ndemo) on top of base" \
	test "$(g rev-list --count base..main)" -eq "$ndemo"
commit_of() {
	sed -n "s/^\([0-9a-f]*\) $1-.*/\1/p" "$BD/commits"
}
bad=$(commit_of 0009)
broken=$(commit_of 0006)

# sysfarm check in REPO as git bisect run calls it: the tree's top as cwd.
sysfarm_check() {
	(cd "$REPO" && "$SYSFARM" check --matrix "$TOP/matrix.yaml" \
		--build-dir "$BD" --kernel-src . "$C")
}

# The good base, built first: from the farm's ccache if the paths match.
g checkout -q base
fresh=$( [ -d "$BD/kernels" ] && echo no || echo yes)
t=$(date +%s)
CCACHE_STATSLOG=$TMP/ccache.log sysfarm_check >"$TMP/base" 2>&1
status=$?
check "the base passes (status $status)" test "$status" -eq 0
hits=0 misses=0
if [ -f "$TMP/ccache.log" ]; then
	CCACHE_STATSLOG=$TMP/ccache.log ccache --show-log-stats -v \
		>"$TMP/stats" 2>&1
	hits=$(sed -n 's/^ *Hits: *\([0-9]*\).*/\1/p' "$TMP/stats" | head -1)
	misses=$(sed -n 's/^ *Misses: *\([0-9]*\).*/\1/p' "$TMP/stats" | head -1)
fi
echo "# base: $(($(date +%s) - t))s, fresh object dir: $fresh, ccache $CCACHE_DIR: ${hits:-0} hits, ${misses:-0} misses"

# Start on the commit that breaks the build, so that git bisect run tries
# it first: it must be skipped, not called bad. git bisect reset returns to
# main.
g checkout -q main
check "git bisect start main base" g bisect start main base
g checkout -q "$broken"
t=$(date +%s)
(cd "$REPO" && git bisect run "$SYSFARM" check --matrix "$TOP/matrix.yaml" \
	--build-dir "$BD" --kernel-src . "$C") >"$TMP/bisect" 2>&1
status=$?
secs=$(($(date +%s) - t))
g bisect log >"$TMP/log" 2>&1
g bisect reset >/dev/null 2>&1
steps=$(grep -c '^running ' "$TMP/bisect")
built=$(grep -c 'kernel [0-9a-f]* built in' "$TMP/bisect")
skipped=$(grep -c '^# skip:' "$TMP/log")
echo "# git bisect run: $steps steps, $built kernels built, $skipped skipped, ${secs}s"
check "git bisect run exits 0 (status $status)" test "$status" -eq 0
check "names the commit of 0009 as the first bad" \
	grep -qx "$bad is the first bad commit" "$TMP/bisect"
check "the commit of 0006 (build broken) was skipped" \
	grep -q "^# skip: \[$broken\]" "$TMP/log"
log2=0
while [ $((1 << log2)) -lt "$ndemo" ]; do log2=$((log2 + 1)); done
check "at most ceil(log2 $ndemo) + 1 steps and the skip ($steps)" \
	test "$steps" -le $((log2 + 2))
on_main_clean() {
	[ "$(g rev-parse HEAD)" = "$(g rev-parse main)" ] &&
	[ -z "$(g status --porcelain)" ]
}
check "git bisect reset leaves main checked out and clean" on_main_clean
done_testing
