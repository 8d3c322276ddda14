#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# madv_random_thrash (seed 001): readers of a "vec"
# file through an MADV_RANDOM mapping in a memcg without swap, and partway
# through a cold file read twice through a normal mapping, sized so that
# the cold read pushes the readers' working set out. On stock 6.12 MGLRU
# the readers never recover: their refaults land in the oldest
# generation, which is evicted and refilled at once, while the cold file
# stays cached.
#
# Runs in the guest. Each --arm gets its own sibling memcg and its own
# files, and all arms run at once in one thrash_load (static, staged in
# tmpfs, started just after the memcg stats flush: selftests/lib/bed.sh),
# so on the instruction-clocked bed a run is fixed work in virtual time.
# Arms as in selftests/lib/arms.sh (NAME=POLICY[,KNOB=VALUE...]; a classic
# arm runs alone).
#
# Usage: madv_random_thrash.sh --out DIR [--arm NAME=POLICY]... [--duration S]
#        [--cold-at S] [--memcg-mb MB] [--vec-mb MB] [--cold-mb MB]
#        [--readers N] [--interval-ms MS] [--progress 0|1]
# Writes DIR/NAME.csv (t,reads_s,refault_s,vec_mb,cold_mb, one row per
# interval, 250 ms by default), DIR/NAME.result (oom_kill and the policy's decision
# counters) and DIR/lru_gen.txt (the generations at the end).
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$repo/selftests/lib/bed.sh"
. "$repo/selftests/lib/arms.sh"
scratch=${MGLRU_SCRATCH:-/run/scratch}

out=
arms=()
duration=45
cold_at=15
memcg_mb=128
vec_mb=100
cold_mb=60
readers=2
interval_ms=250
progress=0
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--arm) arms+=("$2") ;;
	--duration) duration=$2 ;;
	--cold-at) cold_at=$2 ;;
	--memcg-mb) memcg_mb=$2 ;;
	--vec-mb) vec_mb=$2 ;;
	--cold-mb) cold_mb=$2 ;;
	--readers) readers=$2 ;;
	--interval-ms) interval_ms=$2 ;;
	--progress) progress=$2 ;;
	*) echo "madv_random_thrash: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "madv_random_thrash: --out DIR is required" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(stock=stock)
arm_alone "${arms[@]}" || exit 2
mkdir -p "$out"

load=$(bed_stage "$repo/build/bin/thrash_load") || exit 1
stage=/run/stage/thrash
rm -rf "$stage"
mkdir -p "$stage"
echo y >/sys/kernel/mm/lru_gen/enabled
specs=()
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	# random bytes: what the readers fault back in costs a real
	# decompression on the zram scratch disk
	for f in vec-$vec_mb cold-$cold_mb; do
		mb=${f#*-}
		[ -f "$scratch/$f-$arm_name.bin" ] ||
			dd if=/dev/urandom of="$scratch/$f-$arm_name.bin" bs=1M count="$mb" \
				conv=fsync status=none || exit 1
	done
	cg=/sys/fs/cgroup/thrash-$arm_name
	arm_remove "$cg"
	arm_memcg "$cg" "$memcg_mb" 0 && arm_attach "$cg" || exit 1
	specs+=("$arm_name:$cg:$scratch/vec-$vec_mb-$arm_name.bin:$scratch/cold-$cold_mb-$arm_name.bin")
done
bed_settle
pipe=$(bed_sync)
flags=()
[ "$progress" = 1 ] && flags+=(--progress)
"$load" --out "$stage" --duration "$duration" --cold-at "$cold_at" --readers "$readers" \
	--interval-ms "$interval_ms" ${pipe:+--wait "$pipe"} "${flags[@]}" "${specs[@]}"
rc=$?
bed_sync_off
cat /sys/kernel/debug/lru_gen >"$out/lru_gen.txt" 2>/dev/null
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=/sys/fs/cgroup/thrash-$arm_name
	cp "$stage/$arm_name.csv" "$out/" 2>/dev/null
	{
		echo "oom_kill $(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events")"
		id=$(arm_policy_id "$cg")
		[ -n "$id" ] && for c in /sys/kernel/mm/mglru_ext/policies/$id/counters/*; do
			echo "${c##*/} $(cat "$c")"
		done
	} >"$out/$arm_name.result"
	arm_detach "$cg"
	arm_remove "$cg"
done
exit $rc
