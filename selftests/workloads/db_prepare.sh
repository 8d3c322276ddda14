#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# db_prepare.sh OUT.tar: build db_readmostly's database on the host, once.
#
# Creating the sysbench tables takes seconds here and most of an hour of
# guest time under TCG, and the rows are the same wherever they are made,
# so the guest only unpacks this archive onto its scratch disk. MariaDB
# runs here only while the tables are filled: no network, its socket and
# data in a temporary directory, stopped before the archive is written.
#
# The server settings (db_readmostly.cnf) are the guest's, so the data
# files (redo log size, page layout) are the ones the guest opens.
set -euo pipefail
out=${1:?usage: db_prepare.sh OUT.tar}
here=$(cd "$(dirname "$0")" && pwd)
tables=${DB_TABLES:-4}
rows=${DB_ROWS:-100000}

PATH=$PATH:/usr/sbin
for bin in mariadbd mariadb-install-db sysbench; do
	command -v "$bin" >/dev/null ||
		{ echo "db_prepare: $bin is missing (make deps-bench installs it)" >&2; exit 1; }
done

tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
sed "s|@DIR@|$tmp|" "$here/db_readmostly.cnf" >"$tmp/my.cnf"
mariadb-install-db --defaults-file="$tmp/my.cnf" --skip-test-db >"$tmp/install.log" 2>&1 ||
	{ echo "db_prepare: mariadb-install-db failed:" >&2; tail -5 "$tmp/install.log" >&2; exit 1; }
mariadbd --defaults-file="$tmp/my.cnf" >"$tmp/server.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -S "$tmp/sock" ] && break; sleep 0.1; done
[ -S "$tmp/sock" ] || { echo "db_prepare: mariadbd did not start:" >&2; tail -5 "$tmp/server.log" >&2; exit 1; }
sysbench oltp_common --db-driver=mysql --mysql-socket="$tmp/sock" --mysql-user=root \
	--mysql-db=mysql --tables="$tables" --table-size="$rows" prepare >"$tmp/prepare.log" 2>&1 ||
	{ echo "db_prepare: sysbench prepare failed:" >&2; tail -5 "$tmp/prepare.log" >&2; exit 1; }
kill "$pid"
wait "$pid" || true
pid=
mkdir -p "$(dirname "$out")"
tar -C "$tmp" -cf "$out.tmp" data
mv "$out.tmp" "$out"
echo "db_prepare: $tables tables of $rows rows, $(du -h "$out" | cut -f1) in $out"
