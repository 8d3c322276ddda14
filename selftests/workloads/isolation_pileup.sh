#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# isolation_pileup (seed 003): many threads
# write-touching a shared anon buffer three times the memcg limit, with swap
# on a slow device (dm-delay over the swap disk), so that reclaimers pile up
# isolated folios. Stock 6.12 MGLRU OOM-kills at 96+ threads.
#
# Runs in the guest, one arm after the other (they share the swap device).
# Arms as in selftests/lib/arms.sh (NAME=POLICY[,KNOB=VALUE...]).
#
# Usage: isolation_pileup.sh --out DIR [--arm NAME=POLICY]... [--threads N]
#        [--seconds S] [--memcg-mb MB] [--anon-mb MB] [--delay-ms MS]
# Writes DIR/pileup.csv: arm,threads,touches,oom_kill,oom,throttles,pgscan,pgsteal,
#        memcg_mb, and DIR/NAME.oom.txt for an arm OOM-killed (the kernel's last report)
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$repo/selftests/lib/arms.sh"
. "$repo/selftests/lib/bed.sh"
swapdev=${MGLRU_SWAPDEV:-/dev/vdb}

out=
arms=()
threads=192
seconds=30
memcg_mb=16
anon_mb=48
delay_ms=50
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--arm) arms+=("$2") ;;
	--threads) threads=$2 ;;
	--seconds) seconds=$2 ;;
	--memcg-mb) memcg_mb=$2 ;;
	--anon-mb) anon_mb=$2 ;;
	--delay-ms) delay_ms=$2 ;;
	*) echo "isolation_pileup: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "isolation_pileup: --out DIR is required" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(stock=stock)
mkdir -p "$out"

# a tmpfs copy: no page the threads fault comes over 9p
anon_touch=$(bed_stage_exec anon_touch "$repo/build/bin/anon_touch") || exit 1
# Swap on dm-delay: slow swap-out stretches the isolation window.
bed_slow_swap "$swapdev" "$delay_ms" || exit 1

echo "arm,threads,touches,oom_kill,oom,throttles,pgscan,pgsteal,memcg_mb" >"$out/pileup.csv"
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=/sys/fs/cgroup/pileup-$arm_name
	arm_remove "$cg"
	arm_memcg "$cg" "$memcg_mb" max && arm_attach "$cg" || exit 1
	id=$(arm_policy_id "$cg")
	# shellcheck disable=SC2086 # $anon_touch is a command line
	result=$(sh -c 'echo $$ >"$0/cgroup.procs"; exec "$@"' "$cg" \
		$anon_touch "$anon_mb" "$threads" "$seconds" 2>/dev/null)
	touches=$(awk '$1 == "touches" { print $2 }' <<<"$result")
	throttles=0
	[ -n "$id" ] && throttles=$(cat "/sys/kernel/mm/mglru_ext/policies/$id/counters/throttles")
	arm_detach "$cg"
	# what the memcg held when it was killed (the report's statistics are
	# below the console's log level)
	[ "$(arm_event "$cg" oom_kill)" -gt 0 ] &&
		dmesg | awk '/invoked oom-killer/ { n = NR } { line[NR] = $0 }
			END { for (i = n; i <= NR; i++) print line[i] }' >"$out/$arm_name.oom.txt"
	echo "$arm_name,$threads,${touches:-0},$(arm_event "$cg" oom_kill),$(arm_event "$cg" oom),${throttles:-0},$(arm_stat "$cg" pgscan),$(arm_stat "$cg" pgsteal),$memcg_mb" >>"$out/pileup.csv"
	echo "isolation_pileup: $arm_name done" >&2
	arm_remove "$cg"
done
bed_slow_swap_off
cat "$out/pileup.csv"
