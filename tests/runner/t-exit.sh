#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The one exit policy (runner/lib/exitcode.h) where goldens are read: a
# golden that cannot be parsed is 2, one that cannot be read 125, in check,
# update, upgrade, review and abi alike, the file named. "Cannot be read" is
# a golden of mode 000 read by nobody (root reads any file). Nothing is
# built: check and update stop before the build.
. "$(dirname "$0")/../lib.sh"

chmod 755 "$TMP"
M=$TMP/m
mkdir -p "$M/expected" "$M/patches" "$TMP/build" "$TMP/tree/Documentation/ABI"
chmod 777 "$TMP/build"
: >"$M/patches/series"
sed "s|\.\./\.\./snapshotter/init|$TOP/snapshotter/init|" \
	"$TOP/tests/upgrade/matrix.yaml" >"$M/matrix.yaml"
cp "$TOP/tests/upgrade/frag.config" "$M/"

# goldens CMD FILE HOW: tests/upgrade's goldens, for review x86_64's
# pending file (for check it would be bad input under CI=true); then
# expected/FILE as HOW says: bad (does not parse) or unreadable.
goldens() {
	rm -rf "$M/expected"
	cp -r "$TOP/tests/upgrade/expected" "$M/expected"
	echo '[]' >"$M/expected/abi.yaml"
	[ "$1" = review ] &&
		cp "$M/expected/x86_64-6.12.json" "$M/expected/x86_64.json.pending"
	shift
	case $2 in
	bad) cp "$TOP/tests/upgrade/malformed.json" "$M/expected/$1" ;;
	unreadable) chmod 000 "$M/expected/$1" ;;
	esac
}

# args CMD: what CMD needs besides the matrix to read x86_64's golden.
args() {
	case $1 in
	check | update) echo --prebuilt ;;
	abi) echo "--goldens --kernel-tree $TMP/tree" ;;
	esac
}

# exits WANT HOW FILE CMD...: each CMD, as nobody, exits WANT with FILE
# made HOW, and names it.
exits() {
	want=$1 how=$2 file=$3
	shift 3
	for cmd in "$@"; do
		goldens "$cmd" "$file" "$how"
		# shellcheck disable=SC2046 # args are words
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$SYSFARM" $cmd $(args $cmd) --matrix "$M/matrix.yaml" \
			--build-dir "$TMP/build" x86_64 >"$TMP/out" 2>"$TMP/err"
		status=$?
		check "$cmd: $file $how: exit $want (status $status)" \
			test $status -eq "$want"
		check "... said, naming it" grep -q "expected/$file:" "$TMP/err"
	done
}

exits 2 bad x86_64.json check update upgrade review abi
exits 125 unreadable x86_64.json check update upgrade review abi
# review reads the pending file as every command reads a golden
exits 2 bad x86_64.json.pending review
exits 125 unreadable x86_64.json.pending review
check "nothing was built" test -z "$(ls "$TMP/build")"
done_testing
