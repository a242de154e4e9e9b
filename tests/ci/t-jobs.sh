#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Each job of the workflow replayed in a Debian chroot that starts as bare
# as its container (debootstrap's minbase) and gets only what the job's
# own Install step installs (ci/deps --job): plan, a kernel and a check
# job for arm on 6.1 and for x86_64 on 6.12, and the summary (in the plan's
# chroot: the same packages), each step as written, artifacts handed on as
# the workflow hands them. Says how many packages each job installs, and
# how big they are.
#
# Each chroot runs in its own mount namespace: /dev, /proc, the farm's
# ccache (the job's cache restore) and an overlay of this machine's apt
# archive (whatever is already downloaded is not downloaded again; nothing
# is written there) vanish with it, however it ends.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-steps.sh"
cd "$TOP" || exit 1
J=$TOP/build/jobs
MIRROR=http://deb.debian.org/debian

if [ "$(id -u)" != 0 ]; then
	skip "the jobs replayed in chroots" \
		"needs root (debootstrap, chroot, mount namespaces)"
	done_testing
	exit 0
fi

# The bare system, made once (build/jobs/base; its .debs kept beside it).
# debootstrap mounts /proc and /sys in the target: in a namespace of its
# own, they cannot outlive it.
if [ ! -f "$J/base.done" ]; then
	rm -rf --one-file-system "$J/base"
	mkdir -p "$J/debs"
	check "debootstrap makes a minbase bookworm" sh -c \
		"unshare --mount --propagation private debootstrap --variant=minbase \
		 --cache-dir='$J/debs' bookworm '$J/base' '$MIRROR' \
		 >'$J/base.log' 2>&1 || { tail -5 '$J/base.log'; exit 1; }"
	[ -x "$J/base/bin/sh" ] && touch "$J/base.done"
fi
dpkg_count() { chroot "$1" dpkg-query -W -f '${binary:Package}\n' | wc -l; }
dpkg_kib() {
	chroot "$1" dpkg-query -W -f '${Installed-Size}\n' |
		awk '{ s += $1 } END { print s + 0 }'
}
base_n=$(dpkg_count "$J/base")
base_kib=$(dpkg_kib "$J/base")
echo "# the bare system: $base_n packages, $((base_kib / 1024)) MiB"

# mkroot NAME: a fresh copy of the bare system with the repository (as
# the checkout gives it: tracked and untracked files, nothing ignored) in
# /src and this machine's apt sources.
mkroot() {
	r=$J/$1
	rm -rf --one-file-system "$r" "$J/$1.apt"
	cp -a "$J/base" "$r"
	mkdir -p "$r/src/build/ccache" "$J/$1.apt/u" "$J/$1.apt/w"
	git ls-files -co --exclude-standard -z |
		tar --null -T - -cf - | tar -C "$r/src" -xf -
	cp /etc/resolv.conf "$r/etc/resolv.conf"
	rm -f "$r/etc/apt/sources.list"
	cp /etc/apt/sources.list.d/debian.sources "$r/etc/apt/sources.list.d/"
}

# in_root NAME NAME=VALUE... CMD...: CMD in NAME's /src, with only the
# environment a job's step has (and the values given).
in_root() {
	ir_name=$1
	shift
	mkdir -p "$TOP/build/ccache"
	unshare --mount --propagation private sh -c '
		r=$1 apt=$2 cache=$3
		shift 3
		mount --rbind /dev "$r/dev" &&
		mount -t proc proc "$r/proc" &&
		mount -t overlay overlay -o "lowerdir=/var/cache/apt/archives,upperdir=$apt/u,workdir=$apt/w" \
			"$r/var/cache/apt/archives" &&
		mount --bind "$cache" "$r/src/build/ccache" &&
		exec chroot "$r" /usr/bin/env -i -C /src \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LANG=C.UTF-8 GITHUB_OUTPUT=/src/build/github-output \
			GITHUB_STEP_SUMMARY=/src/build/step-summary.md \
			SYSFARM_KVM=0 "$@"' \
		sh "$J/$ir_name" "$J/$ir_name.apt" "$TOP/build/ccache" "$@"
}

