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

printf 'int broken(void) { return }\n' >broken.c
compile broken.o broken.c 2>"$TMP/err"
check "a compiler error is the launcher's failure (status $?)" test $? -ne 0
check "... with the compiler's message" grep -q "expected" "$TMP/err"
check "a source on standard input compiles once" sh -c \
	"echo 'int from_stdin;' | '$CC' gcc -Wp,-MMD,.stdin.d -x c -c -o stdin.o - &&
	 nm stdin.o | grep -q from_stdin"
check "no dependency file: plain ccache runs (gcc --version)" \
	sh -c "'$CC' gcc --version | grep -q '^gcc'"
done_testing
