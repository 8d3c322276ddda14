#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The policy example in README.md is real: it compiles against the
# shipped headers and the patched kernel's vmlinux.h, in the kernel's
# style, and mglructl reads its description and knob from the object.
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/selftests/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tap_begin
awk '/<!-- example:/ { want = 1; next }
	want && /^```c/ { inside = 1; next }
	inside && /^```/ { exit }
	inside { print }' "$repo/README.md" >"$tmp/file_first.bpf.c"
[ -s "$tmp/file_first.bpf.c" ]
tap_ok $? "README.md has the example policy"
out=$(clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -Wall -Werror -fms-extensions -Wno-microsoft-anon-tag \
	-I"$repo/build/include" -I"$repo/build/tools/libbpf/include" \
	-I"$repo/include" -I"$repo/bpf-policies" \
	-c "$tmp/file_first.bpf.c" -o "$tmp/file_first.bpf.o" 2>&1)
tap_ok $? "the example compiles" "$out"
out=$(clang-format --style=file:"$repo/build/src/linux-7.3/.clang-format" --dry-run \
	--Werror "$tmp/file_first.bpf.c" 2>&1)
tap_ok $? "the example is in the kernel's style" "$out"
out=$(MGLRU_POLICY_DIR=$tmp "$repo/build/bin/mglructl" list 2>&1)
grep -q "min_file" <<<"$out" && grep -q "file first" <<<"$out"
tap_ok $? "mglructl reads its description and knob" "$out"
tap_end
