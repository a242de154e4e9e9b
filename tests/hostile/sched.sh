# SPDX-License-Identifier: GPL-2.0
# Sourced by the sched-* cases: the run loop's boots seen through a QEMU
# in name, without a kernel.
#
# sched_farm SYSFARM (a case's setup): three configurations of one kernel
# (x86_64-a, -b, -c: lava-lab.sh's x86_64 times an axis n, its kernel as
# a build leaves it for --prebuilt),
# booted by the case's ./qemu/qemu-system-x86_64 (put first in PATH, with
# SCHED_SH naming this file for it); frame0 and frame1, the snapshotter's
# frames of two sysfs trees that differ in one value; their goldens
# written by an update (every boot gives frame0); then ./diff made and
# ./boots emptied for the case's own command.
#
# sched_qemu "$@" (the QEMU in name): answers --version (and exits), else
# sets $config (the configuration booted), $chan (the channel file) and
# $here (the case), and logs "begin CONFIG" to ./boots.
# sched_wait PATTERN COUNT: until ./boots has COUNT lines of PATTERN;
# false after 5 s.
sched_farm() {
	# lava-lab.sh's one configuration and its kernel, then a second axis
	. "$(dirname "$1")/../tests/hostile/lava-lab.sh"
	lab_build "$1"
	printf '%s\n' '  n:' '    a: {}' '    b: {}' '    c: {}' >>matrix.yaml
	mkdir -p sys0/class/leds/a sys1/class/leds/a
	echo 0 >sys0/class/leds/a/brightness
	echo 1 >sys1/class/leds/a/brightness
	for n in 0 1; do
		"$top/build/snapshotter/x86_64/snapshot" --sysfs "$PWD/sys$n" \
			--frame -o frame$n class/leds || exit 99
	done
	PATH=$PWD/qemu:$PATH
	SCHED_SH=$top/tests/hostile/sched.sh
	export PATH SCHED_SH
	env -u CI "$1" update --prebuilt --matrix matrix.yaml \
		--build-dir build >update.out 2>&1 || { cat update.out; exit 99; }
	: >diff
	: >boots
}

sched_qemu() {
	if [ "$1" = --version ]; then
		echo 'QEMU emulator version 0 (a test double)'
		exit 0
	fi
	for a; do
		case $a in
		file,id=channel,path=*) chan=${a#file,id=channel,path=} ;;
		esac
	done
	config=$(basename "$(dirname "$chan")")
	here=${chan%/build/out/*}
	echo "begin $config" >>"$here/boots"
}

sched_wait() {
	i=0
	until [ "$(grep -c "$1" "$here/boots")" -ge "$2" ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || return 1
		sleep 0.05
	done
}
