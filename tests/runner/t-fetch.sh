#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A source fetched from a Debian suite (kernel.suite): a fake suite, a
# file:// archive made here with dpkg-scanpackages and signed by a
# throw-away key, serves a tiny linux-source-9.9. sysfarm fetches it with
# apt's signature checking into the build directory, records its version
# and sha256, refuses a version the suite does not have (naming the one it
# has), a wrong sha256, an unsigned or wrongly signed suite, a .deb whose
# tarball is a link (125), and
# writes nothing outside the build directory, /etc/apt least of all.
. "$(dirname "$0")/../lib.sh"

A=$TMP/archive B=$TMP/build M=$TMP/m/matrix.yaml
export GNUPGHOME="$TMP/gnupg"
mkdir -m 700 "$GNUPGHOME"
key() {
	gpg --batch --pinentry-mode loopback --passphrase '' \
		--quick-gen-key "sysfarm test $1 <t@example.org>" ed25519 sign \
		never 2>/dev/null &&
		gpg --batch --export "sysfarm test $1" >"$TMP/$1.gpg"
}
key good && key other || echo "Bail out! no throw-away gpg key"

# A kernel tree of make targets that only write what the farm looks for.
T=$TMP/tree/linux-source-9.9
mkdir -p "$T/scripts/kconfig" "$TMP/pkg/DEBIAN" "$TMP/pkg/usr/src"
cat >"$T/Makefile" <<'EOF'
VERSION = 9
PATCHLEVEL = 9
SUBLEVEL = 1
%config:
	echo CONFIG_FAKE=y >$(O)/.config
bzImage:
	mkdir -p $(O)/arch/x86/boot && echo image >$(O)/arch/x86/boot/bzImage
EOF
printf '#!/bin/sh\nexit 0\n' >"$T/scripts/kconfig/merge_config.sh"
chmod +x "$T/scripts/kconfig/merge_config.sh"
tar -C "$TMP/tree" -cJf "$TMP/pkg/usr/src/linux-source-9.9.tar.xz" \
	linux-source-9.9
# deb VERSION: the package at VERSION in the pool
deb() {
	printf 'Package: linux-source-9.9\nVersion: %s\nArchitecture: all\nMaintainer: t <t@example.org>\nDescription: fake\n' \
		"$1" >"$TMP/pkg/DEBIAN/control"
	mkdir -p "$A/pool"
	dpkg-deb -b "$TMP/pkg" "$A/pool/linux-source-9.9_$1_all.deb" >/dev/null
}
# suite [KEY]: the pool's Packages, a Release signed by KEY (none: unsigned)
suite() {
	d=$A/dists/fake
	rm -rf "$d" && mkdir -p "$d/main/binary-amd64"
	(cd "$A" && dpkg-scanpackages pool 2>/dev/null) \
		>"$d/main/binary-amd64/Packages"
	release "${1:-}"
}
# release [KEY]: the suite's Release for its Packages, signed by KEY
release() {
	d=$A/dists/fake p=main/binary-amd64/Packages
	{
		printf 'Suite: fake\nCodename: fake\nDate: %s\nArchitectures: amd64\nComponents: main\nSHA256:\n' \
			"$(date -Ru)"
		printf ' %s %s %s\n' "$(sha256sum <"$d/$p" | cut -d' ' -f1)" \
			"$(wc -c <"$d/$p")" "$p"
	} >"$d/Release"
	[ -z "${1:-}" ] || gpg --batch --yes -u "sysfarm test $1" --clearsign \
		-o "$d/InRelease" "$d/Release" 2>/dev/null
}
deb 9.9.1-1
suite good
debsha=$(sha256sum "$A/pool/linux-source-9.9_9.9.1-1_all.deb" | cut -d' ' -f1)

# A matrix of one configuration of that source; KERNEL is its kernel: map.
mkdir -p "$TMP/m"
: >"$TMP/m/series"
: >"$TMP/m/empty.config"
cp "$TOP/snapshotter/init" "$TMP/m/init"
matrix() {
	cat >"$M" <<EOF
defaults:
  fragments: [empty.config]
  timeout: 60
  guest: {init: init, busybox: /bin/busybox, snapshotter: snap}
  qemu: {binary: qemu-system-x86_64, machine: pc, console: ttyS0,
         channel: /dev/ttyS1}
axes:
  source:
    "9.9":
      kernel:
        arch: x86_64
        image: arch/x86/boot/bzImage
        package: linux-source-9.9
        suite: fake
        archive: file:$A
        keyring: $TMP/good.gpg
        series: series
$1
EOF
}
# sf ARGS...: sysfarm on that matrix, its exit status in $st
sf() {
	"$SYSFARM" "$@" --matrix "$M" --build-dir "$B" >"$TMP/out" 2>"$TMP/err"
	st=$?
}

