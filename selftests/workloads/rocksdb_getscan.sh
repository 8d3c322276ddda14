#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rocksdb_getscan: gets on skewed keys beside repeated full scans of the
# same RocksDB database (the GET-SCAN shape of cache_ext's evaluation, on
# RocksDB's own db_bench), the database a few times its memcg. The gets'
# hot keys fit in the memcg; each scan reads the whole database once. A
# reclaim policy that lets the scans push the hot keys out costs the gets
# their throughput; gets/s, the gets' p99 and the scans/s are the measure.
#
# Runs in the guest. Each --arm NAME=POLICY (selftests/lib/arms.sh) gets
# its own memcg (no swap) and its own copy of the database on the scratch
# disk; in it, one db_bench reads random keys (--read_random_exp_range:
# the larger, the more skewed) and, after a warmup of gets alone, a loop of
# db_bench readseq scans the database front to back, again and again, for
# the measured seconds. db_bench runs from a tmpfs copy (bed_stage_exec),
# with an 8 MiB block cache: the page cache holds what it reads.
#
# Usage: rocksdb_getscan.sh --out DIR --data TAR [--arm NAME=POLICY]...
#        [--seconds S] [--warmup S] [--memcg-mb MB] [--exp-range X]
#        [--no-scan] [--read-delay-ms MS] [--cgroups DIR]
#        [--ready FILE --go FILE] (selftests/lib/apps.sh's app_option)
# --read-delay-ms MS: the databases on a disk whose reads are MS ms late
# (selftests/lib/slow_disk.sh), so that a miss costs a disk read.
# TAR: the database from rocksdb_prepare.sh.
# Writes DIR/getscan.csv: arm,gets_s,get_p99_us,scans,scans_s,pgpgin_kib,
#        refault_file,pgscan,pgsteal,oom_kill,max_events,psi_full_us,
#        anon_mb,file_mb: the measured run's (selftests/lib/db_counters.sh);
#        scans counts the passes over the database in it, the last one in
#        part (from db_bench's progress lines, to within 50,000 keys).
#        Also DIR/NAME.gets and DIR/NAME.scan-N (db_bench's output).
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$repo/selftests/lib/arms.sh"
. "$repo/selftests/lib/bed.sh"
. "$repo/selftests/lib/db_counters.sh"
. "$repo/selftests/lib/apps.sh"
read_delay_ms=0

out=
data=
arms=()
seconds=30
warmup=20
memcg_mb=160
exp_range=20
scan=1
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--data) data=$2 ;;
	--arm) arms+=("$2") ;;
	--read-delay-ms) read_delay_ms=$2 ;;
	--seconds) seconds=$2 ;;
	--warmup) warmup=$2 ;;
	--memcg-mb) memcg_mb=$2 ;;
	--exp-range) exp_range=$2 ;;
	--no-scan) scan=0; shift; continue ;;
	*) app_option "$1" "$2" || { echo "rocksdb_getscan: unknown option $1" >&2; exit 2; } ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "rocksdb_getscan: --out DIR is required" >&2; exit 2; }
