#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every patch of the series of one base (BASE,
# default 7.3), with that kernel tree's own checkpatch. Fails on errors;
# prints warnings and checks.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
base=${BASE:-7.3}
patches=$repo/kernel-patches/$base
checkpatch=$repo/build/src/linux-$base/scripts/checkpatch.pl
[ -x "$checkpatch" ] || { echo "checkpatch: run 'make BASE=$base kernel' first" >&2; exit 1; }
status=0
while read -r patch; do
	case $patch in '' | '#'*) continue ;; esac
	out=$("$checkpatch" --strict --no-tree --terse --show-types \
		"$patches/$patch")
	if [ -z "$out" ]; then
		echo "$base/$patch: clean"
		continue
	fi
	echo "$base/$patch: $(tail -1 <<<"$out")"
	grep -v "^total:" <<<"$out" | sed "s|^$patches/||; s/^/  /"
	grep -q "ERROR" <<<"$out" && status=1
done <"$patches/series"
exit $status
