#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Options: each command's --help lists exactly the options it takes (the
# list below is the contract), each listed one is taken with a value of the
# kind its usage names, and the common options work on every command that
# loads the matrix.
. "$(dirname "$0")/../lib.sh"

common="--matrix --build-dir --series --tarball --kernel-src --prebuilt --accel --result
	--backend --append --timeout --jobs --builds --boots"
golden="--expected --redactions --results"
FARM_CMDS="list build run shell lava-jobs check update review bisect abi upgrade"

# options CMD: the long options CMD takes, one a line, sorted.
options() {
	case $1 in
	list) set -- --json --github --kernels $common ;;
	build | run | shell) set -- $common ;;
	lava-jobs) set -- --url $common ;;
	check) set -- $golden --allow-added --junit --markdown --html --tap --color \
		$common ;;
	update) set -- --force $golden $common ;;
	review) set -- --accept --reject --color --expected --redactions \
		$common ;;
	bisect) set -- --good --bad --allow-added --expected --commit $common ;;
	abi) set -- --table --goldens --kernel-tree --snapshot --kconfig \
		$common ;;
	upgrade) set -- --axis --from --to --expected --redactions \
		--snapshots --markdown --json $common ;;
	diff) set -- --json --color --redactions ;;
	report) set -- --tap --junit --markdown --html ;;
	esac
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

for cmd in $FARM_CMDS diff report; do
	"$SYSFARM" $cmd --help >"$TMP/help" 2>"$TMP/err"
	check "$cmd --help: exit 0, nothing on stderr (status $?)" \
		sh -c "test $? -eq 0 && ! test -s '$TMP/err'"
	check "$cmd --help starts with its usage line" \
		grep -q "^usage: sysfarm $cmd " "$TMP/help"
	# "  -j, --jobs N   help" or "  --tap   help": the option, its value
	sed -n 's/^  \(-., \)\{0,1\}\(--[a-z-]*\)\( [^ ]*\)\{0,1\}  .*/\2\3/p' \
		"$TMP/help" >"$TMP/listed"
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

# The common table, on each command that takes it: a value checked, a
# field set (the matrix it names is the one read), -j for --jobs.
printf 'axes: [\n' >"$TMP/broken.yaml"
for cmd in $FARM_CMDS; do
	"$SYSFARM" $cmd --jobs 0 --matrix "$TMP/broken.yaml" 2>"$TMP/err"
	check "$cmd --jobs 0: exit 2 (status $?)" test $? -eq 2
	check "... naming --jobs" grep -qx \
		"sysfarm: --jobs takes a count (1 to 1024), not '0'" "$TMP/err"
	"$SYSFARM" $cmd --accel xen --matrix "$TMP/broken.yaml" 2>"$TMP/err"
	check "$cmd --accel xen names the accelerators" grep -qx \
		"sysfarm: --accel takes tcg or kvm, not 'xen'" "$TMP/err"
	"$SYSFARM" $cmd -j 1 --matrix "$TMP/broken.yaml" 2>"$TMP/err"
	check "$cmd -j 1 --matrix FILE: FILE is read (status $?)" grep -q \
		"^$TMP/broken.yaml:2:1: " "$TMP/err"
done
for cmd in diff report; do
	"$SYSFARM" $cmd --jobs 1 a b 2>"$TMP/err"
	check "$cmd takes no common option" grep -qx \
		"sysfarm $cmd: unknown option '--jobs' ('sysfarm $cmd --help' lists them)" "$TMP/err"
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
		"$SYSFARM" list --matrix "$TOP/matrix.yaml" "--$opt" "$n" \
			>/dev/null 2>"$TMP/err"
		check "--$opt $n: taken (status $?)" test $? -eq 0
	done
	for n in $((lo - 1)) $((hi + 1)); do
		"$SYSFARM" list --matrix "$TOP/matrix.yaml" "--$opt" "$n" \
			2>"$TMP/err"
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
