#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-id.sh BASE: the id of kernel-patches/BASE as it is now (the series
# file and the patches it lists), the one build-kernel.sh writes to the
# tree's .mglru-series once it has applied them.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo/kernel-patches/${1:?usage: series-id.sh BASE}"
cat series $(grep -v '^#' series) | sha256sum | cut -c1-16
