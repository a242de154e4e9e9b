#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/sysfarm-cc, the compiler launcher of kernel builds: ccache's depend
# mode hits, yet an object whose source or header .incbin's a file is never
# handed back from the cache after that file changed (arm's piggy.S).
. "$(dirname "$0")/../lib.sh"
CC=$TOP/build/sysfarm-cc
export CCACHE_DIR="$TMP/ccache"
unset CCACHE_DISABLE CCACHE_DEPEND
cd "$TMP" || exit 1

# compile OBJ SRC: as kbuild does, with a dependency file
compile() {
	"$CC" gcc -Wp,-MMD,".$1.d" -c -o "$1" "$2"
}

# counter NAME: one of ccache's statistics counters
counter() {
	ccache --print-stats | awk -v n="$1" '$1 == n { v = $2 } END { print v + 0 }'
}

printf 'int answer(void) { return 42; }\n' >plain.c
check "a plain C file compiles" compile plain.o plain.c
check "... in depend mode: a miss without running the preprocessor" \
	test "$(counter cache_miss)" -eq 1 -a "$(counter preprocessed_cache_miss)" -eq 0
rm plain.o
compile plain.o plain.c
check "... and comes from the cache the second time" \
	test "$(counter direct_cache_hit)" -eq 1 -a -f plain.o

printf '\t.section .rodata\n\t.incbin "data.bin"\n' >piggy.S
printf '#define BLOB asm(".incbin \\"data.bin\\"")\n' >blob.h
printf '#include "blob.h"\nBLOB;\n' >blob.c
for word in firstword secondword thirdword; do
	echo "$word" >data.bin
	compile piggy.o piggy.S
	check ".incbin in the source: the object holds '$word'" \
		sh -c "strings piggy.o | grep -qx $word"
	compile blob.o blob.c
	check ".incbin in a header: the object holds '$word'" \
		sh -c "strings blob.o | grep -qx $word"
done

# A compiler that logs its runs, to see what the launcher runs.
printf '#!/bin/sh\necho "$*" >>"%s/runs"\nexec gcc "$@"\n' "$TMP" >countgcc
chmod +x countgcc
runs() {
	wc -l <"$TMP/runs"
}
: >runs
printf '\t.section .rodata\n\t.incbin "data2.bin"\n' >piggy2.S
echo fourthword >data2.bin
"$CC" ./countgcc -Wp,-MMD,.piggy2.o.d -c -o piggy2.o piggy2.S
check "a miss of an .incbin object compiles it once ($(runs) run)" \
	test "$(runs)" -eq 1
check "... and holds 'fourthword'" sh -c "strings piggy2.o | grep -qx fourthword"
echo fifthword >data2.bin
"$CC" ./countgcc -Wp,-MMD,.piggy2.o.d -c -o piggy2.o piggy2.S
check "a hit of it compiles it again (runs: $(runs))" test "$(runs)" -eq 2
check "... and holds 'fifthword'" sh -c "strings piggy2.o | grep -qx fifthword"

echo sixthword >data2.bin
CCACHE_DISABLE=1 "$CC" ./countgcc -Wp,-MMD,.piggy2.o.d -c -o piggy2.o piggy2.S
check "CCACHE_DISABLE: the compiler once, no search (runs: $(runs))" \
	test "$(runs)" -eq 3
check "... and the object holds 'sixthword'" \
	sh -c "strings piggy2.o | grep -qx sixthword"

printf '#!/bin/sh\necho prefix >>"%s/runs"\nexec "$@"\n' "$TMP" >prefix
chmod +x prefix
CCACHE_DISABLE=1 CCACHE_PREFIX="$TMP/prefix" "$CC" gcc -Wp,-MMD,.piggy2.o.d \
	-c -o piggy2.o piggy2.S
check "... through ccache, which keeps its CCACHE_PREFIX" \
	test "$(tail -n 1 runs)" = prefix
CCACHE_DISABLE=1 CCACHE_NODISABLE=1 "$CC" ./countgcc -Wp,-MMD,.piggy2.o.d \
	-c -o piggy2.o piggy2.S
