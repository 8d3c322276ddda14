#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-id.sh BASE: the id of the series of BASE as it is now (its series
# file and the parts it lists, in kernel-patches/common and
# kernel-patches/BASE), the one build-kernel.sh writes to the tree's
# .mglru-series once it has applied them.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
base=${1:?usage: series-id.sh BASE}
cd "$repo/kernel-patches"
for slug in $(grep -v '^#' "$base/series"); do
	cat "common/$slug.patch" "$base/$slug.patch" 2>/dev/null || true
done | cat "$base/series" - | sha256sum | cut -c1-16
