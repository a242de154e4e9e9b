#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The documents say what the code does: every `sysfarm COMMAND ...` shown
# in README.md and doc/*.md (in a code block, or in `inline code`, also
# without the "sysfarm", as in `check --allow-added`) names a command
# `sysfarm --help` lists, and each long option it shows is one that
# `sysfarm COMMAND --help` lists; every relative link points to a file
# that exists, and a #fragment to one of its headings. Last, a document
# that breaks each rule shows that the checks catch it.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
DOC_AWK=tests/doc/doc.awk

"$SYSFARM" --help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' >"$TMP/commands"
check "sysfarm --help lists the commands ($(wc -l <"$TMP/commands"))" \
	test "$(wc -l <"$TMP/commands")" -ge 10
cmds=$(paste -sd'|' "$TMP/commands")

# options CMD: the long options `sysfarm CMD --help` lists, into
# $TMP/opt.CMD ("  -j, --jobs N   help" or "  --tap   help"), once.
options() {
	[ -e "$TMP/opt.$1" ] && return
	"$SYSFARM" "$1" --help 2>/dev/null |
		sed -n 's/^  \(-., \)\{0,1\}\(--[a-z-]*\).*/\2/p' >"$TMP/opt.$1"
}

# bad_commands: each command line shown ("FILE:LINE<tab>COMMAND ARGS")
# that does not parse, said why.
bad_commands() {
	set -f
	while IFS='	' read -r where shown; do
		# shellcheck disable=SC2086 # the words as shown, unglobbed
		set -- $shown
		cmd=$1
		shift
		case $cmd in
		[A-Z]* | --help | -h) continue ;; # COMMAND, CMD: placeholders
		esac
		if ! grep -qx -- "$cmd" "$TMP/commands"; then
			echo "$where: sysfarm $shown: no command '$cmd'"
			continue
		fi
		options "$cmd"
		for w in "$@"; do
			w=${w#"${w%%[!\[(\"\']*}"}
			case $w in
			--?*) ;;
			*) continue ;;
			esac
			opt=${w%%[!a-z-]*}
			grep -qx -- "$opt" "$TMP/opt.$cmd" ||
				echo "$where: sysfarm $shown: '$cmd' takes no $opt"
		done
	done
	set +f
}

# heading_ids FILE: the #fragments of FILE's headings, as GitHub makes
# them (lower case, punctuation dropped, a space a '-').
heading_ids() {
	awk '/^```/ { fence = !fence; next }
	     !fence && /^#+ / {
		sub(/^#+ +/, ""); $0 = tolower($0)
		gsub(/[^a-z0-9 _-]/, ""); gsub(/ /, "-"); print
	}' "$1"
}

# bad_links: each link ("FILE:LINE<tab>TARGET") to no file or heading.
bad_links() {
	while IFS='	' read -r where target; do
		file=${where%%:*}
		path=${target%%#*}
		frag=
		case $target in *'#'*) frag=${target#*#} ;; esac
		if [ -z "$path" ]; then
			path=$file
		else
			path=$(dirname "$file")/$path
		fi
		if ! [ -e "$path" ]; then
			echo "$where: $target: no such file"
		elif [ -n "$frag" ] && ! heading_ids "$path" | grep -qx -- "$frag"
		then
			echo "$where: $target: no heading '#$frag' in $path"
		fi
	done
}

total=0
for doc in README.md doc/*.md; do
	awk -v cmds="$cmds" -v what=commands -f "$DOC_AWK" "$doc" >"$TMP/shown"
	n=$(wc -l <"$TMP/shown")
	total=$((total + n))
	bad_commands <"$TMP/shown" >"$TMP/bad"
	check "$doc: the $n sysfarm commands shown parse" test ! -s "$TMP/bad"
	sed 's/^/# /' "$TMP/bad"

	awk -v what=links -f "$DOC_AWK" "$doc" >"$TMP/links"
	bad_links <"$TMP/links" >"$TMP/bad"
	check "$doc: its $(wc -l <"$TMP/links") relative links lead somewhere" \
		test ! -s "$TMP/bad"
	sed 's/^/# /' "$TMP/bad"
done
# Not a test that cannot fail: the documents do show commands...
check "README.md and doc/ show $total sysfarm commands" test "$total" -ge 60

# ... and what they must not show is caught.
cat >"$TMP/bogus.md" <<'EOF'
# A heading

Run `sysfarm check --no-such-option x86_64-sysfs-on` and then
`sysfarm nosuchcmd --json`, or `review --accept --bogus-span`.

```sh
build/sysfarm upgrade --from 6.1 \
	--bogus-continued   # a shell line continued
build/sysfarm diff --json A B | build/sysfarm report --not-after-a-pipe
build/sysfarm diff A B      # what changed (--json; --bogus-noted)
```

[gone](no-such-file.md), [no heading](#no-such-heading),
[there](#a-heading) and [far](https://example.org/--x).
EOF
awk -v cmds="$cmds" -v what=commands -f "$DOC_AWK" "$TMP/bogus.md" |
	bad_commands >"$TMP/bad"
for want in "'check' takes no --no-such-option" "no command 'nosuchcmd'" \
	"'review' takes no --bogus-span" "'upgrade' takes no --bogus-continued" \
	"'report' takes no --not-after-a-pipe" "'diff' takes no --bogus-noted"; do
	check "a document showing it is caught: $want" \
		grep -qF -- "$want" "$TMP/bad"
done
check "and only those" test "$(wc -l <"$TMP/bad")" -eq 6
sed 's/^/# /' "$TMP/bad"
awk -v what=links -f "$DOC_AWK" "$TMP/bogus.md" | bad_links >"$TMP/bad"
check "a link to no file is caught" \
	grep -q ':13: no-such-file.md: no such file$' "$TMP/bad"
check "a link to no heading is caught" \
	grep -qF "#no-such-heading: no heading '#no-such-heading'" "$TMP/bad"
check "and only those" test "$(wc -l <"$TMP/bad")" -eq 2
sed 's/^/# /' "$TMP/bad"
done_testing
