#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every patch of the series, with the kernel
# tree's own checkpatch. Fails on errors; prints warnings and checks.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
checkpatch=$repo/build/src/linux/scripts/checkpatch.pl
[ -x "$checkpatch" ] || { echo "checkpatch: run 'make kernel' first" >&2; exit 1; }
status=0
while read -r patch; do
	case $patch in '' | '#'*) continue ;; esac
	out=$("$checkpatch" --strict --no-tree --terse --show-types \
		"$repo/kernel-patches/$patch")
	if [ -z "$out" ]; then
		echo "$patch: clean"
		continue
	fi
	echo "$patch: $(tail -1 <<<"$out")"
	grep -v "^total:" <<<"$out" | sed "s|^$repo/kernel-patches/||; s/^/  /"
	grep -q "ERROR" <<<"$out" && status=1
done <"$repo/kernel-patches/series"
exit $status
