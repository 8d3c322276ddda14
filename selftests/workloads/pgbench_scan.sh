#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pgbench_scan: PostgreSQL, an application no one here wrote, in the shape
# of cache_ext's GET-SCAN experiment: clients reading (95%) and updating
# (5%) single rows on zipf-distributed keys beside one client that scans
# the whole table over and over. The server's shared_buffers are far
# below the data, so its reads go to the kernel's page cache, and the scan
# streams the table through it: what reclaim keeps of the hot rows'
# pages, against the scan's, decides how many reads go to disk.
#
# Runs in the guest. Each --arm NAME=POLICY (selftests/lib/arms.sh) gets
# its own memcg without swap, its own copy of the database on the scratch
# disk and its own server (as the postgres user: PostgreSQL refuses to run
# as root); every arm's clients start at once, from the root cgroup. The
# server and pgbench run from tmpfs copies, so no page they fault comes
# over 9p; the server's copy keeps the install's layout, as PostgreSQL
# finds its share directory relative to its binary.
#
# Usage: pgbench_scan.sh --out DIR --data TAR [--arm NAME=POLICY]...
#        [--seconds S] [--warmup S] [--memcg-mb MB] [--clients N]
#        [--scale N]
# TAR: the database from pgbench_prepare.sh, made with the same --scale.
# Writes DIR/pgbench.csv: arm,tps,lat_avg_ms,lat_p99_ms,scans,pgpgin_kib,
#        refault_file,pgscan,pgsteal,oom_kill,max_events,psi_full_us,
#        anon_mb,file_mb: tps and latencies are the row clients', scans
#        the scanner's completed scans, the counters the measured run's
#        (the clients run twice: a warmup, then the measured run); and per
#        arm DIR/NAME.get, DIR/NAME.scan (pgbench's reports) and
#        DIR/NAME.server (the server's log).
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$repo/selftests/lib/arms.sh"
. "$repo/selftests/lib/bed.sh"
. "$repo/selftests/lib/db_counters.sh"
scratch=${MGLRU_SCRATCH:-/run/scratch}
pg=/usr/lib/postgresql/15

out=
data=
arms=()
seconds=30
warmup=10
memcg_mb=80
clients=4
scale=10
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--data) data=$2 ;;
	--arm) arms+=("$2") ;;
	--seconds) seconds=$2 ;;
	--warmup) warmup=$2 ;;
	--memcg-mb) memcg_mb=$2 ;;
	--clients) clients=$2 ;;
	--scale) scale=$2 ;;
	*) echo "pgbench_scan: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "pgbench_scan: --out DIR is required" >&2; exit 2; }
