#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series of both bases kept once where they agree (scripts/series.py):
# every part a base lists exists and no part is left over; kernel-patches/
# is what series.py split writes from the two applied trees, so a line both
# bases add stands in one place; and each base's postable series has one
# patch a series entry, each signed off. Needs both trees applied with the
# series as it is (make kernel, make BASE=6.12 kernel): skipped otherwise.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/selftests/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$repo/kernel-patches"

tap_begin
missing=
for base in 7.3 6.12; do
	for slug in $(grep -v '^#' "$base/series"); do
		[ -f "common/$slug.patch" ] || [ -f "$base/$slug.patch" ] ||
			missing="$missing $base:$slug"
	done
done
[ -z "$missing" ]
tap_ok $? "every patch a series lists has a part" "missing:$missing"

stray=
for part in common/*.patch 7.3/*.patch 6.12/*.patch; do
	slug=$(basename "$part" .patch)
	dir=${part%%/*}
	case $dir in
	common) grep -qxF "$slug" 7.3/series && grep -qxF "$slug" 6.12/series ;;
	*) grep -qxF "$slug" "$dir/series" ;;
	esac || stray="$stray $part"
done
[ -z "$stray" ]
tap_ok $? "every part belongs to a series (a shared one to both)" "stray:$stray"

applied=1
for base in 7.3 6.12; do
	[ "$(cat "$repo/build/src/linux-$base/.mglru-series" 2>/dev/null)" = \
		"$("$repo/scripts/series-id.sh" "$base")" ] || applied=0
done
if [ $applied = 0 ]; then
	for t in "kernel-patches/ is what split writes" "postable series"; do
		tap_skip "$t" "the trees are not applied with this series (make kernel, make BASE=6.12 kernel)"
	done
	tap_end
	exit $?
fi

cp -a "$repo/kernel-patches" "$tmp/patches"
out=$(MGLRU_PATCHES=$tmp/patches python3 "$repo/scripts/series.py" split 2>&1 &&
	diff -r "$repo/kernel-patches" "$tmp/patches" 2>&1)
tap_ok $? "kernel-patches/ is what split writes from the applied trees" "$(head -40 <<<"$out")"

bad=
for base in 7.3 6.12; do
	python3 "$repo/scripts/series.py" postable "$base" "$tmp/$base" >/dev/null || bad="$bad $base:postable"
	n=$(grep -cv '^#' "$base/series")
	[ "$(ls "$tmp/$base"/0*.patch | grep -cv /0000-)" = "$n" ] || bad="$bad $base:count"
	for p in $(ls "$tmp/$base"/0*.patch | grep -v /0000-); do
		grep -q '^Signed-off-by: ' "$p" || bad="$bad $(basename "$p")"
	done
done
[ -z "$bad" ]
tap_ok $? "postable series: one signed-off patch a series entry, and a cover letter" "bad:$bad"
tap_end
