#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# reclaim_overhead: what reclaim costs, per scanned and per reclaimed page,
# with and without mglru_ext policies. Each run is one fixed amount of
# work (reclaim_load: file streaming several times the memcg, anon churn
# swapped to zram, or the two interleaved) in a fresh memcg, timed inside
# the guest; on the instruction-clocked bed the time is a count of
# instructions (docs/bed.md).
#
# Runs in the guest. Each --arm NAME=POLICY (a shipped policy, a .bpf.o or
# "none") runs every --load --reps times; arms alternate within a
# repetition so drift hits all of them alike. A policy is attached to the
# arm's cgroup, the run's memcg is --depth levels below it (nearest
# ancestor wins). With --siblings N, N - 1 sibling cgroups, each filled to
# its limit, hold a copy of --sibling-policy (default passthrough) for the
# whole run: what a lookup costs with N policies attached. Before the
# measured repetitions, --warmup rounds of every load run unrecorded: the
# first runs of a boot fill slab caches, zsmalloc and the page allocator's
# lists for the first time and cost more than every later run.
#
# Usage: reclaim_overhead.sh --out DIR [--arm NAME=POLICY]... [--load L]...
#        [--reps N] [--warmup N] [--depth N] [--siblings N]
#        [--sibling-policy POLICY] [--memcg-mb MB]
#        [--file-mb MB] [--scale F]
# Writes DIR/overhead.csv:
#   arm,load,rep,depth,siblings,ns,pgscan,pgsteal,calls,refused
# and DIR/uptime, the guest's /proc/uptime when it ends (seconds since boot,
# seconds idle).
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$repo/selftests/vm/lib.sh"
. "$repo/selftests/lib/bed.sh"

out=
arms=()
loads=()
reps=5
warmup=1
depth=1
siblings=1
sibling_policy=passthrough
memcg_mb=64
file_mb=384
scale=1
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--arm) arms+=("$2") ;;
	--load) loads+=("$2") ;;
	--reps) reps=$2 ;;
	--warmup) warmup=$2 ;;
	--depth) depth=$2 ;;
	--siblings) siblings=$2 ;;
	--sibling-policy) sibling_policy=$2 ;;
	--memcg-mb) memcg_mb=$2 ;;
	--file-mb) file_mb=$2 ;;
	--scale) scale=$2 ;;
	*) echo "reclaim_overhead: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "reclaim_overhead: --out DIR is required" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(none=none)
[ ${#loads[@]} -gt 0 ] || loads=(file anon mix)
[ "$depth" -ge 1 ] && [ "$siblings" -ge 1 ] ||
	{ echo "reclaim_overhead: --depth and --siblings start at 1" >&2; exit 2; }
mkdir -p "$out"

# What runs in a measured interval comes from tmpfs.
load_bin=$(bed_stage "$repo/build/bin/reclaim_load") || exit 1
bed_swap_on 512 || exit 1
file=$(big_file overhead.bin "$file_mb")

# The fixed work of each load: one pass over the file (--file-mb, six
# times the memcg by default), and --scale times 200,000 touches. Files
# are read once per run, as a stream, and the mix's reads do not wrap: a
# page read again refaults, and what a refault finds depends on the
# shadow-node shrinker, which sizes itself from memcg statistics flushed
# by a time-driven worker (see bed_sync in selftests/lib/bed.sh).
load_args() { # LOAD
	local touches
	touches=$(awk -v s="$scale" 'BEGIN { print int(200000 * s) }')
	case $1 in
	file) echo "file --file $file --passes 1" ;;
	anon) echo "anon --anon-mb $((memcg_mb * 3 / 2)) --touches $touches" ;;
	mix) echo "mix --file $file --anon-mb $memcg_mb --touches $touches" ;;
	*) echo "reclaim_overhead: unknown load '$1'" >&2; return 1 ;;
	esac
}

# The run's memcg: DEPTH levels below the arm's cgroup, the limit on the
# deepest one (the one that reclaims).
run_cgroup() { # ARM_CG
	local path=$1 i
	for i in $(seq "$depth"); do
		path=$path/d$i
	done
	echo "${path#"$cgroot"/}"
}

