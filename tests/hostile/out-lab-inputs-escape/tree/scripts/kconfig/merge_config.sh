#!/bin/sh
# merge_config.sh -m -O DIR CONFIG FRAGMENT...: all of them, in order
dir=$3
shift 3
cat "$@" >"$dir/.config.new" && mv "$dir/.config.new" "$dir/.config"
