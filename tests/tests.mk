# SPDX-License-Identifier: GPL-2.0
# `make check`: every part appends its TAP test programs to TESTS (fast,
# no kernel) or BOOT_TESTS (build and boot kernels; run last), and what they
# need built to CHECK_DEPS.

check: deps
	$(MAKE) all $(CHECK_DEPS)
	tests/harness $(TESTS) $(BOOT_TESTS)