make_tree() { # ARM_CG
	local path=$1 i
	mkdir -p "$path"
	for i in $(seq "$depth"); do
		echo "+memory" >"$path/cgroup.subtree_control"
		path=$path/d$i
		mkdir -p "$path"
	done
	echo $((memcg_mb << 20)) >"$path/memory.max"
	echo max >"$path/memory.swap.max"
}

# Siblings 2..N: a small memcg each, filled to its limit with page cache,
# each with --sibling-policy attached, for as long as this script runs.
make_siblings() {
	local i cg file
	[ "$siblings" -gt 1 ] || return 0
	file=$(big_file sibling.bin 8)
	for i in $(seq 2 "$siblings"); do
		cg=$cgroot/overhead-sib$i
		mkdir -p "$cg"
		echo $((4 << 20)) >"$cg/memory.max"
		"$ctl" load "$sibling_policy" --cgroup "$cg" >/dev/null || return 1
		in_cgroup "overhead-sib$i" cat "$file" >/dev/null
	done
}

remove_siblings() {
	local i
	for i in $(seq 2 "$siblings"); do
		[ -d "$cgroot/overhead-sib$i" ] || continue
		"$ctl" unload --cgroup "$cgroot/overhead-sib$i" >/dev/null 2>&1
		remove_cgroup "overhead-sib$i"
	done
}

# hook_counts ID: "calls refused" of policy ID, or "0 0"
hook_counts() {
	[ -n "$1" ] || { echo "0 0"; return; }
	echo "$(calls "$1") $(policy_field "$1" refused)"
}

# run_arm ARM REP: every load once under ARM; REP 0 is a warm-up, not
# recorded
run_arm() {
	local name=${1%%=*} policy=${1#*=} rep=$2 armcg runcg id= load args line
	local calls0 refused0 calls1 refused1 ns scan steal sync_file
	armcg=$cgroot/overhead-$name
	make_tree "$armcg"
	if [ "$policy" != none ]; then
		"$ctl" load "$policy" --cgroup "$armcg" >/dev/null || return 1
		id=$(policy_id "$(basename "${policy%.bpf.o}")")
	fi
	runcg=$(run_cgroup "$armcg")
	for load in "${loads[@]}"; do
		args=$(load_args "$load") || return 1
		bed_settle
		read -r calls0 refused0 < <(hook_counts "$id")
		# a fresh memcg for every run: its counters start at 0
		mkdir -p "$cgroot/$runcg"
		echo $((memcg_mb << 20)) >"$cgroot/$runcg/memory.max"
		sync_file=$(bed_sync)
		# shellcheck disable=SC2086
		line=$("$load_bin" $args --cgroup "$cgroot/$runcg" ${sync_file:+--wait "$sync_file"}) || return 1
		bed_sync_off
		read -r calls1 refused1 < <(hook_counts "$id")
		ns=$(sed -n 's/.* ns=\([0-9]*\).*/\1/p' <<<"$line")
		scan=$(memstat "$runcg" pgscan)
		steal=$(memstat "$runcg" pgsteal)
		rmdir "$cgroot/$runcg"
		echo "reclaim_overhead: $name $load rep $rep: $ns ns, $scan scanned, $steal reclaimed," \
			"$((calls1 - calls0)) hook calls" >&2
		[ "$rep" -gt 0 ] || continue
		echo "$name,$load,$rep,$depth,$siblings,$ns,$scan,$steal,$((calls1 - calls0)),$((refused1 - refused0))" \
			>>"$out/overhead.csv"
	done
	[ "$policy" = none ] || "$ctl" unload --cgroup "$armcg" >/dev/null
	remove_cgroup "overhead-$name"
}

echo "arm,load,rep,depth,siblings,ns,pgscan,pgsteal,calls,refused" >"$out/overhead.csv"
make_siblings || exit 1
for rep in $(seq "$warmup"); do
	run_arm "${arms[0]}" 0 || exit 1
done
for rep in $(seq "$reps"); do
	for arm in "${arms[@]}"; do
		run_arm "$arm" "$rep" || exit 1
	done
done
remove_siblings
swapoff /dev/zram0
# the guest's own time since boot: against the host's wall time, what a
# virtual second costs (idle virtual time costs next to no wall time)
cat /proc/uptime >"$out/uptime"
cat "$out/overhead.csv"
