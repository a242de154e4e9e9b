# SPDX-License-Identifier: GPL-2.0
# libFuzzer targets over the runner's own sources, built with clang, ASan
# and UBSan (no recovery: any report is a crash). `make fuzz` runs each for
# FUZZ_RUNS executions; tests/fuzz/t-fuzz.sh replays the regression cases
# and does a short run in `make check`.

FUZZ_CC := clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
# clang, unlike gcc, warns on the { NULL } that ends a table.
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -O1 -g $(WARN) \
	-Wno-missing-field-initializers -MMD -MP $(FUZZ_SAN) -Irunner -I.
FUZZ_RUNS := 200000
FUZZ_TARGETS := snapshot matrix report
FUZZ_BINS := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
# The runner as build/sysfarm links it, less its main().
FUZZ_RUNNER_OBJS := $(patsubst %.c,$(BUILD)/fuzz/%.o,\
	$(filter-out runner/cmd/sysfarm.c,$(RUNNER_SRCS)))
FUZZ_OBJS := $(FUZZ_RUNNER_OBJS) $(FUZZ_TARGETS:%=$(BUILD)/fuzz/tests/fuzz/fuzz_%.o)
.SECONDARY: $(FUZZ_OBJS)

$(BUILD)/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(BUILD)/fuzz/fuzz_%: $(BUILD)/fuzz/tests/fuzz/fuzz_%.o $(FUZZ_RUNNER_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lyaml -ljansson

fuzz: $(FUZZ_BINS)
	$(foreach t,$(FUZZ_TARGETS),tests/fuzz/run $(t) $(FUZZ_RUNS) &&) true

-include $(FUZZ_OBJS:.o=.d)

TESTS += tests/fuzz/t-fuzz.sh
CHECK_DEPS += $(FUZZ_BINS)
