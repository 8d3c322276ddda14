#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series' own selftests (tools/testing/selftests/mglru_ext, its last
# patch), run the kselftest way: make run_tests in this guest. make check
# builds them on the host with the same variables, so run_tests finds
# them up to date and only runs them. Their TAP is passed through and
# their counts are this suite's.
set -u
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/lib.sh"

# the kselftests of the series this kernel runs (7.3 or the 6.12 backport)
base=$(uname -r | cut -d. -f1,2)
out=$(MGLRU_EXT_SCRATCH=$scratch MAKEFLAGS= make -s -C "$repo/build/src/linux-$base/tools/testing/selftests" \
	TARGETS=mglru_ext VMLINUX_BTF="$repo/build/kernel/$base/patched/vmlinux" BPFTOOL="$bpftool" \
	run_tests 2>&1)
echo "$out"
# the runner's own last line, "# N passed, N failed" inside kselftest's TAP
counts=$(grep -E '^# [0-9]+ passed, [0-9]+ failed$' <<<"$out" | tail -1)
if [ -z "$counts" ]; then
	echo "not ok - the mglru_ext kselftests printed no counts"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "${counts#\# }"
