#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Options: each command's --help lists exactly the options it takes (the
# list below is the contract), each listed one is taken with a value of the
# kind its usage names, and the common options work on every command that
# loads the matrix.
. "$(dirname "$0")/../lib.sh"

# The groups of options commands share (cmd/ui.h), and which a command
# takes: those of the others are refused, naming the option and the command.
matrix="--matrix --build-dir"
source="--series --tarball --kernel-src"
build="--jobs --builds"
boot="--prebuilt --accel --result --backend --append --timeout --boots"
output="--junit --markdown --html --kcidb --origin"
golden="--expected --redactions --results"
FARM_CMDS="list fetch build run shell lava-jobs check update review bisect abi
	upgrade"
run="matrix source build boot"

# groups CMD: the groups CMD takes.
groups() {
	case $1 in
	list | abi) echo matrix source ;;
	fetch | review | upgrade) echo matrix ;;
	build) echo matrix source build ;;
	run | shell | lava-jobs | update | bisect) echo $run ;;
	check) echo $run output ;;
	diff) ;;
	report) echo output ;;
	esac
}

# options CMD: the long options CMD takes, one a line, sorted: its own,
# then its groups'.
options() {
	c=$1
	case $1 in
	list) set -- --json --github --kernels ;;
	fetch | build | run | shell) set -- ;;
	lava-jobs) set -- --url ;;
	check) set -- $golden --allow-added --tap --color ;;
	update) set -- --force $golden ;;
	review) set -- --accept --reject --color --expected --redactions ;;
	bisect) set -- --good --bad --allow-added --expected --commit ;;
	abi) set -- --table --goldens --kernel-tree --snapshot --kconfig ;;
	upgrade) set -- --axis --from --to --expected --redactions \
		--snapshots --no-renames --full --markdown --json --no-origin ;;
	diff) set -- --json --color --no-renames --full --redactions ;;
	report) set -- --tap ;;
	esac
	for g in $(groups "$c"); do
		eval "set -- \"\$@\" \$$g"
	done
	printf '%s\n' "$@" --help | sort
}

# A value of the kind a usage line names: "--jobs N", "--accel tcg|kvm".
value() {
	case $1 in
	N | M | SECONDS) echo 1 ;;
	WHEN) echo never ;;
	*'|'*) echo "${1%%|*}" ;;
	*) echo "$TMP/x" ;;
	esac
}

: >"$TMP/labels"
for cmd in $FARM_CMDS diff report; do
	"$SYSFARM" $cmd --help >"$TMP/help" 2>"$TMP/err"
	check "$cmd --help: exit 0, nothing on stderr (status $?)" \
		sh -c "test $? -eq 0 && ! test -s '$TMP/err'"
	check "$cmd --help starts with its usage line" \
		grep -q "^usage: sysfarm $cmd " "$TMP/help"
	# "  -j, --jobs N   help" or "  --tap   help": the option, its value
	sed -n 's/^  \(-., \)\{0,1\}\(--[a-z-]*\)\( [^ ]*\)\{0,1\}  .*/\2\3/p' \
		"$TMP/help" >"$TMP/listed"
	sed "s/^/$cmd /; s/ *\$//" "$TMP/listed" >>"$TMP/labels"
	cut -d' ' -f1 "$TMP/listed" | sort >"$TMP/actual"
	options $cmd >"$TMP/expect"
	check "$cmd --help lists every option it takes, and only those" \
		diff -u "$TMP/expect" "$TMP/actual"
	check "$cmd --help fits 80 columns" \
		sh -c "! grep -q '.\{80\}' '$TMP/help'"
	while read -r opt argh; do
		[ "$opt" = --help ] && continue
		set -- "$opt"
		[ -n "$argh" ] && set -- "$opt" "$(value "$argh")"
		"$SYSFARM" $cmd "$@" --zz-unknown 2>"$TMP/err" >/dev/null
		check "$cmd takes $*" \
			grep -q "^sysfarm $cmd: unknown option '--zz-unknown'" \
			"$TMP/err"
	done <"$TMP/listed"
	"$SYSFARM" $cmd --zz-unknown 2>"$TMP/err" >/dev/null
	check "$cmd: an unknown option is exit 2 (status $?)" test $? -eq 2
	check "... said in one line, pointing to --help" sh -c \
		"test \$(wc -l <'$TMP/err') -eq 1 && grep -q \"'sysfarm $cmd --help' lists them\" '$TMP/err'"
