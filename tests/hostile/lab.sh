# SPDX-License-Identifier: GPL-2.0
# Sourced by the setup of a hostile case that builds a kernel in name or
# reads a lab's LAVA log (check --backend lab): nothing real is built or
# booted.
#
# lab_matrix writes ./matrix.yaml, one configuration (x86_64) to boot in
# a lab, with the files it names (an empty patches/series, init, snap).
#
# lab_tree [RECIPE] makes ./tree, a kernel tree in name for --kernel-src
# (with an empty --series): its configuration is its fragments, and its
# x86 image is built by the make RECIPE (default: an image of one word).
#
# lab_log SYSFARM CONSOLE JOB FARM_ARGS... runs lava-jobs with FARM_ARGS
# (the configuration last), then writes BUILD/lava/CONFIG/lava.log from its
# job as `lavacli jobs logs --raw` gives it: the images' file-download
# results with their sha256, the boot command with the job's exact command
# line, a `lvl: target` line for each line of the file CONSOLE (YAML
# double-quoted text: \e is ESC), and the job's result mapping JOB.
#
# lab_frame TOP CONSOLE writes into CONSOLE the lines of a guest that sent
# its snapshot on the console: the frame TOP's snapshotter makes of an
# empty sysfs (./sys), in base64 between the marker lines.
lab_matrix() {
	cat >matrix.yaml <<-'MATRIX'
	axes:
	  arch:
	    x86_64:
	      kernel: {arch: x86_64, image: arch/x86/boot/bzImage}
	      guest: {init: init, busybox: /bin/busybox, snapshotter: snap}
	      qemu: {binary: qemu-system-x86_64, machine: pc, console: ttyS0, channel: /dev/ttyS1}
	      timeout: 60
	MATRIX
	mkdir -p patches
	: >patches/series
	: >init
	: >snap
}

lab_tree() {
	recipe=${1:-'mkdir -p $(O)/arch/x86/boot && echo kernel >$(O)/arch/x86/boot/bzImage'}
	mkdir -p tree/scripts/kconfig
	printf '%s\n' 'VERSION = 6' 'PATCHLEVEL = 1' 'SUBLEVEL = 0' \
		'tinyconfig olddefconfig:' '	touch $(O)/.config' \
		'bzImage:' "	$recipe" >tree/Makefile
	# merge_config.sh -m -O DIR CONFIG FRAGMENT...: all of them, in order
	printf '%s\n' '#!/bin/sh' 'dir=$3' 'shift 3' \
		'cat "$@" >"$dir/.config.new" && mv "$dir/.config.new" "$dir/.config"' \
		>tree/scripts/kconfig/merge_config.sh
	chmod +x tree/scripts/kconfig/merge_config.sh
}

lab_log() {
	sysfarm=$1 console=$2 result=$3
	shift 3
	"$sysfarm" lava-jobs "$@" >/dev/null 2>&1
	for config; do :; done
	job=build/lava/$config/job.yaml
	append=$(sed -n 's/.*-append \\"\(.*\)\\""$/\1/p' "$job")
	dt='"dt": "2026-12-07T19:00:00.000000"'
	{
		echo "- {$dt, \"lvl\": \"info\", \"msg\": \"lava-dispatcher, installed at version: 2023.01\"}"
		for label in kernel ramdisk; do
			sum=$(sed -n "/^      $label:/,/sha256sum/s/.*sha256sum: \"\{0,1\}\([0-9a-f]*\).*/\1/p" "$job")
			echo "- {$dt, \"lvl\": \"results\", \"msg\": {\"case\": \"file-download\", \"definition\": \"lava\", \"extra\": {\"label\": \"$label\", \"sha256sum\": \"$sum\"}, \"level\": \"1.1.1\", \"namespace\": \"common\", \"result\": \"pass\"}}"
		done
		echo "- {$dt, \"lvl\": \"info\", \"msg\": \"Boot command: /usr/bin/qemu-system-x86_64 -nographic -m 256 -kernel /var/lib/lava/dispatcher/tmp/1/deployimages-0/kernel/bzImage -append \\\"$append\\\" -initrd /var/lib/lava/dispatcher/tmp/1/deployimages-0/ramdisk/initramfs.cpio\"}"
		while IFS= read -r line; do
			printf '%s\n' "- {$dt, \"lvl\": \"target\", \"msg\": \"$line\"}"
		done <"$console"
		echo "- {$dt, \"lvl\": \"results\", \"msg\": $result}"
	} >"build/lava/$config/lava.log"
}

lab_frame() {
	mkdir -p sys/bus/workqueue sys/class/leds sys/class/gpio
	"$1/build/snapshotter/x86_64/snapshot" --sysfs "$PWD/sys" --frame \
		-o frame bus/workqueue class/leds class/gpio
	{
		echo sysfarm-frame-begin
		base64 frame
		printf '%s\n' sysfarm-frame-end sysfarm-frame-sent
	} >"$2"
}
