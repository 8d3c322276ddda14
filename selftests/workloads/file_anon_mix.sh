#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# file_anon_mix (seed 000): mmap readers of a file
# that pause between batches plus anon workers that map, touch and unmap,
# together above the memcg limit, no swap. The file cache can always be
# evicted, so the work should finish without an OOM kill; stock 6.12 MGLRU
# gets there with 10-12x the classic LRU's file refaults.
#
# Sized in the seed's proportions: the anon workers together hold 92% of
# the memcg (16 x 12 MiB of 208 MiB) and the file is 17% of it (36 MiB),
# so the work fits only if the file cache gives way. (With one vCPU on the
# instruction-clocked bed every anon worker holds its buffer at once; at
# 14 MiB a worker the anon alone is over the limit and every LRU OOMs.)
#
# Runs in the guest. Each --arm NAME=POLICY gets its own sibling memcg and
# its own file, all at once; arms as in selftests/lib/arms.sh (a classic
# arm runs alone).
#
# Usage: file_anon_mix.sh --out DIR [--arm NAME=POLICY]... [--seconds S]
#        [--memcg-mb MB] [--file-mb MB] [--file-workers N] [--anon-workers N]
#        [--anon-mb MB-PER-WORKER | --anon-kb KB-PER-WORKER] [--batch-pages N]
# Writes DIR/mix.csv: arm,file_batches,anon_iterations,refault_file,
#        refault_anon,oom_kill,pgscan,pgsteal,max_events (times the memcg hit
#        its limit and reclaimed),psi_full_us (memory.pressure "full"
#        total: the time all of the memcg's tasks waited on memory),
#        reclaims (memcg reclaim calls by the arm's tasks),empty_reclaims
#        (those that reclaimed nothing),agings (the generations the memcg's
#        MGLRU gained, from debugfs's lru_gen). The reclaim calls come from
#        the kernel's trace, empty without tracefs. Nothing probes the
#        aging function itself: on 7.3 with several vCPUs a kprobe on
#        try_to_inc_max_seq() (entry or return, under ftrace) crashed the
#        guest, jumping to a register's value, with no policy attached.
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$repo/selftests/lib/arms.sh"
. "$repo/selftests/lib/bed.sh"
scratch=${MGLRU_SCRATCH:-/run/scratch}

out=
arms=()
seconds=60
memcg_mb=208
file_mb=36
file_workers=16
anon_workers=16
anon_kb=$((12 << 10))
batch_pages=256
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--arm) arms+=("$2") ;;
	--seconds) seconds=$2 ;;
	--memcg-mb) memcg_mb=$2 ;;
	--file-mb) file_mb=$2 ;;
	--file-workers) file_workers=$2 ;;
	--anon-workers) anon_workers=$2 ;;
	--anon-mb) anon_kb=$(($2 << 10)) ;;
	--anon-kb) anon_kb=$2 ;;
	--batch-pages) batch_pages=$2 ;;
	*) echo "file_anon_mix: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "file_anon_mix: --out DIR is required" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(stock=stock)
arm_alone "${arms[@]}" || exit 2
mkdir -p "$out"
rm -f "$out/trace_counts"
# a tmpfs copy: no page the workers fault comes over 9p
mix=$(bed_stage_exec file_anon_mix "$repo/build/bin/file_anon_mix") || exit 1
trace_counts() { # TAG: an arm's two trace counts, comma-separated (empty without a trace)
	[ -f "$out/trace_counts" ] || { echo ","; return; }
	awk -v n="$1" '$1 == n { print $2 "," $3; found = 1 }
		END { if (!found) print "0,0" }' "$out/trace_counts"
}
# max_seq CG: the youngest generation of CG's memcg on node 0 (debugfs's
# lru_gen lists each memcg by its path under the cgroup root)
max_seq() {
	awk -v path="${1#/sys/fs/cgroup}" '
		$1 == "memcg" { mine = ($3 == path); next }
		mine && $1 == "node" { node = $2; next }
		mine && node == 0 && $1 ~ /^[0-9]+$/ { seq = $1 }
		END { print seq + 0 }' /sys/kernel/debug/lru_gen 2>/dev/null
}

