#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# parallel_build (seed 003's second workload, scaled): make -jN compiling
# a small C tree (mglructl's sources, -O2) in a memcg a third of the
# build's peak, swap on dm-delay, the objects written to ext4 on dm-delay
# (the seed's slow writeback: dirty objects stay under writeback while
# reclaim meets them). Many compilers reclaiming in a small memcg over
# slow swap and slow writeback is where stock MGLRU piles up isolated
# folios; the measure is the build's time, whether it finishes (an
# OOM-killed compiler fails it) and how much direct reclaim scanned.
#
# Runs in the guest. The compiler, its libraries and the headers come from
# the root file system build_prepare.sh made, unpacked into tmpfs and
# chrooted into, so nothing the build reads comes over 9p; its object
# directory is the ext4 file system on zram0 (the device the bed leaves to
# workloads) behind dm-delay, writes --obj-delay-ms late. Without
# --memcg-mb, or with --measure-peak, the build runs once first in a memcg
# without a limit and its memory.peak goes to DIR/peak_mb; without
# --memcg-mb the limit is a third of it. The arms run one after the other
# (they share the swap device), each in a fresh memcg with an empty
# object directory.
#
# Usage: parallel_build.sh --out DIR --root TAR [--arm NAME=POLICY]...
#        [--jobs N] [--memcg-mb MB] [--measure-peak] [--delay-ms MS]
#        [--obj-delay-ms MS]
# Writes DIR/build.csv: arm,jobs,memcg_mb,seconds (virtual, the build's
#        wall time in the guest),status (make's exit status),objects,
#        oom_kill,pgscan,pgsteal,refault_anon,psi_full_us,throttles,
#        pgscan_direct, and
#        DIR/NAME.log (make's output).
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$repo/selftests/lib/arms.sh"
. "$repo/selftests/lib/bed.sh"
. "$repo/selftests/lib/slow_disk.sh"
swapdev=${MGLRU_SWAPDEV:-/dev/vdb}

out=
tarball=
arms=()
jobs=8
memcg_mb=
measure_peak=0
delay_ms=50
obj_delay_ms=50
while [ $# -gt 0 ]; do
	case $1 in
	--measure-peak) measure_peak=1; shift; continue ;;
	--out) out=$2 ;;
	--root) tarball=$2 ;;
	--arm) arms+=("$2") ;;
	--jobs) jobs=$2 ;;
	--memcg-mb) memcg_mb=$2 ;;
	--delay-ms) delay_ms=$2 ;;
	--obj-delay-ms) obj_delay_ms=$2 ;;
	*) echo "parallel_build: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "parallel_build: --out DIR is required" >&2; exit 2; }
[ -f "$tarball" ] || { echo "parallel_build: --root TAR is required (build_prepare.sh makes it)" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(stock=stock)
mkdir -p "$out"

root=$bed_stage_dir/build-root
rm -rf "$root"
mkdir -p "$root"
tar -C "$root" -xf "$tarball" || exit 1
mount --bind /dev "$root/dev" || exit 1
# the objects: on a 256 MiB slow disk, writes late
slow_disk_on "$root/obj" 0 "$obj_delay_ms" 256 || exit 1
trap 'slow_disk_off "$root/obj"; umount "$root/dev"' EXIT
bed_slow_swap "$swapdev" "$delay_ms" || exit 1

# build CG LOG: make -jN in CG, from an empty object directory; prints the
# virtual seconds it took and make's exit status
build() {
	local start rc
	rm -f "$root"/obj/*.o
	bed_settle
	start=$(date +%s.%N)
	sh -c 'echo $$ >"$0/cgroup.procs"; exec chroot "$1" /usr/bin/make -f /Makefile -j"$2"' \
		"$1" "$root" "$jobs" >"$2" 2>&1
	rc=$?
	awk -v s="$start" -v e="$(date +%s.%N)" -v rc=$rc 'BEGIN { printf "%.2f %d\n", e - s, rc }'
}

echo y >/sys/kernel/mm/lru_gen/enabled
if [ -z "$memcg_mb" ] || [ $measure_peak = 1 ]; then
	cg=/sys/fs/cgroup/build-peak
	arm_remove "$cg"
	mkdir "$cg"
	read -r secs rc < <(build "$cg" "$out/peak.log")
	[ "$rc" = 0 ] || { echo "parallel_build: the unlimited build failed:" >&2; tail -3 "$out/peak.log" >&2; exit 1; }
	peak=$(cat "$cg/memory.peak")
	echo $((peak >> 20)) >"$out/peak_mb"
	[ -n "$memcg_mb" ] || memcg_mb=$((peak / 3 >> 20))
	echo "parallel_build: unlimited, $secs s, peak $((peak >> 20)) MiB: the arms get $memcg_mb MiB" >&2
	arm_remove "$cg"
fi

echo "arm,jobs,memcg_mb,seconds,status,objects,oom_kill,pgscan,pgsteal,refault_anon,psi_full_us,throttles,pgscan_direct" >"$out/build.csv"
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=/sys/fs/cgroup/build-$arm_name
	arm_remove "$cg"
	arm_memcg "$cg" "$memcg_mb" max && arm_attach "$cg" || exit 1
	id=$(arm_policy_id "$cg")
	read -r secs rc < <(build "$cg" "$out/$arm_name.log")
	throttles=0
	[ -n "$id" ] && throttles=$(cat "/sys/kernel/mm/mglru_ext/policies/$id/counters/throttles")
	arm_detach "$cg"
	echo "$arm_name,$jobs,$memcg_mb,$secs,$rc,$(find "$root/obj" -name '*.o' | wc -l),$(arm_event "$cg" oom_kill),$(arm_stat "$cg" pgscan),$(arm_stat "$cg" pgsteal),$(arm_stat "$cg" workingset_refault_anon),$(arm_psi_full "$cg"),${throttles:-0},$(arm_stat "$cg" pgscan_direct)" >>"$out/build.csv"
	echo "parallel_build: $arm_name done in $secs s (make: $rc)" >&2
	arm_remove "$cg"
done
bed_slow_swap_off
cat "$out/build.csv"
