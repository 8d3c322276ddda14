#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# thrash_alone.sh: the thrash section's second guest, in the guest. Each
# run: the classic LRU alone, thrash_aging alone (the like-for-like
# comparison for classic), then two classic arms side by side (classic
# with the CPU share the side-by-side arms of the first guest have).
#
# Usage: thrash_alone.sh REPS DURATION COLD_AT
set -u
reps=$1 duration=$2 cold_at=$3
thrash=selftests/workloads/madv_random_thrash.sh
for rep in $(seq "$reps"); do
	for arm in classic=classic thrash_aging_alone=thrash_aging; do
		$thrash --out /run/results/$rep --duration "$duration" --cold-at "$cold_at" \
			--arm $arm || exit
	done
	$thrash --out /run/results/pair$rep --duration "$duration" --cold-at "$cold_at" \
		--arm classic_side=classic --arm classic_neighbour=classic || exit
done
