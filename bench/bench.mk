# SPDX-License-Identifier: GPL-2.0
# `make bench`: the farm beside a naive farm, in one run (bench/README.md).
.PHONY: bench
bench: deps all
	bench/run $(BUILD)/bench

# `make bench-lava`: a boot through lava-run next to the farm's QEMU.
.PHONY: bench-lava
bench-lava: deps all
	bench/lava
