#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-fixup.sh: fold edits made in build/src/linux-BASE into the patch
# series of that base (BASE, default 7.3) and regenerate
# kernel-patches/BASE/, with the cover letter (patch 0) written from its
# cover-letter.txt. For developers of the series; a fix usually needs
# its twin in the other base's series.
#
# Usage: series-fixup.sh 'SUBJECT PREFIX=FILE...' ...
#   e.g. series-fixup.sh "mm: vmscan:=mm/vmscan.c" "mm: add=include/linux/mglru_ext.h"
# Each FILE's edits become a fixup of the commit whose subject starts with
# PREFIX. The rebase rewrites files in the tree; their timestamps are put
# back afterwards, so kbuild only rebuilds what really changed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
base=${BASE:-7.3}
# SRC: another checkout of that tree (a git worktree of it, say)
src=${SRC:-$repo/build/src/linux-$base}
patches=$repo/kernel-patches/$base
cd "$src"
export GIT_AUTHOR_NAME="mglru_ext developers" GIT_AUTHOR_EMAIL=mglru-ext@example.org
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"

declare -A mtime=()
for f in $(git diff --name-only pristine) $(git diff --name-only); do
	mtime[$f]=$(stat -c %Y "$f")
done
for spec in "$@"; do
	prefix=${spec%%=*}
	files=${spec#*=}
	target=$(git log --format=%H --fixed-strings --grep="$prefix" pristine..HEAD | tail -1)
	[ -n "$target" ] || { echo "series-fixup: no commit '$prefix'" >&2; exit 1; }
	git add -f $files
	git commit -q --fixup="$target"
done
GIT_SEQUENCE_EDITOR=: git rebase -q -i --autosquash pristine
for f in "${!mtime[@]}"; do
	[ -e "$f" ] && touch -d "@${mtime[$f]}" "$f"
done
header=$(grep '^#' "$patches/series")
rm -f "$patches"/*.patch
# patch 0: the cover letter, its subject and text from cover-letter.txt
git -c core.abbrev=12 format-patch -q --no-signature --cover-letter -o "$patches" pristine..HEAD
python3 - "$patches/cover-letter.txt" "$patches"/0000-cover-letter.patch <<'EOF'
import sys
text, letter = sys.argv[1:]
subject, _, blurb = open(text).read().partition("\n\n")
s = open(letter).read()
s = s.replace("*** SUBJECT HERE ***", subject.strip())
s = s.replace("*** BLURB HERE ***", blurb.strip())
open(letter, "w").write(s)
EOF
(echo "$header"
 cd "$patches" && ls *.patch | grep -v '^0000-') >"$patches/series"
# the tree is the series: build-kernel.sh need not apply it again
"$repo/scripts/series-id.sh" "$base" >.mglru-series
git rev-parse HEAD
