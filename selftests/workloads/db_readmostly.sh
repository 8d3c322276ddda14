#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# db_readmostly (seed 000's database workload, scaled): sysbench against
# MariaDB, 95% point selects and 5% index updates on pareto-distributed
# keys (the shape of YCSB workload B, which the seed ran on MongoDB), the
# server in a memcg without swap about half its working set. The server's
# memory is mostly page cache (db_readmostly.cnf), so what reclaim keeps
# decides how many reads go to disk: throughput, latency and file
# refaults are the measure.
#
# Runs in the guest. Each --arm NAME=POLICY (selftests/lib/arms.sh) gets
# its own memcg, its own copy of the database on the scratch disk and its
# own server; every arm's sysbench starts at once, from the root cgroup.
# The server and sysbench run from tmpfs copies (bed_stage_exec), so no
# page they fault comes over 9p.
#
# The databases are on the scratch disk, where a write takes the time to
# compress a page, or with --write-delay-ms MS on ext4 over dm-delay on
# zram0, every write MS ms late and reads not delayed: a slow disk, so
# that the 5% updates leave dirty and writeback folios for reclaim to
# meet (seed 000 ran on NVMe and names the dirty flush in the loop as part
# of its gain).
#
# Usage: db_readmostly.sh --out DIR --data TAR [--arm NAME=POLICY]...
#        [--seconds S] [--warmup S] [--memcg-mb MB] [--threads N]
#        [--write-delay-ms MS]
# TAR: the database from db_prepare.sh.
# Writes DIR/db.csv: arm,tps,lat_avg_ms,lat_p99_ms,errors,dirty_met,
#        rotated,pgpgin_kib,refault_file,pgscan,pgsteal,oom_kill,max_events,
#        psi_full_us,anon_mb,file_mb (the memcg's anon and page cache at the
#        end); the counters are the measured run's (sysbench runs twice: a
#        warmup, then the measured run); dirty_met (dirty file folios
#        reclaim met and left to writeback, nr_vmscan_immediate_reclaim) and
#        rotated (folios moved to the oldest generation when their
#        writeback ended, pgrotated) are the guest's, every arm's
#        together. Also DIR/NAME.sysbench and DIR/NAME.server (the
#        measured run's and the server's logs).
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$repo/selftests/lib/arms.sh"
. "$repo/selftests/lib/bed.sh"
. "$repo/selftests/lib/db_counters.sh"
. "$repo/selftests/lib/slow_disk.sh"
scratch=${MGLRU_SCRATCH:-/run/scratch}

out=
data=
arms=()
seconds=60
warmup=20
memcg_mb=96
threads=4
write_delay_ms=0
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--data) data=$2 ;;
	--arm) arms+=("$2") ;;
	--seconds) seconds=$2 ;;
	--warmup) warmup=$2 ;;
	--memcg-mb) memcg_mb=$2 ;;
	--threads) threads=$2 ;;
	--write-delay-ms) write_delay_ms=$2 ;;
	*) echo "db_readmostly: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "db_readmostly: --out DIR is required" >&2; exit 2; }