etc_apt() { find /etc/apt -type f -exec sha256sum {} + | sort; }
etc_apt >"$TMP/etc-apt.before"
touch "$TMP/start"
sleep 1

matrix ""
sf list
check "list fetches nothing (it builds nothing)" test ! -e "$B/apt"

# The list last said the suite had no such package; it has now: the list
# is read again, not "no linux-source-9.9 any more" from the old one.
mv "$A/pool" "$A/pool.later" && suite good
sf fetch
check "a suite without the package is 125 (status $st)" test $st = 125
mv "$A/pool.later" "$A/pool" && suite good
sf build
check "... a build once it has it updates the list again (status $st)" \
	test $st = 0

sf fetch
check "fetch gets the suite's current version, and says so" \
	grep -qx "linux-source-9.9 9.9.1-1 fake sha256 $debsha: $B/debs/linux-source-9.9_9.9.1-1/root/usr/src/linux-source-9.9.tar.xz" \
	"$TMP/out"
check "... its record names the version and the .deb's sha256" jq -e \
	--arg h "$debsha" '.version == "9.9.1-1" and .sha256 == $h' \
	"$B/debs/linux-source-9.9_9.9.1-1/fetched.json"
check "... the farm's own deb822 file, Signed-By the matrix's keyring" \
	grep -qx "Signed-By: $TMP/good.gpg" "$B"/apt/fake-*/sources/sysfarm.sources

sf build
check "build: the kernel's inputs name the package, its version and the .deb's sha256" \
	jq -e --arg h "$debsha" '.inputs.source == "linux-source-9.9 9.9.1-1" and
		.inputs.source_sha256 == $h' "$B"/kernels/*/sysfarm-kernel.json

# Offline: a pinned version fetched and verified is used as it is.
matrix "        version: 9.9.1-1
        sha256: $debsha"
mv "$A" "$A.away"
sf build
check "a fetched pin needs no archive (offline rerun, status $st)" \
	test $st = 0
zeros=0000000000000000000000000000000000000000000000000000000000000000
matrix "        version: 9.9.1-1
        sha256: $zeros"
sf build
check "... nor one whose sha256 is not the pinned one (status $st)" \
	test $st = 125
check "... saying both" grep -q \
	"kernel.sha256: linux-source-9.9 9.9.1-1 from fake has sha256 $debsha, the matrix pins $zeros" \
	"$TMP/err"
matrix "        version: 9.9.1-1
        sha256: $debsha"
R=$B/debs/linux-source-9.9_9.9.1-1/fetched.json
jq '.version = "9.9.0-1"' "$R" >"$R.new" && mv "$R.new" "$R"
sf build
check "... but not one whose record says another version (status $st)" \
	test $st = 125
mv "$A.away" "$A"

