# SPDX-License-Identifier: GPL-2.0
# The memcg counters a database or application workload (db_readmostly,
# pgbench_scan, rocksdb_getscan, ripgrep_search) reports per arm over its
# measured run, after a warmup whose counters are left out. Sourced after
# selftests/lib/arms.sh. pgpgin_kib is what the memcg read from disk, in
# KiB (pgpgin's unit): the rbytes of its io.stat over every device, so
# the workload turns the io controller on for its arms (the guest's
# /proc/vmstat pgpgin is every arm's at once).
#
#   db_counters_mark CG       the counters now, to pass to db_counters_since
#   db_counters_since CG MARK the measured run's CSV columns, as named by
#                             $db_counters_columns: the deltas since MARK,
#                             the OOM kills, and the memcg's anon and page
#                             cache (MiB) at the end

db_counters_columns=pgpgin_kib,refault_file,pgscan,pgsteal,oom_kill,max_events,psi_full_us,anon_mb,file_mb

db_read_kib() { # CG
	awk '{ for (i = 2; i <= NF; i++) if (sub(/^rbytes=/, "", $i)) s += $i }
		END { printf "%d\n", s / 1024 }' "$1/io.stat"
}

db_counters_mark() { # CG
	echo "$(db_read_kib "$1") $(arm_stat "$1" workingset_refault_file) $(arm_stat "$1" pgscan) $(arm_stat "$1" pgsteal) $(arm_event "$1" max) $(arm_psi_full "$1")"
}

db_counters_since() { # CG MARK
	local k r s t m p
	read -r k r s t m p <<<"$2"
	echo "$(($(db_read_kib "$1") - k)),$(($(arm_stat "$1" workingset_refault_file) - r)),$(($(arm_stat "$1" pgscan) - s)),$(($(arm_stat "$1" pgsteal) - t)),$(arm_event "$1" oom_kill),$(($(arm_event "$1" max) - m)),$(($(arm_psi_full "$1") - p)),$(($(arm_stat "$1" anon) >> 20)),$(($(arm_stat "$1" file) >> 20))"
}