[ -f "$data" ] || { echo "pgbench_scan: --data TAR is required (pgbench_prepare.sh makes it)" >&2; exit 2; }
[ -x $pg/bin/postgres ] || { echo "pgbench_scan: $pg/bin/postgres is missing (make deps-bench)" >&2; exit 1; }
[ ${#arms[@]} -gt 0 ] || arms=(stock=stock)
arm_alone "${arms[@]}" || exit 2
mkdir -p "$out"

# the server: its binary where the install has it relative to share/ and
# lib/ (lib/ is only looked for: nothing is loaded from it), its
# libraries beside the dynamic loader
stage=$bed_stage_dir/pg
server=$(bed_stage_exec pg/lib $pg/bin/postgres) || exit 1
mkdir -p "$stage$pg/bin" "$stage$pg/lib" "$stage/usr/share/postgresql"
cp $pg/bin/postgres "$stage$pg/bin/" && cp -r /usr/share/postgresql/15 "$stage/usr/share/postgresql/" || exit 1
server=${server% *}\ $stage$pg/bin/postgres
client=$(bed_stage_exec pgbench $pg/bin/pgbench) || exit 1
as_pg=(setpriv --reuid=postgres --regid=postgres --init-groups)

# the row clients' two scripts, 19 reads to 1 update, and the scanner's
cat >"$out/get.sql" <<'EOF'
\set aid random_zipfian(1, 100000 * :scale, 1.1)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
EOF
cat >"$out/update.sql" <<'EOF'
\set aid random_zipfian(1, 100000 * :scale, 1.1)
\set delta random(-5000, 5000)
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
EOF
# a column the primary key's index does not hold, so the scan reads the
# table, not the index (count(*) would be an index-only scan)
echo 'SELECT sum(abalance) FROM pgbench_accounts;' >"$out/scan.sql"

echo y >/sys/kernel/mm/lru_gen/enabled
# the io controller: what each arm reads from disk (db_counters.sh)
echo +io >/sys/fs/cgroup/cgroup.subtree_control || exit 1
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	dir=$scratch/pg-$arm_name
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$dir" -xf "$data" || exit 1
	chown -R postgres: "$dir" && chmod 700 "$dir/data" || exit 1
	cg=/sys/fs/cgroup/pg-$arm_name
	arm_remove "$cg"
	arm_memcg "$cg" "$memcg_mb" 0 && arm_attach "$cg" || exit 1
done
# the unpacked database leaves the page cache, charged to no arm
bed_settle

# shared_buffers far below the data; no JIT (a compile under TCG would
# be most of a scan), no parallel scan, no autovacuum: each run does the
# same work
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	dir=$scratch/pg-$arm_name
	# shellcheck disable=SC2086 # $server is a command line
	sh -c 'echo $$ >"$0/cgroup.procs"; exec "$@"' "/sys/fs/cgroup/pg-$arm_name" \
		"${as_pg[@]}" $server -D "$dir/data" -c listen_addresses= \
		-c unix_socket_directories="$dir" -c shared_buffers=8MB -c max_connections=12 \
		-c jit=off -c max_parallel_workers_per_gather=0 -c autovacuum=off \
		-c min_wal_size=2MB -c max_wal_size=32MB >"$out/$arm_name.server" 2>&1 &
	# the servers end when their memcgs are removed, not waited for
	disown $!
done
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	sock=$scratch/pg-$arm_name/.s.PGSQL.5432
	for _ in $(seq 600); do [ -S "$sock" ] && break; sleep 0.5; done
	[ -S "$sock" ] ||
		{ echo "pgbench_scan: $arm_name's server did not start:" >&2; tail -5 "$out/$arm_name.server" >&2; exit 1; }
done

echo "pgbench_scan: ${#arms[@]} arm(s), ${warmup}s warmup + ${seconds}s, $clients row clients and 1 scanner each, scale $scale, ${memcg_mb} MiB memcg" >&2
pgb_opts=(-U postgres -n -s "$scale" --random-seed=1)
# clients SECONDS [LOG]: every arm's row clients and scanner at once, then
# wait for them all; with LOG, the row clients log each transaction
clients() {
	local pids=() arm dir log=()
	for arm in "${arms[@]}"; do
		arm_parse "$arm"
		dir=$scratch/pg-$arm_name
		[ $# -gt 1 ] && log=(-l --log-prefix="$out/$arm_name.log")
		# shellcheck disable=SC2086 # $client is a command line
		$client "${pgb_opts[@]}" -h "$dir" -T "$1" -c "$clients" -j 1 "${log[@]}" \
			-f "$out/get.sql@19" -f "$out/update.sql@1" postgres >"$out/$arm_name.get" 2>&1 &
		pids+=($!)
		# shellcheck disable=SC2086
		$client "${pgb_opts[@]}" -h "$dir" -T "$1" -c 1 -f "$out/scan.sql" postgres \
			>"$out/$arm_name.scan" 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}"
}
# the warmup fills the caches; its counters are left out
clients "$warmup"
declare -A base
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=/sys/fs/cgroup/pg-$arm_name
	base[$arm_name]=$(db_counters_mark "$cg")
done
clients "$seconds" log

echo "arm,tps,lat_avg_ms,lat_p99_ms,scans,$db_counters_columns" >"$out/pgbench.csv"
for arm in "${arms[@]}"; do
	arm_parse "$arm"
	cg=/sys/fs/cgroup/pg-$arm_name
	tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$out/$arm_name.get")
	scans=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$out/$arm_name.scan")
	# the third field of a transaction's log line is its latency in us
	read -r avg p99 < <(cat "$out/$arm_name".log.* 2>/dev/null | awk '{ print $3 }' | sort -n |
		awk '{ l[NR] = $1; s += $1 } END { if (NR) printf "%.2f %.2f\n", s / NR / 1000, l[int((NR * 99 + 99) / 100)] / 1000 }')
	echo "$arm_name,${tps:-0},${avg:-},${p99:-},${scans:-0},$(db_counters_since "$cg" "${base[$arm_name]}")" >>"$out/pgbench.csv"
	rm -f "$out/$arm_name".log.*
	arm_detach "$cg"
	arm_remove "$cg"
	rm -rf "$scratch/pg-$arm_name"
done
cat "$out/pgbench.csv"
