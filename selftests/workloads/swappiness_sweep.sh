#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# swappiness_sweep (seed 004, baseline-stock-6.12.md): anon written and a
# file read with 4 KiB pread() in lockstep (anon_file_lockstep: one page
# of each per step) in a memcg with zram swap, at each swappiness; the
# anon share of reclaimed pages tells whether reclaim follows swappiness.
# Stock 6.12 MGLRU never swaps here.
#
# Runs in the guest, arms one after the other (swappiness is global).
# POLICY: a shipped policy, a .bpf.o, "stock" (no policy) or "classic"
# (lru_gen disabled for that arm; the arms run one after the other).
# Usage: swappiness_sweep.sh --out DIR [--arm NAME=POLICY]... [--seconds S]
#        [--values "10 60 100 140 190"] [--memcg-mb MB] [--anon-mb MB] [--file-mb MB]
# Writes DIR/swappiness.csv: arm,swappiness,pgsteal_anon,pgsteal_file,anon_share,
#        refault_anon,refault_file
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
ctl=$repo/build/bin/mglructl
lockstep=$repo/build/bin/anon_file_lockstep
scratch=${MGLRU_SCRATCH:-/run/scratch}

out=
arms=()
seconds=30
values="10 60 100 140 190"
memcg_mb=128
anon_mb=96
file_mb=96
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--arm) arms+=("$2") ;;
	--seconds) seconds=$2 ;;
	--values) values=$2 ;;
	--memcg-mb) memcg_mb=$2 ;;
	--anon-mb) anon_mb=$2 ;;
	--file-mb) file_mb=$2 ;;
	*) echo "swappiness_sweep: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "swappiness_sweep: --out DIR is required" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(stock=stock)
mkdir -p "$out"

# zram swap, as in the seed
swapoff -a 2>/dev/null
if [ ! -e /sys/block/zram0 ]; then
	echo "swappiness_sweep: no zram device" >&2
	exit 1
fi
echo 1 >/sys/block/zram0/reset
echo 512M >/sys/block/zram0/disksize
mkswap /dev/zram0 >/dev/null && swapon /dev/zram0 || exit 1

file=$scratch/swappiness.bin
[ -f "$file" ] || dd if=/dev/zero of="$file" bs=1M count="$file_mb" conv=fsync status=none
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
old_swappiness=$(cat /proc/sys/vm/swappiness)

echo "arm,swappiness,pgsteal_anon,pgsteal_file,anon_share,refault_anon,refault_file" >"$out/swappiness.csv"
for arm in "${arms[@]}"; do
	name=${arm%%=*}
	policy=${arm#*=}
	for s in $values; do
		echo "$s" >/proc/sys/vm/swappiness
		cg=/sys/fs/cgroup/swappiness-$name
		mkdir -p "$cg"
		echo $((memcg_mb << 20)) >"$cg/memory.max"
		echo max >"$cg/memory.swap.max"
		case $policy in
		stock) ;;
		classic) echo n >/sys/kernel/mm/lru_gen/enabled ;;
		*) "$ctl" load "$policy" --cgroup "$cg" >/dev/null || exit 1 ;;
		esac
		dd if="$file" iflag=nocache count=0 status=none
		a0=$(vmstat pgsteal_anon)
		f0=$(vmstat pgsteal_file)
		sh -c 'echo $$ >"$0/cgroup.procs"; exec "$@"' "$cg" "$lockstep" "$anon_mb" "$file" "$seconds" >/dev/null
		a=$(($(vmstat pgsteal_anon) - a0))
		f=$(($(vmstat pgsteal_file) - f0))
		ra=$(awk '$1 == "workingset_refault_anon" { print $2 }' "$cg/memory.stat")
		rf=$(awk '$1 == "workingset_refault_file" { print $2 }' "$cg/memory.stat")
		share=$(awk -v a="$a" -v f="$f" 'BEGIN { printf "%.2f", (a + f) ? a / (a + f) : 0 }')
		echo "$name,$s,$a,$f,$share,$ra,$rf" >>"$out/swappiness.csv"
		echo "swappiness_sweep: $name swappiness=$s anon share $share" >&2
		case $policy in
		stock) ;;
		classic) echo y >/sys/kernel/mm/lru_gen/enabled ;;
		*) "$ctl" unload --cgroup "$cg" >/dev/null ;;
		esac
		echo 1 >"$cg/cgroup.kill" 2>/dev/null
		sleep 1
		rmdir "$cg"
	done
done
echo "$old_swappiness" >/proc/sys/vm/swappiness
swapoff /dev/zram0
cat "$out/swappiness.csv"
