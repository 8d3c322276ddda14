#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The example policy, bpf-policies/example.bpf.c, is real: it compiles
# against the shipped headers and the patched kernel's vmlinux.h, in the
# kernel's style, and mglructl reads its description and knob from the
# object. The excerpt of it that README.md shows is taken from it.
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/selftests/lib/tap.sh"
src=$repo/bpf-policies/example.bpf.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tap_begin
out=$(clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -Wall -Werror -fms-extensions -Wno-microsoft-anon-tag \
	-I"$repo/build/include" -I"$repo/build/tools/libbpf/include" \
	-I"$repo/include" -I"$repo/bpf-policies" \
	-c "$src" -o "$tmp/example.bpf.o" 2>&1)
tap_ok $? "the example compiles" "$out"
out=$(clang-format --style=file:"$repo/build/src/linux-7.3/.clang-format" --dry-run \
	--Werror "$src" 2>&1)
tap_ok $? "the example is in the kernel's style" "$out"
out=$(MGLRU_POLICY_DIR=$tmp "$repo/build/bin/mglructl" list 2>&1)
grep -q "min_file" <<<"$out" && grep -q "file first" <<<"$out"
tap_ok $? "mglructl reads its description and knob" "$out"
# the README's excerpt: the block after its <!-- example: --> marker
awk '/<!-- example:/ { want = 1; next }
	want && /^```c/ { inside = 1; next }
	inside && /^```/ { exit }
	inside { print }' "$repo/README.md" >"$tmp/excerpt.c"
missing=
while IFS= read -r line; do
	[ -z "$line" ] || grep -Fxq -- "$line" "$src" || missing+="$line"$'\n'
done <"$tmp/excerpt.c"
[ -s "$tmp/excerpt.c" ] && [ -z "$missing" ]
tap_ok $? "README.md's excerpt is lines of the example" "${missing:-no excerpt found}"
tap_end
