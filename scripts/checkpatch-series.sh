#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every patch of the postable series of one
# base (BASE, default 7.3: build/series/BASE, written by make series), with
# that kernel tree's own checkpatch. Fails on errors; prints warnings and
# checks.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
base=${BASE:-7.3}
patches=$repo/build/series/$base
checkpatch=$repo/build/src/linux-$base/scripts/checkpatch.pl
[ -x "$checkpatch" ] || { echo "checkpatch: run 'make BASE=$base kernel' first" >&2; exit 1; }
ls "$patches"/0001-*.patch >/dev/null 2>&1 || { echo "checkpatch: run 'make BASE=$base series' first" >&2; exit 1; }
status=0
for patch in $(cd "$patches" && ls 0*.patch | grep -v '^0000-'); do
	out=$("$checkpatch" --strict --no-tree --terse --show-types \
		"$patches/$patch")
	if [ -z "$out" ]; then
		echo "$base/$patch: clean"
		continue
	fi
	echo "$base/$patch: $(tail -1 <<<"$out")"
	grep -v "^total:" <<<"$out" | sed "s|^$patches/||; s/^/  /"
	grep -q "ERROR" <<<"$out" && status=1
done
exit $status
