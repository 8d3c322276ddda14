# SPDX-License-Identifier: GPL-2.0
# The memcg counters a database workload (db_readmostly, pgbench_scan)
# reports per arm over its measured run, after a warmup whose counters are
# left out. Sourced after selftests/lib/arms.sh.
#
#   db_counters_mark CG       the counters now, to pass to db_counters_since
#   db_counters_since CG MARK the measured run's CSV columns, as named by
#                             $db_counters_columns: the deltas since MARK,
#                             the OOM kills, and the memcg's anon and page
#                             cache (MiB) at the end

db_counters_columns=refault_file,pgscan,pgsteal,oom_kill,max_events,psi_full_us,anon_mb,file_mb

db_counters_mark() { # CG
	echo "$(arm_stat "$1" workingset_refault_file) $(arm_stat "$1" pgscan) $(arm_stat "$1" pgsteal) $(arm_event "$1" max) $(arm_psi_full "$1")"
}

db_counters_since() { # CG MARK
	local r s t m p
	read -r r s t m p <<<"$2"
	echo "$(($(arm_stat "$1" workingset_refault_file) - r)),$(($(arm_stat "$1" pgscan) - s)),$(($(arm_stat "$1" pgsteal) - t)),$(arm_event "$1" oom_kill),$(($(arm_event "$1" max) - m)),$(($(arm_psi_full "$1") - p)),$(($(arm_stat "$1" anon) >> 20)),$(($(arm_stat "$1" file) >> 20))"
}
