#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: seed 001 at VM scale. MADV_RANDOM fio readers in two sibling
# memcgs of one guest, stock MGLRU in one and the thrash_aging policy in the
# other, a cold file read in both at t=COLD_AT; then the side-by-side table
# and a plot of reads/s over time.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
duration=${DEMO_DURATION:-120}
cold_at=${DEMO_COLD_AT:-40}
out=$repo/build/demo
rm -rf "$out"
mkdir -p "$out"

echo "demo: booting the patched kernel; ${duration}s of fio in two memcgs (stock, thrash_aging)"
"$repo/selftests/vm-run.sh" --quiet --kernel "$repo/build/kernel/bench/arch/x86/boot/bzImage" --results "$out" --timeout $((duration * 4 + 600)) \
	-- selftests/workloads/madv_random_thrash.sh --out /run/results \
	--arm stock=stock --arm thrash_aging=thrash_aging \
	--duration "$duration" --cold-at "$cold_at" --memcg-mb "${DEMO_MEMCG_MB:-256}" &
vm=$!
# progress: the workload's own lines from the guest console
while kill -0 $vm 2>/dev/null; do
	sleep 10
	line=$(grep -a "madv_random_thrash: t=" "$out/console.log" 2>/dev/null | tail -1 || true)
	[ -n "$line" ] && echo "demo: ${line#*madv_random_thrash: }"
done
wait $vm
echo
python3 "$repo/bench/summarize_thrash.py" "$out" "$cold_at" stock thrash_aging
