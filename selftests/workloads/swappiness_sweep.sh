#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# swappiness_sweep (seed 004): in a memcg with zram
# swap, reclaim_load's lockstep load writes one pseudo-random page of an
# anon buffer and reads one 4 KiB page of a file with pread(), TOUCHES
# times, at each swappiness; the anon share of reclaimed pages tells
# whether reclaim follows swappiness.
#
#   --file-order random      the file's pages at random, the buffer and
#                            the file the same size: both types refault
#                            alike, so the share should follow swappiness
#                            (swappiness/200, the anon:file cost ratio
#                            swappiness : 200 - swappiness)
#   --file-order sequential  the file read once, front to back: it never
#                            refaults while anon does, so the refault
#                            feedback should pull the share below that
#
# Stock 6.12 MGLRU never swaps here; seed 004 reports that the budgeted
# loop (7.3's) swaps about as much at swappiness 35 as at 175. Fixed work: the same pages in every
# run; on the instruction-clocked bed each run starts at the same point of
# the memcg stats flush (bed_sync) with the load staged in tmpfs.
#
# Runs in the guest, arms one after the other (swappiness is global).
# Arms as in selftests/lib/arms.sh, knobs after commas
# (swappiness,min_aging_interval_ms=10).
# Usage: swappiness_sweep.sh --out DIR [--arm NAME=POLICY]... [--reps N]
#        [--values "35 70 105 140 175"] [--file-order random|sequential]
#        [--memcg-mb MB] [--anon-mb MB] [--file-mb MB] [--touches N]
# Writes DIR/swappiness.csv: arm,order,swappiness,rep,ns,pgscan,
#        pgsteal_anon,pgsteal_file,anon_share,refault_anon,refault_file,
#        pswpin,pswpout (the guest's, over the run: the arms run alone)
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$repo/selftests/lib/bed.sh"
. "$repo/selftests/lib/arms.sh"
scratch=${MGLRU_SCRATCH:-/run/scratch}

out=
arms=()
reps=1
values="35 70 105 140 175"
order=random
memcg_mb=64
anon_mb=48
file_mb=48
touches=60000
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--arm) arms+=("$2") ;;
	--reps) reps=$2 ;;
	--values) values=$2 ;;
	--file-order) order=$2 ;;
	--memcg-mb) memcg_mb=$2 ;;
	--anon-mb) anon_mb=$2 ;;
	--file-mb) file_mb=$2 ;;
	--touches) touches=$2 ;;
	*) echo "swappiness_sweep: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "swappiness_sweep: --out DIR is required" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(stock=stock)
case $order in
random) ;;
# read once: the file must hold every step's page
sequential) [ $((file_mb << 8)) -ge "$touches" ] || file_mb=$(((touches >> 8) + 1)) ;;
*) echo "swappiness_sweep: --file-order random or sequential" >&2; exit 2 ;;
esac
mkdir -p "$out"

swapoff -a 2>/dev/null
bed_swap_on 512 || { echo "swappiness_sweep: no zram swap" >&2; exit 1; }
load=$(bed_stage "$repo/build/bin/reclaim_load") || exit 1
file=$scratch/swappiness-$file_mb.bin
[ -f "$file" ] || dd if=/dev/urandom of="$file" bs=1M count="$file_mb" conv=fsync status=none
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
old_swappiness=$(cat /proc/sys/vm/swappiness)

csv=$out/swappiness.csv
[ -s "$csv" ] || echo "arm,order,swappiness,rep,ns,pgscan,pgsteal_anon,pgsteal_file,anon_share,refault_anon,refault_file,pswpin,pswpout" >"$csv"
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	name=$arm_name
	for s in $values; do
		for rep in $(seq "$reps"); do
			echo "$s" >/proc/sys/vm/swappiness
			cg=/sys/fs/cgroup/swappiness-$name
			arm_memcg "$cg" "$memcg_mb" max && arm_attach "$cg" || exit 1
			bed_settle
			a0=$(vmstat pgsteal_anon)
			f0=$(vmstat pgsteal_file)
			i0=$(vmstat pswpin)
			o0=$(vmstat pswpout)
			pipe=$(bed_sync)
			res=$("$load" lockstep --file "$file" --anon-mb "$anon_mb" --touches "$touches" \
				--file-order "$order" --cgroup "$cg" ${pipe:+--wait "$pipe"})
			bed_sync_off
			a=$(($(vmstat pgsteal_anon) - a0))
			f=$(($(vmstat pgsteal_file) - f0))
			swp=$(($(vmstat pswpin) - i0)),$(($(vmstat pswpout) - o0))
			ns=$(sed -n 's/.* ns=\([0-9]*\).*/\1/p' <<<"$res")
			share=$(awk -v a="$a" -v f="$f" 'BEGIN { printf "%.3f", (a + f) ? a / (a + f) : 0 }')
			echo "$name,$order,$s,$rep,$ns,$(arm_stat "$cg" pgscan),$a,$f,$share,$(arm_stat "$cg" workingset_refault_anon),$(arm_stat "$cg" workingset_refault_file),$swp" >>"$csv"
			echo "swappiness_sweep: $name $order swappiness=$s rep $rep: anon share $share" >&2
			arm_detach "$cg"
			arm_remove "$cg"
		done
	done
done
echo "$old_swappiness" >/proc/sys/vm/swappiness
swapoff /dev/zram0
cat "$csv"
