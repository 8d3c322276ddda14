#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# combined_parts.sh: the combined section's second guest, in the guest.
# Each run: combined beside budget on file_anon_mix (the arms in another
# order each run), then combined after isolation_throttle on
# isolation_pileup at 192 threads in 24 MiB and 64 threads in 16 MiB.
#
# Usage: combined_parts.sh REPS
set -u
reps=$1
. selftests/lib/arms.sh
for rep in $(seq "$reps"); do
	arm_order $rep budget=budget combined=combined
	selftests/workloads/file_anon_mix.sh --out /run/results/mix/$rep --seconds 40 \
		"${arm_args[@]}" || exit
	for shape in 192:24 64:16; do
		IFS=: read -r threads mb <<<"$shape"
		selftests/workloads/isolation_pileup.sh --out /run/results/pileup$threads/$rep \
			--threads $threads --memcg-mb $mb --seconds 20 \
			--arm isolation_throttle=isolation_throttle --arm combined=combined || exit
	done
done
