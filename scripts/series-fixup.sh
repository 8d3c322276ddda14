#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-fixup.sh: fold edits made in an applied tree (build/src/linux-BASE,
# BASE 7.3 by default) into the patches they belong to, on both bases, and
# rewrite kernel-patches/ from the two trees (scripts/series.py split).
# For developers of the series: a change to what both bases share is made
# once, in one tree.
#
# Usage: [BASE=6.12] [ONLY=1] series-fixup.sh 'SUBJECT PREFIX=FILE...' ...
#        series-fixup.sh --finish
#   e.g. series-fixup.sh "mm: vmscan:=mm/vmscan.c" "mm: add=include/linux/mglru_ext.h"
# Each FILE's edits become a fixup of the commit whose subject starts with
# PREFIX. The same change is then made in the other base's tree to its
# commit of that subject (with a three-way merge), unless ONLY=1 (a change
# of one base alone) or that base has no such commit. Where it does not
# merge, the fixups stay unsquashed: make the change in that tree by hand,
# commit it with `git commit --fixup=COMMIT`, then run --finish, which
# squashes the fixups of both trees and rewrites kernel-patches/. Each
# rebase rewrites files
# in the tree; their timestamps are put back afterwards, so kbuild only
# rebuilds what really changed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
base=${BASE:-7.3}
case $base in 7.3) other=6.12 ;; 6.12) other=7.3 ;; *) echo "series-fixup: no base '$base'" >&2; exit 2 ;; esac
src=$repo/build/src/linux-$base
dst=$repo/build/src/linux-$other
export GIT_AUTHOR_NAME="mglru_ext developers" GIT_AUTHOR_EMAIL=mglru-ext@example.org
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
[ $# -gt 0 ] || { echo "usage: series-fixup.sh 'SUBJECT PREFIX=FILE...' ... | --finish" >&2; exit 2; }

# squash the fixups of both trees, then rewrite kernel-patches/ from them
finish() {
	local tree f b
	for tree in "$repo"/build/src/linux-7.3 "$repo"/build/src/linux-6.12; do
		[ -d "$tree/.git" ] || continue
		cd "$tree"
		declare -A mtime=()
		for f in $(git diff --name-only pristine) $(git diff --name-only); do
			[ -e "$f" ] && mtime[$f]=$(stat -c %Y "$f")
		done
		GIT_SEQUENCE_EDITOR=: git rebase -q -i --autosquash pristine
		for f in "${!mtime[@]}"; do
			[ -e "$f" ] && touch -d "@${mtime[$f]}" "$f"
		done
		unset mtime
	done
	cd "$repo"
	python3 scripts/series.py split
	# the trees are the series: build-kernel.sh need not apply them again
	for b in 7.3 6.12; do
		[ -d "build/src/linux-$b/.git" ] && scripts/series-id.sh "$b" >"build/src/linux-$b/.mglru-series"
	done
	echo "series-fixup: kernel-patches/ rewritten; 'make series-diff' shows the bases apart"
}
if [ "$1" = --finish ]; then
	finish
	exit 0
fi

target_of() { # TREE PREFIX
	git -C "$1" log --format=%H --fixed-strings --grep="$2" pristine..HEAD | tail -1
}

# the fixups, in this base's tree
fixups=()
for spec in "$@"; do
	prefix=${spec%%=*}
	files=${spec#*=}
	target=$(target_of "$src" "$prefix")
	[ -n "$target" ] || { echo "series-fixup: no commit '$prefix' on $base" >&2; exit 1; }
	# shellcheck disable=SC2086
	git -C "$src" add -f $files
	git -C "$src" commit -q --fixup="$target"
	fixups+=("$(git -C "$src" rev-parse HEAD)=$prefix")
done

# the same fixups in the other base's tree; its three-way merge finds
# this tree's blobs through the alternate object directory
if [ "${ONLY:-0}" != 1 ] && [ -d "$dst/.git" ]; then
	git -C "$dst" diff --quiet HEAD ||
		{ echo "series-fixup: $dst has uncommitted changes: commit or drop them first" >&2; exit 1; }
	for fix in "${fixups[@]}"; do
		commit=${fix%%=*}
		prefix=${fix#*=}
		target=$(target_of "$dst" "$prefix")
		[ -n "$target" ] || { echo "series-fixup: $other has no '$prefix': left to $base"; continue; }
		if ! git -C "$src" diff "$commit^" "$commit" |
			GIT_ALTERNATE_OBJECT_DIRECTORIES=$src/.git/objects git -C "$dst" apply --3way --index; then
			git -C "$dst" reset -q --hard HEAD
			echo "series-fixup: the change to '$prefix' does not merge on $other." >&2
			echo "  Make it by hand in $dst, 'git commit --fixup=$target' there, then run $0 --finish" >&2
			exit 1
		fi
		# the merge found the result blobs through the alternate: write
		# them into this tree's own objects before committing
		changed=$(git -C "$dst" diff --cached --name-only)
		# shellcheck disable=SC2086
		git -C "$dst" reset -q -- $changed
		# shellcheck disable=SC2086
		git -C "$dst" add -A -f -- $changed
		git -C "$dst" commit -q --fixup="$target"
	done
fi
finish
