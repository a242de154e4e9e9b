# SPDX-License-Identifier: GPL-2.0
# The host command build/sysfarm, linked against libyaml and jansson.

# Five wings (runner/README.md): cmd/ over verify/, verify/ over pipeline/
# and compare/, all over lib/; includes name the wing ("lib/util.h"),
# resolved from runner/.
RUNNER_WINGS := cmd verify pipeline compare lib
RUNNER_SRCS := $(foreach w,$(RUNNER_WINGS),$(wildcard runner/$(w)/*.c)) \
	snapshotter/frame.c snapshotter/text.c
RUNNER_OBJS := $(patsubst %.c,$(BUILD)/runner/%.o,$(RUNNER_SRCS))
RUNNER_CFLAGS := -Irunner -I.
SYSFARM := $(BUILD)/sysfarm

all: $(SYSFARM)

$(SYSFARM): $(RUNNER_OBJS)
	$(CC) -o $@ $^ -lyaml -ljansson

$(BUILD)/runner/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(RUNNER_CFLAGS) -c -o $@ $<

# The compiler launcher of kernel builds (runner/cc/sysfarm-cc.c), which
# sysfarm finds beside itself.
SYSFARM_CC_OBJS := $(BUILD)/runner/runner/cc/sysfarm-cc.o $(BUILD)/runner/runner/lib/util.o
all: $(BUILD)/sysfarm-cc

$(BUILD)/sysfarm-cc: $(SYSFARM_CC_OBJS)
	$(CC) -o $@ $^

# Unit tests of the child process module (TAP).
PROC_UNIT := $(BUILD)/tests/proc-unit
PROC_UNIT_OBJS := $(BUILD)/runner/tests/runner/proc-unit.o \
	$(BUILD)/runner/runner/lib/proc.o $(BUILD)/runner/runner/lib/util.o

$(PROC_UNIT): $(PROC_UNIT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^

# Unit tests of runner/lib/util.c (TAP).
UTIL_UNIT := $(BUILD)/tests/util-unit
UTIL_UNIT_OBJS := $(BUILD)/runner/tests/runner/util-unit.o \
	$(BUILD)/runner/runner/lib/util.o

$(UTIL_UNIT): $(UTIL_UNIT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^

# Unit tests of runner/pipeline/boot.c's boot_decode() (TAP): the runner as
# build/sysfarm links it, less its main().
BOOT_UNIT := $(BUILD)/tests/boot-unit
BOOT_UNIT_OBJS := $(BUILD)/runner/tests/runner/boot-unit.o \
	$(filter-out %/cmd/sysfarm.o,$(RUNNER_OBJS))

$(BOOT_UNIT): $(BOOT_UNIT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ -lyaml -ljansson

# Unit tests of runner/lib/meter.c, a build's progress (TAP).
METER_UNIT := $(BUILD)/tests/meter-unit
METER_UNIT_OBJS := $(BUILD)/runner/tests/runner/meter-unit.o \
	$(BUILD)/runner/runner/lib/meter.o $(BUILD)/runner/runner/lib/util.o

$(METER_UNIT): $(METER_UNIT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^

# Unit tests of the one exit policy, runner/lib/verdict.c's folds (TAP).
EXIT_UNIT := $(BUILD)/tests/exit-unit
EXIT_UNIT_OBJS := $(BUILD)/runner/tests/runner/exit-unit.o \
	$(BUILD)/runner/runner/lib/verdict.o

$(EXIT_UNIT): $(EXIT_UNIT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^

# Unit tests of a path's Documentation/ABI status and the status rules.
ABI_STATUS_UNIT := $(BUILD)/tests/abi-status-unit
ABI_STATUS_UNIT_OBJS := $(BUILD)/runner/tests/runner/abi-status-unit.o \
	$(filter-out %/cmd/sysfarm.o,$(RUNNER_OBJS))

$(ABI_STATUS_UNIT): $(ABI_STATUS_UNIT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ -lyaml -ljansson

-include $(RUNNER_OBJS:.o=.d) $(SYSFARM_CC_OBJS:.o=.d) $(PROC_UNIT_OBJS:.o=.d)
-include $(UTIL_UNIT_OBJS:.o=.d) $(BOOT_UNIT_OBJS:.o=.d) $(METER_UNIT_OBJS:.o=.d)
-include $(EXIT_UNIT_OBJS:.o=.d) $(ABI_STATUS_UNIT_OBJS:.o=.d)

TESTS += tests/runner/t-matrix.sh tests/runner/t-goldens-abi.sh
BOOT_TESTS += tests/runner/t-run.sh tests/runner/t-checkpatch.sh tests/runner/t-golden.sh tests/runner/t-bisect.sh tests/runner/t-faults.sh
CHECK_DEPS += $(SYSFARM) $(BUILD)/sysfarm-cc $(PROC_UNIT) $(UTIL_UNIT)
CHECK_DEPS += $(BOOT_UNIT) $(METER_UNIT) $(EXIT_UNIT) $(ABI_STATUS_UNIT)
TESTS += $(PROC_UNIT) $(UTIL_UNIT) $(BOOT_UNIT) $(METER_UNIT) $(EXIT_UNIT)
TESTS += $(ABI_STATUS_UNIT)
TESTS += tests/runner/t-diff.sh tests/hostile/t-hostile.sh
TESTS += tests/runner/t-upgrade.sh tests/runner/t-review.sh tests/runner/t-exit.sh
TESTS += tests/runner/t-report.sh tests/runner/t-fetch.sh tests/runner/t-kcidb.sh
TESTS += tests/runner/t-abi.sh tests/runner/t-cc.sh tests/runner/t-bisect-stop.sh
TESTS += tests/runner/t-bisect-commit.sh
TESTS += tests/runner/t-wings.sh tests/runner/t-options.sh tests/runner/t-paths.sh
TESTS += tests/runner/t-mainline.sh tests/runner/t-judge.sh tests/runner/t-abi-status.sh
TESTS += tests/runner/t-harness.sh
BOOT_TESTS += tests/runner/t-abi-boot.sh tests/runner/t-roots.sh tests/runner/t-shell.sh tests/runner/t-lava.sh
BOOT_TESTS += tests/ci/t-workflow.sh tests/ci/t-jobs.sh
BOOT_TESTS += tests/runner/t-git-bisect.sh tests/runner/t-source-drift.sh