# The archive moves on: 9.9.2-1 in, 9.9.1-1 gone.
rm "$A"/pool/*.deb
deb 9.9.2-1
suite good
matrix "        version: 9.9.3-1"
sf build
check "a version the suite does not have is 125 (status $st)" test $st = 125
check "... naming the version the suite has now" grep -q \
	'kernel.version: linux-source-9.9 9.9.3-1 is not in fake: it has 9.9.2-1 now (pin that)' \
	"$TMP/err"

matrix "        version: 9.9.2-1
        sha256: $debsha"
sf fetch
check "a .deb whose sha256 is not the pinned one is 125 (status $st)" \
	test $st = 125
check "... saying both" grep -q \
	"kernel.sha256: linux-source-9.9 9.9.2-1 from fake has sha256 $(sha256sum "$A"/pool/*.deb | cut -d' ' -f1), the matrix pins $debsha" \
	"$TMP/err"
check "... and is not kept" test ! -e "$B/debs/linux-source-9.9_9.9.2-1"

sf fetch
matrix ""
sf fetch
check "unpinned, fetch moves to the suite's current version" \
	grep -q '^linux-source-9.9 9.9.2-1 fake sha256' "$TMP/out"

# Signatures: unsigned, and signed by a key the keyring does not hold.
deb 9.9.4-1
suite
matrix "        version: 9.9.4-1"
sf fetch
check "an unsigned suite is refused, 125 (status $st)" test $st = 125
check "... apt's reason shown" grep -q \
	"^E: The repository 'file:$A fake Release' is no longer signed" \
	"$TMP/err"
suite other
sf fetch
check "a suite signed by another key is refused, 125 (status $st)" test $st = 125
check "... apt's reason shown (the last lists are not used)" grep -q \
	"^E: Failed to fetch file:$A/dists/fake/InRelease .* NO_PUBKEY" "$TMP/err"
check "... nothing of it fetched" test ! -e "$B/debs/linux-source-9.9_9.9.4-1"
matrix ""
sf build
check "... nor is the last list a build's after it (status $st)" test $st = 125

# The package line gone from the suite.
rm "$A"/pool/*.deb
suite good
matrix ""
sf fetch
check "a package the suite no longer has is 125 (status $st)" test $st = 125
check "... saying so" grep -q \
	'kernel.package: fake from file:.* has no linux-source-9.9 any more' \
	"$TMP/err"

# A .deb whose tarball is a link: the farm would build the link's target,
# outside the .deb, as that version and sha256.
tar -C "$TMP/tree" -cJf "$TMP/elsewhere.tar.xz" linux-source-9.9
ln -sf "$TMP/elsewhere.tar.xz" "$TMP/pkg/usr/src/linux-source-9.9.tar.xz"
deb 9.9.5-1
suite good
sf fetch
check "a .deb whose tarball is a symbolic link is refused, 125 (status $st)" \
	test $st = 125
check "... saying so" grep -q \
	"linux-source-9.9 9.9.5-1's /usr/src/linux-source-9.9.tar.xz is a symbolic link, not the tarball" \
	"$TMP/err"
check "... and is not kept" test ! -e "$B/debs/linux-source-9.9_9.9.5-1"

# A version in the suite's list that climbs out of the build directory
# (it names BUILD/debs/PACKAGE_VERSION.new, removed when apt fails)
mkdir -p "$TMP/victim/linux-source-9.9_9.new"
sed -i 's|^Version: .*|Version: 9/../../../victim/linux-source-9.9_9|' \
	"$A/dists/fake/main/binary-amd64/Packages"
release good
matrix ""
sf fetch
check "a version in the suite's list with a / is refused, 125 (status $st)" \
	test $st = 125
check "... saying so" grep -q \
	"kernel.version: fake from file:$A has linux-source-9.9 at version '9/\.\./\.\./\.\./victim/linux-source-9.9_9', which must be a Debian version" \
	"$TMP/err"
check "... nothing outside the build directory removed" \
	test -d "$TMP/victim/linux-source-9.9_9.new"

# The default archive, by the suite's name: offline, a pin already
# fetched asks apt nothing, but the farm's deb822 file is written.
for s in fake:debian fake-security:debian-security; do
	B=$TMP/build-${s%%:*}
	mkdir -p "$B/debs/linux-source-9.9_9.9.1-1"
	printf '{"version": "9.9.1-1", "sha256": "%s"}\n' "$debsha" \
		>"$B/debs/linux-source-9.9_9.9.1-1/fetched.json"
	matrix "        version: 9.9.1-1"
	sed -i -e "s/suite: fake/suite: ${s%%:*}/" -e '/archive:/d' "$M"
	sf fetch
	check "suite ${s%%:*} without kernel.archive: http://deb.debian.org/${s#*:} (status $st)" \
		grep -qx "URIs: http://deb.debian.org/${s#*:}" \
		"$B/apt/${s%%:*}"-*/sources/sysfarm.sources
done

# A keyring that is a FIFO: apt would wait on it for its whole timeout
mkfifo "$TMP/fifo.gpg"
matrix ""
sed -i "s|keyring: .*|keyring: $TMP/fifo.gpg|" "$M"
timeout 20 "$SYSFARM" fetch --matrix "$M" --build-dir "$B" >"$TMP/out" \
	2>"$TMP/err"
st=$?
check "a keyring that is a FIFO is refused at once, 125 (status $st)" \
	test $st = 125
check "... saying so" grep -q \
	"kernel.keyring $TMP/fifo.gpg: not a regular file (a FIFO)" "$TMP/err"

etc_apt >"$TMP/etc-apt.after"
check "/etc/apt is untouched" cmp "$TMP/etc-apt.before" "$TMP/etc-apt.after"
find /etc/apt /var/lib/apt /var/cache/apt -newer "$TMP/start" \
	>"$TMP/written" 2>/dev/null
check "nothing written under /etc/apt or apt's /var" test ! -s "$TMP/written"
done_testing
