#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pgbench_prepare.sh OUT.tar: build pgbench_scan's database on the host,
# once.
#
# initdb and pgbench -i take seconds here and a long time under TCG, and
# the files are the same wherever they are made, so the guest only
# unpacks this archive onto its scratch disk. The server runs here only
# while the tables are filled: no TCP, its socket in a temporary
# directory, as the postgres user (PostgreSQL refuses to run as root),
# stopped before the archive is written.
set -euo pipefail
out=${1:?usage: pgbench_prepare.sh OUT.tar}
scale=${PG_SCALE:-10}
bin=/usr/lib/postgresql/15/bin

for b in initdb postgres pgbench; do
	[ -x "$bin/$b" ] ||
		{ echo "pgbench_prepare: $bin/$b is missing (make deps-bench installs postgresql-15)" >&2; exit 1; }
done
id postgres >/dev/null 2>&1 ||
	{ echo "pgbench_prepare: no postgres user (make deps-bench installs postgresql-15)" >&2; exit 1; }
as_pg=(setpriv --reuid=postgres --regid=postgres --init-groups)

tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
chown postgres: "$tmp"
"${as_pg[@]}" "$bin/initdb" -D "$tmp/data" -U postgres -A trust --no-sync --wal-segsize=1 >"$tmp/initdb.log" 2>&1 ||
	{ echo "pgbench_prepare: initdb failed:" >&2; tail -5 "$tmp/initdb.log" >&2; exit 1; }
"${as_pg[@]}" "$bin/postgres" -D "$tmp/data" -c listen_addresses= -c unix_socket_directories="$tmp" \
	-c fsync=off -c min_wal_size=2MB -c max_wal_size=32MB >"$tmp/server.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -S "$tmp/.s.PGSQL.5432" ] && break; sleep 0.1; done
[ -S "$tmp/.s.PGSQL.5432" ] ||
	{ echo "pgbench_prepare: postgres did not start:" >&2; tail -5 "$tmp/server.log" >&2; exit 1; }
"${as_pg[@]}" "$bin/pgbench" -h "$tmp" -U postgres -i -s "$scale" -q postgres >"$tmp/init.log" 2>&1 ||
	{ echo "pgbench_prepare: pgbench -i failed:" >&2; tail -5 "$tmp/init.log" >&2; exit 1; }
# a fast shutdown checkpoints, so the guest starts without recovery
kill -INT "$pid"
wait "$pid" || true
pid=
mkdir -p "$(dirname "$out")"
tar -C "$tmp" -cf "$out.tmp" data
mv "$out.tmp" "$out"
echo "pgbench_prepare: scale $scale, $(du -h "$out" | cut -f1) in $out"
