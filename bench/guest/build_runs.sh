#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build_runs.sh: one guest of the build section, in the guest: REPS runs
# of parallel_build, the arms in another order each run, guest G starting
# at the G-th arm. Guest 1's first run also measures the build's peak
# without a limit, which the section's limit is a third of.
#
# Usage: build_runs.sh G REPS ROOT MEMCG_MB SPEC...
set -u
g=$1 reps=$2 root=$3 mb=$4
shift 4
. selftests/lib/arms.sh
peak=()
[ "$g" = 1 ] && peak=(--measure-peak)
for rep in $(seq "$reps"); do
	arm_order $((rep + g - 1)) "$@"
	selftests/workloads/parallel_build.sh --out /run/results/$rep --root "$root" --jobs 8 \
		--memcg-mb "$mb" "${peak[@]}" "${arm_args[@]}" || exit
	peak=()
done
