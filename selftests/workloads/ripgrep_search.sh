#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ripgrep_search: ripgrep searches the same source tree again and again in
# a memcg smaller than the tree (cache_ext's ripgrep workload: a loop over
# data larger than memory). Every search reads every file, in the same
# order; a policy that evicts the files the next search reads first makes
# every search read the whole tree from disk, one that keeps a fixed part
# of it saves that part's reads. The searches' time and the memcg's reads
# are the measure.
#
# Runs in the guest. Each --arm NAME=POLICY (selftests/lib/arms.sh) gets
# its own memcg (no swap) of --pct percent of the tree's page cache and
# its own copy of the tree on the scratch disk; rg runs from a tmpfs copy
# (bed_stage_exec), one thread, for a string no file has.
#
# Usage: ripgrep_search.sh --out DIR --tree TAR [--arm NAME=POLICY]...
#        [--searches N] [--pct P] [--read-delay-ms MS] [--cgroups DIR]
#        [--ready FILE --go FILE] (selftests/lib/apps.sh's app_option)
# --read-delay-ms MS: the trees on a disk whose reads are MS ms late
# (selftests/lib/slow_disk.sh), so that a miss costs a disk read.
# TAR: the tree (bench.sh makes it from the linux-7.3 source).
# Writes DIR/ripgrep.csv: arm,total_s,first_s,rest_s,pgpgin_kib,
#        refault_file,pgscan,pgsteal,oom_kill,max_events,psi_full_us,
#        anon_mb,file_mb: every search's time (virtual s on the bed), the
#        first search's (cold), the mean of the others', and the counters
#        over all searches (selftests/lib/db_counters.sh). Also
#        DIR/NAME.times, one search's seconds a line.
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$repo/selftests/lib/arms.sh"
. "$repo/selftests/lib/bed.sh"
. "$repo/selftests/lib/db_counters.sh"
. "$repo/selftests/lib/apps.sh"
read_delay_ms=0

out=
tree=
arms=()
searches=10
pct=70
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--tree) tree=$2 ;;
	--arm) arms+=("$2") ;;
	--read-delay-ms) read_delay_ms=$2 ;;
	--searches) searches=$2 ;;
	--pct) pct=$2 ;;
	*) app_option "$1" "$2" || { echo "ripgrep_search: unknown option $1" >&2; exit 2; } ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "ripgrep_search: --out DIR is required" >&2; exit 2; }
[ -f "$tree" ] || { echo "ripgrep_search: --tree TAR is required" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(stock=stock)
arm_alone "${arms[@]}" || exit 2
mkdir -p "$out"
app_disk ripgrep_search "$read_delay_ms" ${#arms[@]} || exit $?
scratch=$app_root

rg=$(bed_stage_exec rg "$(command -v rg)") || exit 1
bash=$(bed_stage_exec bash "$(command -v bash)") || exit 1

for arm in "${arms[@]}"; do
	arm_parse "$arm"
	dir=$scratch/tree-$arm_name
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$dir" -xf "$tree" || exit 1
done
# the page cache the tree takes: its files' sizes in whole pages
pages=$(find "$scratch/tree-${arms[0]%%=*}" -type f -printf '%s\n' |
	awk '{ p += int(($1 + 4095) / 4096) } END { print p }')
memcg_mb=$((pages * 4 * pct / 100 / 1024))
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=$app_cgroups/ripgrep-$arm_name
	arm_remove "$cg"
	arm_memcg "$cg" "$memcg_mb" 0 && arm_attach "$cg" || exit 1
done
bed_settle
app_ready

# search NAME: every search of arm NAME, its start and end a line. A
# staged bash runs them and reads the clock itself ($EPOCHREALTIME): a
# program started from the 9p root inside the timed interval would wait
# for the host, and the guest's clock races ahead while it waits
# (docs/bed.md, "Idle time").
search() {
	# shellcheck disable=SC2016,SC2086 # the script is bash's; $rg a command line
	$bash -c 'echo $$ >"$0/cgroup.procs" || exit 1
		n=$1
		shift
		for ((i = 0; i < n; i++)); do
			t0=$EPOCHREALTIME
			"$@" >/dev/null
			echo "$t0 $EPOCHREALTIME"
		done' "$app_cgroups/ripgrep-$1" "$searches" \
		$rg -j1 -uuu --no-messages -c mglru_ext_no_file_has_this "$scratch/tree-$1"
}

echo "ripgrep_search: ${#arms[@]} arm(s), $searches searches of $((pages * 4 / 1024)) MiB in a ${memcg_mb} MiB memcg" >&2
declare -A base
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=$app_cgroups/ripgrep-$arm_name
	base[$arm_name]=$(db_counters_mark "$cg")
done
pids=()
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	# tmpfs: a line written to the results share would wait for the host
	search "$arm_name" >"$bed_stage_dir/ripgrep-$arm_name.clock" &
	pids+=($!)
done
wait "${pids[@]}"

for arm in "${arms[@]}"; do
	arm_parse "$arm"
	awk '{ printf "%.3f\n", $2 - $1 }' "$bed_stage_dir/ripgrep-$arm_name.clock" >"$out/$arm_name.times"
done
echo "arm,total_s,first_s,rest_s,$db_counters_columns" >"$out/ripgrep.csv"
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=$app_cgroups/ripgrep-$arm_name
	times=$(awk 'NR == 1 { f = $1 } { s += $1; n++ } END {
		printf "%.3f,%.3f,%.3f\n", s, f, (n > 1 ? (s - f) / (n - 1) : 0) }' "$out/$arm_name.times")
	echo "$arm_name,$times,$(db_counters_since "$cg" "${base[$arm_name]}")" >>"$out/ripgrep.csv"
	app_done "$cg"
	rm -rf "$scratch/tree-$arm_name"
done
cat "$out/ripgrep.csv"