echo y >/sys/kernel/mm/lru_gen/enabled
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	file=$scratch/mix-$arm_name.bin
	[ -f "$file" ] || dd if=/dev/zero of="$file" bs=1M count="$file_mb" conv=fsync status=none
	dd if="$file" iflag=nocache count=0 status=none
	cg=/sys/fs/cgroup/mix-$arm_name
	arm_remove "$cg"
	arm_memcg "$cg" "$memcg_mb" 0 && arm_attach "$cg" || exit 1
done

# Reclaim calls, told apart by the threads' names (mix-TAG)
trace=/sys/kernel/tracing
traced=0
if [ -d "$trace/events/vmscan/mm_vmscan_memcg_reclaim_end" ]; then
	echo 0 >"$trace/tracing_on"
	echo >"$trace/trace"
	echo 8192 >"$trace/buffer_size_kb"
	echo 1 >"$trace/events/vmscan/mm_vmscan_memcg_reclaim_end/enable"
	echo 1 >"$trace/tracing_on"
	traced=1
fi

declare -A seq0
for arm in "${arms[@]}"; do
	seq0[${arm%%=*}]=$(max_seq "/sys/fs/cgroup/mix-${arm%%=*}")
done
echo "file_anon_mix: ${#arms[@]} arm(s), ${seconds}s, ${file_workers}x${file_mb} MiB file readers + ${anon_workers}x${anon_kb} KiB anon in ${memcg_mb} MiB" >&2
tag=0
for arm in "${arms[@]}"; do
	name=${arm%%=*}
	# the threads are called mix-TAG, TAG the arm's number: an arm's name
	# may not fit in the 15 characters a thread's name has
	# shellcheck disable=SC2086 # $mix is a command line
	sh -c 'echo $$ >"$0/cgroup.procs"; exec "$@"' "/sys/fs/cgroup/mix-$name" \
		$mix $tag "$scratch/mix-$name.bin" "$file_workers" "$anon_workers" "$anon_kb" \
		"$seconds" "$batch_pages" >"$out/$name.out" 2>&1 &
	tag=$((tag + 1))
done
wait
if [ $traced = 1 ]; then
	echo 0 >"$trace/tracing_on"
	awk '/entries-in-buffer/ { split($3, n, "/"); if (n[1] != n[2]) exit 1; exit }' "$trace/trace" ||
		echo "file_anon_mix: the trace buffer overflowed: its counts are short" >&2
	# TAG reclaims empty_reclaims, per arm
	awk '{
		comm = $1; sub(/-[0-9]+$/, "", comm)
		if (comm !~ /^mix-/) next
		arm = substr(comm, 5)
		if ($0 ~ /mm_vmscan_memcg_reclaim_end:/) {
			r[arm]++
			if ($0 ~ /nr_reclaimed=0$/) e[arm]++
		}
		seen[arm] = 1
	} END { for (x in seen) print x, r[x] + 0, e[x] + 0 }' \
		"$trace/trace" >"$out/trace_counts"
	echo 0 >"$trace/events/vmscan/mm_vmscan_memcg_reclaim_end/enable"
	echo 1408 >"$trace/buffer_size_kb"
	echo 1 >"$trace/tracing_on"
	[ -s "$out/trace_counts" ] || echo "file_anon_mix: the trace saw no reclaim" >&2
fi

tag=0
echo "arm,file_batches,anon_iterations,refault_file,refault_anon,oom_kill,pgscan,pgsteal,max_events,psi_full_us,reclaims,empty_reclaims,agings" >"$out/mix.csv"
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	name=$arm_name
	cg=/sys/fs/cgroup/mix-$name
	# an OOM-killed run printed nothing: its work counts as 0
	read -r fb ai < <(awk '/^file_batches/ { print $2, $4 }' "$out/$name.out")
	echo "$name,${fb:-0},${ai:-0},$(arm_stat "$cg" workingset_refault_file),$(arm_stat "$cg" workingset_refault_anon),$(arm_event "$cg" oom_kill),$(arm_stat "$cg" pgscan),$(arm_stat "$cg" pgsteal),$(arm_event "$cg" max),$(arm_psi_full "$cg"),$(trace_counts $tag),$(($(max_seq "$cg") - seq0[$name]))" >>"$out/mix.csv"
	tag=$((tag + 1))
	arm_detach "$cg"
	arm_remove "$cg"
done
echo y >/sys/kernel/mm/lru_gen/enabled
cat "$out/mix.csv"
