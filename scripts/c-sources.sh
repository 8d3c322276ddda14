#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The project's own C sources and headers (user space and BPF), the ones
# `make format` formats and the style test checks; not the kernel patches,
# which checkpatch checks.
cd "$(dirname "$0")/.." || exit 1
ls loader/*.[ch] include/*.h bpf-policies/*.[ch] selftests/policies/*.c \
	selftests/host/*.c selftests/workloads/*.[ch] selftests/tools/*.c \
	selftests/fuzz/*.c selftests/kmod/*.c 2>/dev/null
