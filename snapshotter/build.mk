# SPDX-License-Identifier: GPL-2.0
# Builds the guest snapshotter, static, for the host and for arm, plus the
# sanitizer and valgrind variants and the unit test that `make check` runs.

SNAP_NAMES := snapshot walk attr probe kmsg text frame
SNAP_DIR := $(BUILD)/snapshotter
SNAP_HOST := $(SNAP_DIR)/$(HOST_ARCH)/snapshot
SNAP_ARM := $(SNAP_DIR)/arm/snapshot
SNAP_ASAN := $(SNAP_DIR)/asan/snapshot
SNAP_VG := $(SNAP_DIR)/valgrind/snapshot
SNAP_UNIT := $(BUILD)/tests/snapshotter-unit
SNAP_UNIT_ASAN := $(BUILD)/tests/snapshotter-unit-asan
SNAP_FRAME_CHECK := $(BUILD)/tests/snapshotter-frame-check

SNAP_JANSSON_HOST := /usr/lib/$(HOST_ARCH)-linux-gnu/libjansson.a
SNAP_JANSSON_ARM := /usr/lib/arm-linux-gnueabihf/libjansson.a
# Debian's cross compiler does not search /usr/include, where the one
# (architecture-independent) jansson.h of libjansson-dev:armhf lives;
# -idirafter keeps the cross libc headers first.
# 64-bit off_t and ino_t on arm: 32-bit readdir() fails with EOVERFLOW on
# file systems with large inode numbers.
SNAP_ARM_CFLAGS := $(CFLAGS) -idirafter /usr/include -D_FILE_OFFSET_BITS=64
SNAP_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
SNAP_DEBUG_CFLAGS := $(filter-out -O2,$(CFLAGS)) -O1 -fno-omit-frame-pointer

all: $(SNAP_HOST) $(SNAP_ARM)

$(SNAP_DIR)/$(HOST_ARCH)/%.o: snapshotter/%.c snapshotter/build.mk
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

$(SNAP_DIR)/arm/%.o: snapshotter/%.c snapshotter/build.mk
	@mkdir -p $(@D)
	$(ARM_CC) $(SNAP_ARM_CFLAGS) -c -o $@ $<

$(SNAP_DIR)/asan/%.o: snapshotter/%.c snapshotter/build.mk
	@mkdir -p $(@D)
	$(CC) $(SNAP_DEBUG_CFLAGS) $(SNAP_SAN) -c -o $@ $<

$(SNAP_DIR)/valgrind/%.o: snapshotter/%.c snapshotter/build.mk
	@mkdir -p $(@D)
	$(CC) $(SNAP_DEBUG_CFLAGS) -c -o $@ $<

$(SNAP_HOST): $(SNAP_NAMES:%=$(SNAP_DIR)/$(HOST_ARCH)/%.o)
	$(CC) -static -o $@ $^ $(SNAP_JANSSON_HOST)

$(SNAP_ARM): $(SNAP_NAMES:%=$(SNAP_DIR)/arm/%.o)
	$(ARM_CC) -static -o $@ $^ $(SNAP_JANSSON_ARM)

# valgrind only sees the heap of a dynamically linked program
$(SNAP_ASAN): $(SNAP_NAMES:%=$(SNAP_DIR)/asan/%.o)
	$(CC) $(SNAP_SAN) -o $@ $^ -ljansson

$(SNAP_VG): $(SNAP_NAMES:%=$(SNAP_DIR)/valgrind/%.o)
	$(CC) -o $@ $^ -ljansson

SNAP_UNIT_NAMES := text frame kmsg

$(SNAP_DIR)/unit/%.o: tests/snapshotter/%.c snapshotter/build.mk
	@mkdir -p $(@D)
	$(CC) $(SNAP_DEBUG_CFLAGS) -Isnapshotter -c -o $@ $<

$(SNAP_DIR)/unit-asan/%.o: tests/snapshotter/%.c snapshotter/build.mk
	@mkdir -p $(@D)
	$(CC) $(SNAP_DEBUG_CFLAGS) $(SNAP_SAN) -Isnapshotter -c -o $@ $<

$(SNAP_UNIT): $(SNAP_DIR)/unit/unit.o \
		$(SNAP_UNIT_NAMES:%=$(SNAP_DIR)/valgrind/%.o)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ -ljansson

$(SNAP_UNIT_ASAN): $(SNAP_DIR)/unit-asan/unit.o \
		$(SNAP_UNIT_NAMES:%=$(SNAP_DIR)/asan/%.o)
	@mkdir -p $(@D)
	$(CC) $(SNAP_SAN) -o $@ $^ -ljansson

$(SNAP_FRAME_CHECK): $(SNAP_DIR)/unit/frame-check.o $(SNAP_DIR)/valgrind/frame.o
	@mkdir -p $(@D)
	$(CC) -o $@ $^

-include $(wildcard $(SNAP_DIR)/*/*.d)

TESTS += $(SNAP_UNIT) \
	tests/snapshotter/t-fake-trees.sh \
	tests/snapshotter/t-probes.sh \
	tests/snapshotter/t-real-sys.sh \
	tests/snapshotter/t-arm.sh \
	tests/snapshotter/t-asan.sh \
	tests/snapshotter/t-valgrind.sh
CHECK_DEPS += $(SNAP_HOST) $(SNAP_ARM) $(SNAP_ASAN) $(SNAP_VG) \
	$(SNAP_UNIT) $(SNAP_UNIT_ASAN) $(SNAP_FRAME_CHECK)