[ -f "$data" ] || { echo "db_readmostly: --data TAR is required (db_prepare.sh makes it)" >&2; exit 2; }
[[ $write_delay_ms =~ ^[0-9]+$ ]] || { echo "db_readmostly: --write-delay-ms takes milliseconds, not '$write_delay_ms'" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(stock=stock)

guest_counter() { # NAME: the guest's /proc/vmstat counter
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}
arm_alone "${arms[@]}" || exit 2
mkdir -p "$out"

server=$(bed_stage_exec mariadbd "$(command -v mariadbd || echo /usr/sbin/mariadbd)") || exit 1
client=$(bed_stage_exec sysbench "$(command -v sysbench)") || exit 1

# the databases' disk
root=$scratch
if [ "$write_delay_ms" -gt 0 ]; then
	root=$scratch/slowdisk
	slow_disk_on "$root" 0 "$write_delay_ms" $((200 * ${#arms[@]} + 200)) || exit 1
	# the servers are gone once their memcgs are (arm_remove)
	trap 'slow_disk_off "$root"' EXIT
fi

echo y >/sys/kernel/mm/lru_gen/enabled
echo +io >/sys/fs/cgroup/cgroup.subtree_control || exit 1
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	dir=$root/db-$arm_name
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$dir" -xf "$data" || exit 1
	sed "s|@DIR@|$dir|" "$repo/selftests/workloads/db_readmostly.cnf" >"$dir/my.cnf"
	cg=/sys/fs/cgroup/db-$arm_name
	arm_remove "$cg"
	arm_memcg "$cg" "$memcg_mb" 0 && arm_attach "$cg" || exit 1
done
# the unpacked database leaves the page cache, charged to no arm
bed_settle

for arm in "${arms[@]}"; do
	arm_parse "$arm"
	dir=$root/db-$arm_name
	# shellcheck disable=SC2086 # $server is a command line
	sh -c 'echo $$ >"$0/cgroup.procs"; exec "$@"' "/sys/fs/cgroup/db-$arm_name" \
		$server --defaults-file="$dir/my.cnf" >"$out/$arm_name.server" 2>&1 &
	# the servers end when their memcgs are removed, not waited for
	disown $!
done
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	for _ in $(seq 600); do [ -S "$root/db-$arm_name/sock" ] && break; sleep 0.5; done
	[ -S "$root/db-$arm_name/sock" ] ||
		{ echo "db_readmostly: $arm_name's server did not start:" >&2; tail -5 "$out/$arm_name.server" >&2; exit 1; }
done

echo "db_readmostly: ${#arms[@]} arm(s), ${warmup}s warmup + ${seconds}s, $threads threads each, ${memcg_mb} MiB memcg" >&2
sb_opts=(oltp_read_write --db-driver=mysql --mysql-user=root --mysql-db=mysql
	--tables="${DB_TABLES:-4}" --table-size="${DB_ROWS:-100000}" --point-selects=19
	--simple-ranges=0 --sum-ranges=0 --order-ranges=0 --distinct-ranges=0 --index-updates=1
	--non-index-updates=0 --delete-inserts=0 --skip-trx=on --rand-type=pareto
	--threads="$threads" --rand-seed=1 --percentile=99)
# clients ARGS...: every arm's sysbench at once, then wait for them all
clients() {
	local pids=() arm
	for arm in "${arms[@]}"; do
		arm_parse "$arm"
		# shellcheck disable=SC2086 # $client is a command line
		$client "${sb_opts[@]}" --mysql-socket="$root/db-$arm_name/sock" "$@" \
			>"$out/$arm_name.sysbench" 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}"
}
# the warmup fills the caches; its counters are left out
clients --time="$warmup" run
declare -A base
met=$(guest_counter nr_vmscan_immediate_reclaim)
rotated=$(guest_counter pgrotated)
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=/sys/fs/cgroup/db-$arm_name
	base[$arm_name]=$(db_counters_mark "$cg")
done
clients --time="$seconds" run
met=$(($(guest_counter nr_vmscan_immediate_reclaim) - met))
rotated=$(($(guest_counter pgrotated) - rotated))

echo "arm,tps,lat_avg_ms,lat_p99_ms,errors,dirty_met,rotated,$db_counters_columns" >"$out/db.csv"
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=/sys/fs/cgroup/db-$arm_name
	sb=$out/$arm_name.sysbench
	tps=$(sed -n 's/.*transactions: *[0-9]* *(\([0-9.]*\) per sec.*/\1/p' "$sb")
	avg=$(awk '/^ *avg:/ { print $2; exit }' "$sb")
	p99=$(awk '/99th percentile:/ { print $3; exit }' "$sb")
	errs=$(sed -n 's/.*ignored errors: *\([0-9]*\).*/\1/p' "$sb")
	echo "$arm_name,${tps:-0},${avg:-},${p99:-},${errs:-},$met,$rotated,$(db_counters_since "$cg" "${base[$arm_name]}")" >>"$out/db.csv"
	arm_detach "$cg"
	arm_remove "$cg"
	rm -rf "$root/db-$arm_name"
done
cat "$out/db.csv"
