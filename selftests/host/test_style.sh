#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Style of the project's own C: every file as the kernel's .clang-format
# would write it (user space and BPF alike), and shell scripts that parse.
# One TAP line per file, so a failure names the file; `make format` fixes
# the C ones.
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/selftests/lib/tap.sh"
style=$repo/build/src/linux-7.3/.clang-format

tap_begin
cd "$repo" || exit 1
if [ ! -r "$style" ]; then
	tap_ok 1 "kernel .clang-format at $style (run 'make kernel')"
	tap_end
	exit
fi
for f in $(scripts/c-sources.sh); do
	out=$(clang-format --style=file:"$style" --dry-run --Werror "$f" 2>&1)
	tap_ok $? "clang-format (kernel style): $f" "$(head -5 <<<"$out")"
done
for f in $(git ls-files '*.sh' .ci/run 2>/dev/null); do
	out=$(bash -n "$f" 2>&1)
	tap_ok $? "bash -n: $f" "$out"
done
tap_end
