#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# place.sh: the place section's guest, in the guest: reclaim_overhead's
# file load in a memcg that holds the file whole, 5 runs per arm. First
# alone: no policy anywhere, and the place hook answering stock's
# placement (passthrough_place); then beside 2 siblings under
# passthrough_place (the place path's key on): no policy in the memcg,
# and a policy without the hook (stock_no_hooks).
#
# Usage: place.sh TEST_POLICIES_DIR FILE_MB
set -u
t=$1
common=(--load file --memcg-mb 512 --file-mb "$2" --reps 5)
selftests/workloads/reclaim_overhead.sh --out /run/results/alone "${common[@]}" \
	--arm none=none --arm passthrough_place=$t/passthrough_place.bpf.o || exit
selftests/workloads/reclaim_overhead.sh --out /run/results/placing "${common[@]}" \
	--siblings 2 --sibling-policy $t/passthrough_place.bpf.o \
	--arm none_placing=none --arm no_place_hook=$t/stock_no_hooks.bpf.o
