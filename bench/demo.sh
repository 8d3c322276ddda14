#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: seed 001 at VM scale on the instruction-clocked bed.
# MADV_RANDOM readers in two sibling memcgs of one guest, stock MGLRU in
# one and the thrash_aging policy in the other, a cold file read in both at
# t=COLD_AT virtual seconds; then the side-by-side table and a plot of
# reads/s over time.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
duration=${DEMO_DURATION:-45}
cold_at=${DEMO_COLD_AT:-15}
out=$repo/build/demo
rm -rf "$out"
mkdir -p "$out"

echo "demo: booting the patched kernel; ${duration} virtual s of readers in two memcgs (stock, thrash_aging)"
"$repo/selftests/vm-run.sh" --quiet --kernel "$repo/build/kernel/${BASE:-7.3}/bench/arch/x86/boot/bzImage" \
	--results "$out" --mem 1536M --clock instructions --timeout $((duration * 20 + 600)) \
	-- selftests/workloads/madv_random_thrash.sh --out /run/results --progress 1 \
	--arm stock=stock --arm thrash_aging=thrash_aging \
	--duration "$duration" --cold-at "$cold_at" &
vm=$!
# progress: the workload's own lines from the guest console
while kill -0 $vm 2>/dev/null; do
	sleep 10
	line=$(grep -a "thrash_load: " "$out/console.log" 2>/dev/null | tail -2 | tr '\n' ' ' || true)
	[ -n "$line" ] && echo "demo: ${line//thrash_load: /}"
done
wait $vm
echo
python3 "$repo/bench/summarize_thrash.py" "$cold_at" "$out/thrash.png" "$out"
