#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# reclaim_overhead: a steady reclaim-heavy load, to measure what reclaim
# costs: a file several times the memcg size streamed with read(), plus
# anon churn swapped to zram. Reports pages reclaimed per CPU-second of
# system time, and with bpf_stats the run time of the policy's hooks.
#
# Runs in the guest. Each --arm NAME=POLICY runs --reps times, alternating
# arms so that drift hits all of them alike. POLICY: a shipped policy, a
# .bpf.o or "none".
# Usage: reclaim_overhead.sh --out DIR [--arm NAME=POLICY]... [--reps N]
#        [--memcg-mb MB] [--file-mb MB] [--rounds N]
# Writes DIR/overhead.csv: arm,rep,sys_s,pgsteal,pages_per_sys_s,hook_calls,hook_ns
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
ctl=$repo/build/bin/mglructl
bpftool=$repo/build/tools/bpftool/bpftool
anon_touch=$repo/build/bin/anon_touch
scratch=${MGLRU_SCRATCH:-/run/scratch}

out=
arms=()
reps=5
memcg_mb=64
file_mb=192
rounds=2
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--arm) arms+=("$2") ;;
	--reps) reps=$2 ;;
	--memcg-mb) memcg_mb=$2 ;;
	--file-mb) file_mb=$2 ;;
	--rounds) rounds=$2 ;;
	*) echo "reclaim_overhead: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "reclaim_overhead: --out DIR is required" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(none=none)
mkdir -p "$out"

swapoff -a 2>/dev/null
if [ -e /sys/block/zram0 ]; then
	echo 1 >/sys/block/zram0/reset
	echo 256M >/sys/block/zram0/disksize
	mkswap /dev/zram0 >/dev/null && swapon /dev/zram0
fi
file=$scratch/overhead.bin
[ -f "$file" ] || dd if=/dev/zero of="$file" bs=1M count="$file_mb" conv=fsync status=none
sysctl -qw kernel.bpf_stats_enabled=1

# hook_stats: calls and total ns of the struct_ops programs loaded now
hook_stats() {
	"$bpftool" prog show 2>/dev/null | awk '
		/ struct_ops / { for (i = 1; i <= NF; i++) {
			if ($i == "run_time_ns") ns += $(i + 1); if ($i == "run_cnt") n += $(i + 1) } }
		END { printf "%d %d\n", n, ns }'
}

echo "arm,rep,sys_s,pgsteal,pages_per_sys_s,hook_calls,hook_ns" >"$out/overhead.csv"
for rep in $(seq "$reps"); do
	for arm in "${arms[@]}"; do
		name=${arm%%=*}
		policy=${arm#*=}
		cg=/sys/fs/cgroup/overhead-$name
		mkdir -p "$cg"
		echo $((memcg_mb << 20)) >"$cg/memory.max"
		echo max >"$cg/memory.swap.max"
		[ "$policy" = none ] || "$ctl" load "$policy" --cgroup "$cg" >/dev/null || exit 1
		dd if="$file" iflag=nocache count=0 status=none
		# system time of everything in the cgroup: reclaim is charged to
		# the tasks that allocate
		sh -c 'echo $$ >"$0/cgroup.procs"; exec "$@"' "$cg" bash -c '
			"$0" 24 1 1000 >/dev/null &
			for i in $(seq "$2"); do cat "$1" >/dev/null; done
			kill $!; wait
			times' "$anon_touch" "$file" "$rounds" >"$out/times.$name.$rep"
		sys=$(awk 'NR == 2 { split($2, t, "m"); sub("s", "", t[2]); print t[1] * 60 + t[2] }' "$out/times.$name.$rep")
		steal=$(awk '$1 == "pgsteal" { print $2 }' "$cg/memory.stat")
		read -r calls ns < <(hook_stats)
		pps=$(awk -v p="$steal" -v s="$sys" 'BEGIN { printf "%.0f", (s > 0 ? p / s : 0) }')
		echo "$name,$rep,$sys,$steal,$pps,$calls,$ns" >>"$out/overhead.csv"
		echo "reclaim_overhead: $name rep $rep: $pps pages per system second" >&2
		[ "$policy" = none ] || "$ctl" unload --cgroup "$cg" >/dev/null
		rmdir "$cg"
	done
done
sysctl -qw kernel.bpf_stats_enabled=0
cat "$out/overhead.csv"