[ -f "$data" ] || { echo "rocksdb_getscan: --data TAR is required (rocksdb_prepare.sh makes it)" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(stock=stock)
arm_alone "${arms[@]}" || exit 2
mkdir -p "$out"
app_disk rocksdb_getscan "$read_delay_ms" ${#arms[@]} || exit $?
scratch=$app_root

bench=$(bed_stage_exec db_bench "$(command -v db_bench)") || exit 1
keys=${ROCKSDB_KEYS:-400000}
common=(--use_existing_db=1 --readonly=1 --num="$keys" --key_size=16 --value_size=1000
	--cache_size=$((8 << 20)) --open_files=-1 --compression_type=none --threads=1)

for arm in "${arms[@]}"; do
	arm_parse "$arm"
	dir=$scratch/rocksdb-$arm_name
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$dir" -xf "$data" || exit 1
	cg=$app_cgroups/getscan-$arm_name
	arm_remove "$cg"
	arm_memcg "$cg" "$memcg_mb" 0 && arm_attach "$cg" || exit 1
done
# the unpacked databases leave the page cache, charged to no arm
bed_settle
app_ready

# in_arm NAME CMD...: CMD in arm NAME's memcg
in_arm() {
	local cg=$app_cgroups/getscan-$1
	shift
	app_in "$cg" "$@"
}
gets() { # NAME SECONDS SEED
	# shellcheck disable=SC2086 # $bench is a command line
	in_arm "$1" $bench --benchmarks=readrandom --db="$scratch/rocksdb-$1" "${common[@]}" \
		--read_random_exp_range="$exp_range" --duration="$2" --seed="$3" --histogram=1
}
# scans NAME: full passes, again and again, until killed; each pass's
# output (with db_bench's progress, "... finished N ops") in NAME.scan-N
scans() {
	local n=0
	while :; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		in_arm "$1" $bench --benchmarks=readseq --db="$scratch/rocksdb-$1" "${common[@]}" \
			>"$out/$1.scan-$n" 2>&1 || break
	done
}
# scanned NAME: the keys the scans read, whole passes and the last one's
# progress when it was stopped
scanned() {
	local f done=0 last
	for f in "$out/$1".scan-*; do
		[ -f "$f" ] || continue
		if grep -q '^readseq *:' "$f"; then
			done=$((done + keys))
		else
			last=$(tr '\r' '\n' <"$f" | grep -o 'finished [0-9]* ops' | tail -1 | tr -dc 0-9)
			done=$((done + ${last:-0}))
		fi
	done
	echo "$done"
}

echo "rocksdb_getscan: ${#arms[@]} arm(s), ${warmup}s of gets, then ${seconds}s of gets$([ $scan = 1 ] && echo " and scans"), ${memcg_mb} MiB memcg, exp range $exp_range" >&2
scanners=()
pids=()
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	gets "$arm_name" "$warmup" 1 >"$out/$arm_name.warmup" 2>&1 &
	pids+=($!)
done
wait "${pids[@]}"
declare -A base
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=$app_cgroups/getscan-$arm_name
	base[$arm_name]=$(db_counters_mark "$cg")
done
# gets and scans at once; when the gets end, the counters are read and
# the scans stopped wherever they are
pids=()
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	gets "$arm_name" "$seconds" 2 >"$out/$arm_name.gets" 2>&1 &
	pids+=($!)
	if [ $scan = 1 ]; then
		scans "$arm_name" &
		scanners+=($!)
	fi
done
wait "${pids[@]}"
declare -A counters
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=$app_cgroups/getscan-$arm_name
	counters[$arm_name]=$(db_counters_since "$cg" "${base[$arm_name]}")
done
[ ${#scanners[@]} = 0 ] || kill "${scanners[@]}" 2>/dev/null
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	echo 1 >"$app_cgroups/getscan-$arm_name/cgroup.kill"
done
wait

echo "arm,gets_s,get_p99_us,scans,scans_s,$db_counters_columns" >"$out/getscan.csv"
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=$app_cgroups/getscan-$arm_name
	g=$out/$arm_name.gets
	gets_s=$(sed -n 's/^readrandom *:.* \([0-9]*\) ops\/sec.*/\1/p' "$g")
	p99=$(sed -n 's/.*P99: \([0-9.]*\).*/\1/p' "$g" | head -1)
	scans=$(awk -v k="$(scanned "$arm_name")" -v n="$keys" 'BEGIN { printf "%.3f\n", k / n }')
	scans_s=$(awk -v n="$scans" -v s="$seconds" 'BEGIN { printf "%.4f\n", n / s }')
	echo "$arm_name,${gets_s:-0},${p99:-},$scans,$scans_s,${counters[$arm_name]}" >>"$out/getscan.csv"
	app_done "$cg"
	rm -rf "$scratch/rocksdb-$arm_name"
done
cat "$out/getscan.csv"
