#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rocksdb_prepare.sh OUT.tar: build the RocksDB database of the rocksdb
# workloads (rocksdb_getscan.sh) on the host, once: KEYS keys of 16 bytes
# with 1000-byte values, written in key order, uncompressed, compacted to
# one sorted run. Filling it takes seconds here and long minutes of guest
# time under TCG, and the files are the same wherever they are made, so
# the guest only unpacks this archive onto its scratch disk.
set -euo pipefail
out=${1:?usage: rocksdb_prepare.sh OUT.tar}
keys=${ROCKSDB_KEYS:-400000}
command -v db_bench >/dev/null ||
	{ echo "rocksdb_prepare: db_bench is missing (make deps-bench installs rocksdb-tools)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db_bench --benchmarks=fillseq,compact --db="$tmp/db" --num="$keys" --key_size=16 \
	--value_size=1000 --compression_type=none --threads=1 >"$tmp/fill.log" 2>&1 ||
	{ echo "rocksdb_prepare: db_bench fillseq failed:" >&2; tail -5 "$tmp/fill.log" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
tar -C "$tmp/db" -cf "$out.tmp" . && mv "$out.tmp" "$out"
echo "rocksdb_prepare: $keys keys, $(du -sm "$tmp/db" | cut -f1) MiB in $out"
