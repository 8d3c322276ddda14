#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# overhead_scaling.sh: the overhead section's scaling guest, in the guest:
# reclaim_overhead's file load, no policy and passthrough, 5 runs each,
# as the work grows: with N sibling memcgs each under a copy of the
# policy (--siblings), or with the reclaiming memcg N levels below the
# policy (--depth). Count N goes to /run/results/sN or dN.
#
# Usage: overhead_scaling.sh --siblings|--depth N...
set -u
how=$1
shift
for n in "$@"; do
	selftests/workloads/reclaim_overhead.sh --out /run/results/${how:2:1}$n --load file \
		--arm none=none --arm passthrough=passthrough "$how" "$n" --reps 5 || exit
done
