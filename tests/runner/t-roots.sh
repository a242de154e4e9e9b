#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What is guarded is data: another sysfs subtree, /sys/bus/i2c/devices
# (where the emulated TCA6507 sits), guarded by editing only data, as
# doc/matrix.md's "Guarding another subtree" does: a root appended to the
# matrix's `roots:` and a probe file. The matrix is matrix.yaml reduced to
# x86_64-sysfs-on-tca6507; its snapshot must hold the new tree, and all the
# rest as the golden has it. Roots are boot data: same build key, same
# kernel command line: it runs in the farm's own build directory, where
# t-run.sh built that kernel, and only boots it.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
C=x86_64-sysfs-on-tca6507
D=build/tests
OUT=build/out/$C

# The data edits: the root, after the default ones, and a probe reading
# the chip's i2c name. The rest only keeps one configuration: exclude the
# other values, and drop the include entries that name them.
mkdir -p "$D"
cat >"$D/i2c.probes" <<'EOT'
# The emulated TCA6507 is the i2c client 0x45 of bus 0.
read /sys/bus/i2c/devices/0-0045/name
EOT
sed -e 's#\(\[\|, \|: \)\(patches\|snapshotter\|build\)/#\1../../\2/#g' \
	-e 's#^\(  roots: \[.*\)\]$#\1, bus/i2c/devices]#' \
	-e '/^  - {.*arch: arm,/d' \
	-e '/^  - {source: /d' \
	-e '/^  - {.*sysfs: "off",$/,/}$/d' \
	-e '/^exclude:$/i\  - {tca6507: emulated, arch: x86_64, probes: [i2c.probes]}' \
	matrix.yaml >"$D/roots.yaml"
# matrix.yaml ends in its exclude: list
cat >>"$D/roots.yaml" <<'EOT'
  - {arch: arm}
  - {sysfs: "off"}
  - {tca6507: absent}
  - {source: "6.12"}
  - {source: "7.3"}
EOT

"$SYSFARM" list --json --matrix "$D/roots.yaml" >"$TMP/list"
check "the test matrix is one configuration, $C" \
	test "$(jq -r '[.[].config] | join(" ")' "$TMP/list")" = "$C"
check "... its roots are the default ones and bus/i2c/devices" test \
	"$(jq -r '.[0].roots | join(" ")' "$TMP/list")" = \
	"bus/workqueue class/leds class/gpio bus/i2c/devices"
"$SYSFARM" list --json >"$TMP/real"
check "... and its build key is matrix.yaml's (roots are boot data)" test \
	"$(jq -r .[0].key "$TMP/list")" = \
	"$(jq -r ".[] | select(.config == \"$C\").key" "$TMP/real")"

# The farm's kernel, as patches/series makes it (a test before may have
# built another series in its directory).
"$SYSFARM" build "$C" >"$TMP/out" 2>&1
check "the farm's kernel of $C (status $?)" test $? -eq 0
"$SYSFARM" run --matrix "$D/roots.yaml" --build-dir build "$C" \
	>"$TMP/out" 2>&1
status=$?
check "sysfarm run $C with the added root: exit 0 (status $status)" \
	test "$status" -eq 0
if [ "$status" -ne 0 ]; then
	sed 's/^/# /' "$TMP/out" | tail -20
	done_testing
	exit 0
fi

check "... the farm's kernel of $C, only booted" \
	grep -q "kernel .* is up to date" "$TMP/out"

cpio -i --quiet --to-stdout etc/sysfarm/roots <"$OUT/initramfs.cpio" \
	>"$TMP/actual"
printf '%s\n' bus/workqueue class/leds class/gpio bus/i2c/devices \
	>"$TMP/expect"
check "the initramfs carries the roots, one a line" \
	diff -u "$TMP/expect" "$TMP/actual"

S=$OUT/snapshot.json
I2C='.roots["bus/i2c/devices"].entries'
check "the snapshot holds bus/i2c/devices" \
	jq -e "$I2C | type == \"object\"" "$S"
check "... the adapter i2c-0 and the chip 0-0045, as links" jq -e \
	"[$I2C[\"i2c-0\", \"0-0045\"].type] == [\"link\", \"link\"]" "$S"
check "... 0-0045 leads to the emulator's adapter" jq -e \
	"$I2C[\"0-0045\"].target == \"../../../devices/platform/tca6507-emu/i2c-0/0-0045\"" \
	"$S"
check "... followed: its name file reads tca6507" jq -e \
	"$I2C[\"0-0045\"].follow.entries.name | .type == \"file\" and .mode == \"0444\" and .value == \"tca6507\n\"" \
	"$S"
check "... its driver is leds-tca6507" jq -e \
	"$I2C[\"0-0045\"].follow.entries.driver.target | endswith(\"/drivers/leds-tca6507\")" \
	"$S"
check "... and its LEDs are below it" jq -e \
	"$I2C[\"0-0045\"].follow.entries.leds.entries | has(\"gta04:red:power\")" \
	"$S"
check "the probe read the same name" jq -e \
	'.probes[] | select(.path == "/sys/bus/i2c/devices/0-0045/name") |
	 .result == "ok" and .value == "tca6507\n"' "$S"

# Everything else is the golden's, header apart: adding a root adds only
# its tree (and the probe its record, last).
jq -S 'del(.header) | del(.roots["bus/i2c/devices"]) | del(.probes[-1])' \
	"$S" >"$TMP/actual"
jq -S 'del(.header)' "expected/$C.json" >"$TMP/expect"
check "the rest of the snapshot is the golden's" \
	diff -u "$TMP/expect" "$TMP/actual"
check "the kernel command line is the golden's" test \
	"$(jq -r .header.inputs.cmdline "$S")" = \
	"$(jq -r .header.inputs.cmdline "expected/$C.json")"
done_testing
