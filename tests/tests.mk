# SPDX-License-Identifier: GPL-2.0
# `make check`: every part appends its TAP test programs to TESTS (fast,
# no kernel) or BOOT_TESTS (build and boot kernels; run last), and what they
# need built to CHECK_DEPS. ci/deps-test installs the tools only tests
# use (chromium, for the HTML report).

check: deps
	ci/deps-test
	$(MAKE) all $(CHECK_DEPS)
	tests/harness $(TESTS) $(BOOT_TESTS)

# The fast tests alone (no kernel is built or booted), for a developer's
# edit-test loop; `make check` is the one CI runs. CHECK_DEPS is made in
# the recipe: a prerequisite list is expanded when read, before
# tests/fuzz/fuzz.mk adds the fuzzers to it.
check-fast:
	$(MAKE) all $(CHECK_DEPS)
	tests/harness $(TESTS)

# The documents show commands that parse and links that lead somewhere.
TESTS += tests/doc/t-doc.sh
