#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# file_anon_mix (seed 000, baseline-stock-6.12.md): mmap readers of a file
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
#        [--anon-mb MB-PER-WORKER] [--batch-pages N]
# Writes DIR/mix.csv: arm,file_batches,anon_iterations,refault_file,
#        refault_anon,oom_kill,pgscan,pgsteal,max_events (times the memcg hit
#        its limit and reclaimed),psi_full_us (memory.pressure "full"
#        total: the time all of the memcg's tasks waited on memory)
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$repo/selftests/lib/arms.sh"
mix=$repo/build/bin/file_anon_mix
scratch=${MGLRU_SCRATCH:-/run/scratch}

out=
arms=()
seconds=60
memcg_mb=208
file_mb=36
file_workers=16
anon_workers=16
anon_mb=12
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
	--anon-mb) anon_mb=$2 ;;
	--batch-pages) batch_pages=$2 ;;
	*) echo "file_anon_mix: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "file_anon_mix: --out DIR is required" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(stock=stock)
arm_alone "${arms[@]}" || exit 2
mkdir -p "$out"
memstat() { awk -v k="$2" '$1 == k { print $2 }' "$1/memory.stat"; }

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

echo "file_anon_mix: ${#arms[@]} arm(s), ${seconds}s, ${file_workers}x${file_mb} MiB file readers + ${anon_workers}x${anon_mb} MiB anon in ${memcg_mb} MiB" >&2
for arm in "${arms[@]}"; do
	name=${arm%%=*}
	sh -c 'echo $$ >"$0/cgroup.procs"; exec "$@"' "/sys/fs/cgroup/mix-$name" \
		"$mix" "$scratch/mix-$name.bin" "$file_workers" "$anon_workers" "$anon_mb" \
		"$seconds" "$batch_pages" >"$out/$name.out" 2>&1 &
done
wait

echo "arm,file_batches,anon_iterations,refault_file,refault_anon,oom_kill,pgscan,pgsteal,max_events,psi_full_us" >"$out/mix.csv"
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	name=$arm_name
	cg=/sys/fs/cgroup/mix-$name
	# an OOM-killed run printed nothing: its work counts as 0
	read -r fb ai < <(awk '/^file_batches/ { print $2, $4 }' "$out/$name.out")
	echo "$name,${fb:-0},${ai:-0},$(memstat "$cg" workingset_refault_file),$(memstat "$cg" workingset_refault_anon),$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events"),$(memstat "$cg" pgscan),$(memstat "$cg" pgsteal),$(awk '$1 == "max" { print $2 }' "$cg/memory.events"),$(sed -n 's/^full .*total=//p' "$cg/memory.pressure")" >>"$out/mix.csv"
	arm_detach "$cg"
	arm_remove "$cg"
done
echo y >/sys/kernel/mm/lru_gen/enabled
cat "$out/mix.csv"
