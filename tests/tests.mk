# SPDX-License-Identifier: GPL-2.0
# `make check`: every part appends its TAP test programs to TESTS (unit
# tests first, the booted matrix last) and its build products to CHECK_DEPS.

check: deps all $(CHECK_DEPS)
	tests/harness $(TESTS)