done

# One meaning per name: an option takes the same kind of value (or none)
# in every command that has it (upgrade's --markdown FILE too).
cut -d' ' -f2- "$TMP/labels" | sort -u |
	cut -d' ' -f1 | uniq -d >"$TMP/twice"
check "an option's value is of one kind in every command" \
	test ! -s "$TMP/twice"
check "... which the labels show (--color WHEN in check and diff)" \
	grep -qx "diff --color WHEN" "$TMP/labels"

# Every option of a group a command does not take (but as one of its
# own) is refused: exit 2, one line naming the option and the command.
: >"$TMP/expect"
for cmd in $FARM_CMDS diff report; do
	options $cmd >"$TMP/own"
	for g in matrix source build boot output; do
		case " $(groups $cmd) " in *" $g "*) continue ;; esac
		for opt in $(eval echo \$$g); do
			grep -qx -- "$opt" "$TMP/own" && continue
			echo "$cmd $opt" >>"$TMP/expect"
		done
		[ $g = build ] && echo "$cmd -j" >>"$TMP/expect"
	done
done
check "some command refuses an option of each group" sh -c \
	"for o in --matrix --series --jobs --boots --junit; do grep -q \" \$o\$\" '$TMP/expect' || exit 1; done"
while read -r cmd opt; do
	"$SYSFARM" $cmd "$opt" 1 2>"$TMP/err" >/dev/null
	echo "$cmd $opt: status $?: $(cat "$TMP/err")"
done <"$TMP/expect" >"$TMP/actual"
while read -r cmd opt; do
	echo "$cmd $opt: status 2: sysfarm $cmd: option '$opt' is not taken by '$cmd' ('sysfarm $cmd --help' lists them)"
done <"$TMP/expect" >"$TMP/want"
check "an option of a group not taken: refused, naming it and the command" \
	diff -u "$TMP/want" "$TMP/actual"
"$SYSFARM" upgrade --boots=3 2>"$TMP/err"
check "--boots=3 not taken either (status $?)" grep -qx \
	"sysfarm upgrade: option '--boots' is not taken by 'upgrade' ('sysfarm upgrade --help' lists them)" \
	"$TMP/err"
# An option not taken leaves abbreviations to those taken: --acc is
# review's --accept, not ambiguous with --accel.
"$SYSFARM" review --acc --zz-unknown 2>"$TMP/err"
check "review --acc is --accept" grep -q \
	"^sysfarm review: unknown option '--zz-unknown'" "$TMP/err"

# Each group's options, on each command that takes it: a value checked,
# a field set (the matrix it names is the one read), -j for --jobs.
printf 'axes: [\n' >"$TMP/broken.yaml"
for cmd in $FARM_CMDS; do
	case " $(groups $cmd) " in
	*" build "*)
		"$SYSFARM" $cmd --jobs 0 --matrix "$TMP/broken.yaml" 2>"$TMP/err"
		check "$cmd --jobs 0: exit 2 (status $?)" test $? -eq 2
		check "... naming --jobs" grep -qx \
			"sysfarm: --jobs takes a count (1 to 1024), not '0'" \
			"$TMP/err"
		"$SYSFARM" $cmd -j 1 --matrix "$TMP/broken.yaml" 2>"$TMP/err"
		check "$cmd -j 1 --matrix FILE: FILE is read (status $?)" \
			grep -q "^$TMP/broken.yaml:2:1: " "$TMP/err" ;;
	esac
	case " $(groups $cmd) " in
	*" boot "*)
		"$SYSFARM" $cmd --accel xen --matrix "$TMP/broken.yaml" \
			2>"$TMP/err"
		check "$cmd --accel xen names the accelerators" grep -qx \
			"sysfarm: --accel takes tcg or kvm, not 'xen'" \
			"$TMP/err" ;;
	esac
	"$SYSFARM" $cmd --matrix "$TMP/broken.yaml" 2>"$TMP/err"
	check "$cmd --matrix FILE: FILE is read (status $?)" grep -q \
		"^$TMP/broken.yaml:2:1: " "$TMP/err"
