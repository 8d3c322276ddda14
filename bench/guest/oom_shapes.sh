#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# oom_shapes.sh: the oom section's guest, in the guest: file_anon_mix at
# each shape, REPS runs each, the arms in another order each run.
#
# Usage: oom_shapes.sh REPS "MEMCG_MB:FILE_MB:WORKERS:ANON_KB..." SPEC...
# Run r of a shape goes to /run/results/SHAPE/r.
set -u
reps=$1 shapes=$2
shift 2
for shape in $shapes; do
	IFS=: read -r memcg file workers kb <<<"$shape"
	bench/guest/runs.sh --out /run/results/$shape --rotate 1 "$reps" \
		selftests/workloads/file_anon_mix.sh --seconds 30 --memcg-mb "$memcg" \
		--file-mb "$file" --file-workers "$workers" --anon-workers "$workers" \
		--anon-kb "$kb" -- "$@" || exit
done