# installed NAME: what NAME's job installed beyond the bare system.
installed() {
	n=$(dpkg_count "$J/$1")
	kib=$(dpkg_kib "$J/$1")
	echo "# job $1: $((n - base_n)) packages, $(((kib - base_kib) / 1024)) MiB installed"
}

# The plan: its matrices (with the plan job's own keys, which the
# artifacts are named by).
mkroot plan
check "plan job: its steps run with its own packages" \
	run_steps plan "{}" in_root plan
installed plan
check "summary job: the plan's packages (its chroot is the plan's)" test \
	"$(ci/deps --job summary --list)" = "$(ci/deps --job plan --list)"
check "... no kernel source, QEMU or cross compiler there" sh -c "! { \
	ls '$J/plan/usr/src' | grep -q linux-source ||
	[ -e '$J/plan/usr/bin/qemu-system-arm' ] ||
	[ -e '$J/plan/usr/bin/qemu-system-x86_64' ] ||
	[ -e '$J/plan/usr/bin/arm-linux-gnueabihf-gcc' ]; }"
out=$J/plan/src/build/github-output
check "... its matrices name the configurations sysfarm list names" test \
	"$(sed -n 's/^configs=//p' "$out" | jq -c '[.include[].config]')" = \
	"$("$SYSFARM" list --github | jq -c '[.include[].config]')"

summary_out=$J/plan/src/build/out
for c in arm-sysfs-on-tca6507 x86_64-sysfs-on-6.12; do
	config=$(sed -n 's/^configs=//p' "$out" |
		jq -c --arg c "$c" '.include[] | select(.config == $c)')
	kernel=$(sed -n 's/^kernels=//p' "$out" |
		jq -c --arg k "$(printf '%s' "$config" | jq -r .key)" \
			'.include[] | select(.key == $k)')
	arch=$(printf '%s' "$config" | jq -r .arch)
	check "$c: the plan has its kernel job" test -n "$kernel"

	mkroot "kernel-$arch"
	check "kernel job for $c: its steps run with its own packages" \
		run_steps kernel "$kernel" in_root "kernel-$arch"
	installed "kernel-$arch"
	check "... no QEMU there" sh -c "! ls '$J/kernel-$arch/usr/bin/' | grep -q '^qemu-system'"

	# the artifact: build/kernel.tar, downloaded into build/
	mkroot "check-$arch"
	cp "$J/kernel-$arch/src/build/kernel.tar" "$J/check-$arch/src/build/"
	check "check job for $c: its steps run with its own packages (PASS)" \
		run_steps check "$config" in_root "check-$arch"
	installed "check-$arch"
	check "... no compiler for the guest, no kernel source there" sh -c "! { \
		ls '$J/check-$arch/usr/src' | grep -q linux-source ||
		[ -e '$J/check-$arch/usr/bin/arm-linux-gnueabihf-gcc' ]; }"
	check "... it booted the kernel job's kernel: nothing built, no source" \
		sh -c "jq -e '.configs[0].built == false' \
			'$J/check-$arch/src/build/out/$c/results.json' &&
		       [ ! -e '$J/check-$arch/src/build/sources' ]"
	mkdir -p "$summary_out/out-$c"
	cp -r "$J/check-$arch/src/build/out/$c/." "$summary_out/out-$c/"
done

check "summary job: its steps run with its own packages" \
	run_steps summary "{}" in_root plan
check "... it lists both configurations as PASS" sh -c \
	"grep -q 'arm-sysfs-on-tca6507.*PASS' '$J/plan/src/build/step-summary.md' &&
	 grep -q 'x86_64-sysfs-on-6.12.*PASS' '$J/plan/src/build/step-summary.md'"
done_testing
