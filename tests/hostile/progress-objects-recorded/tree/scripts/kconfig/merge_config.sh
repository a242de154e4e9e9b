#!/bin/sh
# merge_config.sh -m -O DIR CONFIG FRAGMENT...: the fragments appended
shift 3
out=$1
shift
cat "$@" >>"$out"