done

# Each count from its least to its most: both taken, one past either
# refused naming the range.
for spec in "timeout 1 86400 seconds" "jobs 1 1024 a count" \
	"builds 1 64 a count" "boots 1 64 a count"; do
	set -- $spec
	opt=$1 lo=$2 hi=$3
	shift 3
	what=$*
	for n in "$lo" "$hi"; do
		"$SYSFARM" run "--$opt" "$n" --help >/dev/null 2>"$TMP/err"
		check "--$opt $n: taken (status $?)" test $? -eq 0
	done
	for n in $((lo - 1)) $((hi + 1)); do
		"$SYSFARM" run "--$opt" "$n" --help 2>"$TMP/err" >/dev/null
		check "--$opt $n: exit 2 (status $?)" test $? -eq 2
		check "... naming the range" grep -qx \
			"sysfarm: --$opt takes $what ($lo to $hi), not '$n'" \
			"$TMP/err"
	done
done
# A patch count has no upper bound but the type's: one past it is not
# taken as the largest.
for n in 9223372036854775807 9223372036854775808; do
	"$SYSFARM" bisect --good "$n" 2>&1
	echo "status $?"
done >"$TMP/err"
cat >"$TMP/expect" <<EOT
sysfarm bisect: takes one configuration, not 0 (usage: sysfarm bisect [OPTIONS] CONFIG)
status 2
sysfarm: --good takes a patch count, not '9223372036854775808'
status 2
EOT
check "--good LONG_MAX is taken, one more is not" \
	diff -u "$TMP/expect" "$TMP/err"

# A near miss is named: the option meant, or those an abbreviation could be.
"$SYSFARM" check --alow-added 2>"$TMP/err"
check "--alow-added: exit 2 (status $?)" test $? -eq 2
check "... did you mean --allow-added?" grep -qx \
	"sysfarm check: unknown option '--alow-added' (did you mean --allow-added? 'sysfarm check --help' lists them)" \
	"$TMP/err"
"$SYSFARM" check --j 2>"$TMP/err"
check "--j: ambiguous, its candidates named" grep -qx \
	"sysfarm check: ambiguous option '--j' (one of --jobs, --junit? 'sysfarm check --help' lists them)" \
	"$TMP/err"
"$SYSFARM" check --jobs 2>"$TMP/err"
check "--jobs without its value: said" grep -qx \
	"sysfarm check: --jobs needs a value ('sysfarm check --help')" "$TMP/err"
"$SYSFARM" diff a.json 2>"$TMP/err"
check "diff with one operand: the count and the usage line" grep -qx \
	"sysfarm diff: takes 2 operands, not 1 (usage: sysfarm diff \[OPTIONS\] OLD.json NEW.json)" \
	"$TMP/err"

# One --color, one message, on both commands that take it.
for cmd in check diff; do
	"$SYSFARM" $cmd --color sometimes a b 2>"$TMP/err"
	check "$cmd --color sometimes: exit 2 (status $?)" test $? -eq 2
	check "... naming the choices" grep -qx \
		"sysfarm: --color takes auto, always or never, not 'sometimes'" \
		"$TMP/err"
done
done_testing
