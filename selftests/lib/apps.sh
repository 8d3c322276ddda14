# SPDX-License-Identifier: GPL-2.0
# What the application workloads (rocksdb_getscan, ripgrep_search) share,
# in the guest. Sourced after arms.sh and bed.sh.
#
#   app_disk NAME MS NARMS  set app_root, where the arms' files go: the
#                           scratch disk, or with MS > 0 a slow disk whose
#                           reads are MS ms late (slow_disk.sh), unmounted
#                           when the workload exits; NAME for its errors
#   app_in CG CMD...        CMD, a process of memcg CG
#   app_option OPT VALUE    takes the options every application workload
#                           has (fails for any other): --cgroups DIR, the
#                           cgroup the arms' memcgs are made in (default
#                           the root; app_pair.sh makes one for two
#                           workloads), and --ready FILE --go FILE: once
#                           its arms are set up the workload creates FILE
#                           and waits for the other FILE before it starts
#   app_ready               the --ready/--go handshake, if asked for
#   app_done CG             detach the arm's policy and remove CG, unless
#                           it was made under --cgroups (whose owner does)

. "$(dirname "${BASH_SOURCE[0]}")/slow_disk.sh"

app_disk() { # NAME MS NARMS
	app_root=${MGLRU_SCRATCH:-/run/scratch}
	[[ $2 =~ ^[0-9]+$ ]] || { echo "$1: --read-delay-ms takes milliseconds, not '$2'" >&2; return 2; }
	echo y >/sys/kernel/mm/lru_gen/enabled
	echo +io >/sys/fs/cgroup/cgroup.subtree_control || return 1
	[ "$app_cgroups" = /sys/fs/cgroup ] || echo "+memory +io" >"$app_cgroups/cgroup.subtree_control" || return 1
	[ "$2" -gt 0 ] || return 0
	app_root=$app_root/slowdisk
	slow_disk_on "$app_root" "$2" 0 $((600 * $3 + 200)) || return 1
	trap 'slow_disk_off "$app_root"' EXIT
}

app_in() { # CG CMD...
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$@"
}

app_cgroups=/sys/fs/cgroup
app_ready_file=
app_go_file=
app_option() { # OPT VALUE
	case $1 in
	--cgroups) app_cgroups=$2 ;;
	--ready) app_ready_file=$2 ;;
	--go) app_go_file=$2 ;;
	*) return 1 ;;
	esac
}

app_ready() {
	[ -n "$app_ready_file" ] || return 0
	: >"$app_ready_file"
	while [ ! -e "$app_go_file" ]; do sleep 0.1; done
}

app_done() { # CG
	[ "$app_cgroups" = /sys/fs/cgroup ] || return 0
	arm_detach "$1"
	arm_remove "$1"
}
