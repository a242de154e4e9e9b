# SPDX-License-Identifier: GPL-2.0
# sysfarm top-level build: `make deps` installs, `make farm` runs the matrix,
# `make check` runs every test. Each part keeps its rules in its own build.mk.

BUILD := build
HOST_ARCH := $(shell uname -m)

CC := gcc
ARM_CC := arm-linux-gnueabihf-gcc
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter -Werror=implicit-function-declaration
CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -MMD -MP

.PHONY: all deps farm golden check check-fast clean fuzz soak
all:

# Then the matrix's sources that name a Debian suite (sysfarm fetch:
# kept once fetched, so an offline rerun fetches nothing). One the
# archive no longer has (125, said) leaves the rest to run: its
# configurations are the ones that cannot test.
deps:
	./ci/deps $(BUILD)
	$(MAKE) $(SYSFARM)
	$(SYSFARM) fetch --build-dir $(BUILD) || test $$? = 125

include snapshotter/build.mk
include runner/build.mk
include tests/tests.mk
include tests/fuzz/fuzz.mk
include bench/bench.mk

clean:
	rm -rf $(BUILD)/snapshotter $(BUILD)/runner $(BUILD)/tests $(BUILD)/fuzz

# The whole matrix against expected/; `make golden` accepts what it saw.
farm: deps all
	$(BUILD)/sysfarm check

golden: all
	$(BUILD)/sysfarm update

# Every configuration booted 10 times gives byte-identical snapshots.
soak: all
	tests/soak
