# SPDX-License-Identifier: GPL-2.0
# Sourced by the lava-* cases' setup, as `. "$(dirname "$1")/../tests/
# hostile/lava-lab.sh"` with $1 the sysfarm binary: a lab's boot without a
# kernel. lab_build makes a one-configuration matrix (x86_64) and a kernel
# a build would have left (--prebuilt), and writes its LAVA job with
# `sysfarm lava-jobs`, which gives the images' sha256 and the command line
# a lab log must show; lab_line and the others write a LAVA log's lines as
# lava_common's dump() does (every scalar double-quoted).
top=$(dirname "$(dirname "$1")")
dir=build/lava/x86_64
# lab_matrix (its lab_frame is replaced below)
. "$top/tests/hostile/lab.sh"

lab_build() {
	lab_matrix
	mkdir -p build/kernels/k/arch/x86/boot
	echo 'not a kernel' >build/kernels/k/arch/x86/boot/bzImage
	# the kernel id of this matrix's x86_64, the hash of an empty series
	printf '{"kernel": "7a648cfcacfc78d8", "inputs": {"source": "6.1", "series": "cbf29ce484222325", "compiler": "gcc", "config": "0"}}\n' \
		>build/kernels/k/sysfarm-kernel.json
	"$1" lava-jobs --prebuilt --matrix matrix.yaml --build-dir build \
		>lava-jobs.out 2>&1 || { cat lava-jobs.out; exit 99; }
	kernel_sum=$(sha256sum <"$dir/bzImage" | cut -d' ' -f1)
	ramdisk_sum=$(sha256sum <"$dir/initramfs.cpio" | cut -d' ' -f1)
	cmdline="$(sed -n 's/^  sysfarm.cmdline: //p' "$dir/job.yaml") sysfarm.result=console"
}

# lab_line LVL MSG: a line whose msg is a string (MSG escaped already)
lab_line() {
	printf '{"dt": "2026-12-07T18:00:00.000000", "lvl": "%s", "msg": "%s"}\n' \
		"$1" "$2"
}

# lab_download LABEL SHA256: the result of an image's download
lab_download() {
	printf '{"dt": "2026-12-07T18:00:00.000000", "lvl": "results", "msg": {"case": "file-download", "definition": "lava", "duration": "0.01", "extra": {"label": "%s", "md5sum": "0", "sha256sum": "%s", "size": ! "12"}, "level": "1.1.1", "namespace": "common", "result": "pass"}}\n' \
		"$1" "$2"
}

# lab_boot CMDLINE: LAVA's boot command, our -append "CMDLINE" in it
lab_boot() {
	lab_line info "Boot command: qemu-system-x86_64 -nographic -m 256 -kernel /var/lib/lava/dispatcher/tmp/1/deployimages-x/kernel/bzImage -append \\\"$1\\\" -initrd /var/lib/lava/dispatcher/tmp/1/deployimages-x/ramdisk/initramfs.cpio"
}

# lab_frame [LINE]: the guest's console, a snapshot's frame in base64
# between the markers (snapshotter/init), from this build's snapshotter;
# LINE, if given, right after the first marker
lab_frame() {
	mkdir -p sys/class/leds/a
	echo 0 >sys/class/leds/a/brightness
	lab_line target "Linux version 6.1.0 (sysfarm)"
	lab_line target sysfarm-frame-begin
	[ -z "$1" ] || printf '%s\n' "$1"
	"$top/build/snapshotter/x86_64/snapshot" --sysfs sys --frame \
		class/leds | base64 | while IFS= read -r l; do
		lab_line target "$l"
	done
	lab_line target sysfarm-frame-end
	lab_line target sysfarm-frame-sent
}

# lab_job: the job's result, as LAVA logs it last
lab_job() {
	printf '{"dt": "2026-12-07T18:00:00.000000", "lvl": "results", "msg": {"case": "job", "definition": "lava", "result": "pass"}}\n'
}

# lab_log: a whole log of this build's boot, as a lab would give it
lab_log() {
	lab_download kernel "$kernel_sum"
	lab_download ramdisk "$ramdisk_sum"
	lab_boot "$cmdline"
	lab_frame
	lab_job
}

# lab_exec SYSFARM ARGS...: the case's sysfarm, its progress lines (which
# say how long the boot took) out of the stderr compared
lab_exec() {
	exec "$@" 2>progress
}