check "CCACHE_NODISABLE too: ccache decides; the object holds 'sixthword'" \
	sh -c "strings piggy2.o | grep -qx sixthword"
echo seventhword >data2.bin
CCACHE_DISABLE=1 CCACHE_NODISABLE=1 "$CC" ./countgcc -Wp,-MMD,.piggy2.o.d \
	-c -o piggy2.o piggy2.S
check "... and 'seventhword' after a change" \
	sh -c "strings piggy2.o | grep -qx seventhword"

# The compiler named through ccache's masquerade directory, as Debian's
# /usr/lib/ccache does it: the .incbin object is still compiled anew.
mkdir masq
ln -s "$(command -v ccache)" masq/gcc
for word in eighthword ninthword; do
	echo "$word" >data.bin
	PATH="$TMP/masq:$PATH" compile piggy.o piggy.S
	check ".incbin, gcc through ccache's masquerade: the object holds '$word'" \
		sh -c "strings piggy.o | grep -qx $word"
done

# Paths under CCACHE_BASEDIR reach the compiler relative to the working
# directory where they name its inputs; other paths stay as they are.
mkdir -p base/src/inc base/obj/k1 base/obj/k2 outside
printf '#define ANSWER 42\n' >base/src/inc/answer.h
printf '#define QUESTION 6\n' >outside/question.h
printf '#include "answer.h"\n#include "question.h"\nint a = ANSWER * QUESTION;\n' \
	>base/src/rel.c
: >runs
hits=$(counter direct_cache_hit)
for k in k1 k2; do
	(cd "base/obj/$k" && CCACHE_BASEDIR="$TMP/base/" "$CC" "$TMP/countgcc" \
		-Wp,-MMD,.rel.o.d -MT "$TMP/base/obj/rel.o" -I "$TMP/base/src/inc" \
		-I"$TMP/outside" -c -o "$TMP/base/obj/$k/rel.o" "$TMP/base/src/rel.c")
done
check "the source and -I DIR under the base directory: relative for the compiler; -o's file and a directory outside it stay absolute" \
	grep -qF -- "-I ../../src/inc -I$TMP/outside -c -o $TMP/base/obj/k1/rel.o ../../src/rel.c" runs
check "... and so does the make target -MT names" \
	sh -c "tr -s ' \\\\\n' '\n' <base/obj/k1/.rel.o.d | grep -qxF '$TMP/base/obj/rel.o:'"
check "... the object is right" sh -c "nm base/obj/k1/rel.o | grep -q ' a\$'"
echo 'int dash;' >base/obj/k1/-dash.c
(cd base/obj/k1 && CCACHE_BASEDIR="$TMP/base" "$CC" gcc -Wp,-MMD,.dash.o.d \
	-c -o dash.o "$TMP/base/obj/k1/-dash.c")
check "... a source named -dash.c stays a source (./-dash.c)" \
	sh -c "nm base/obj/k1/dash.o | grep -q ' dash\$'"
check "... and another directory at the same depth hits the cache" \
	test "$(counter direct_cache_hit)" -eq $((hits + 1)) -a -f base/obj/k2/rel.o

printf 'int broken(void) { return }\n' >broken.c
compile broken.o broken.c 2>"$TMP/err"
check "a compiler error is the launcher's failure (status $?)" test $? -ne 0
check "... with the compiler's message" grep -q "expected" "$TMP/err"
check "a source on standard input compiles once" sh -c \
	"echo 'int from_stdin;' | '$CC' gcc -Wp,-MMD,.stdin.d -x c -c -o stdin.o - &&
	 nm stdin.o | grep -q from_stdin"
check "no dependency file: plain ccache runs (gcc --version)" \
	sh -c "'$CC' gcc --version | grep -q '^gcc'"
mkdir bin
printf '#!/bin/sh\nexit 99\n' >bin/ccache
chmod +x bin/ccache
PATH="$TMP/bin:$PATH" "$CC" gcc --version >/dev/null
check "... ccache it is: a failing one fails it (status $?)" test $? -eq 99
done_testing
