# SPDX-License-Identifier: GPL-2.0
# The arms of a side-by-side workload, in the guest: one memcg per arm and
# what decides its reclaim. Sourced by the seed workloads, so that each
# sets up and tears down its arms the same way.
#
# An arm is NAME=POLICY[,KNOB=VALUE...]. POLICY is a shipped policy name or
# a .bpf.o (attached to the arm's memcg with mglructl, the knobs as --set),
# "stock" (no policy: stock MGLRU) or "classic" (lru_gen disabled, which is
# global: a classic arm runs alone or beside other classic arms only).
#
#   arm_parse SPEC            sets arm_name, arm_policy, arm_sets (array)
#   arm_memcg CG MB SWAP      a fresh memcg CG: memory.max MB MiB,
#                             memory.swap.max SWAP ("max" or 0)
#   arm_attach CG             arm_policy on CG (the last arm_parse's)
#   arm_policy_id CG          the id of the policy attached to CG, if any
#   arm_detach CG             undo arm_attach for arm_policy
#   arm_remove CG             kill what is left in CG and remove it
#   arm_stat CG KEY           a value of CG's memory.stat
#   arm_event CG KEY          a value of CG's memory.events
#   arm_psi_full CG           CG's memory.pressure "full" total (us)
#   arm_alone SPEC...         fails, saying why, when a classic arm runs
#                             beside an arm that is not classic
#   arm_order RUN SPEC...     sets arm_args (array) to "--arm SPEC" for
#                             each SPEC, starting at the RUN-th (from 1,
#                             wrapping): run N of a side-by-side bench
#                             starts its arms in another order than run N-1

arms_ctl=${MGLRU_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/build/bin/mglructl

arm_parse() {
	local spec=$1 knobs k
	arm_name=${spec%%=*}
	IFS=, read -r arm_policy knobs <<<"${spec#*=}"
	arm_sets=()
	for k in ${knobs//,/ }; do arm_sets+=(--set "$k"); done
}

arm_memcg() { # CG MB SWAP
	mkdir -p "$1" || return 1
	echo $(($2 << 20)) >"$1/memory.max" && echo "$3" >"$1/memory.swap.max"
}

arm_attach() { # CG
	case $arm_policy in
	stock) ;;
	classic) echo n >/sys/kernel/mm/lru_gen/enabled ;;
	*) "$arms_ctl" load "$arm_policy" --cgroup "$1" "${arm_sets[@]}" >/dev/null ;;
	esac
}

arm_policy_id() { # CG
	local id cg_id
	cg_id=$(stat -c %i "$1") || return 1
	for id in /sys/kernel/mm/mglru_ext/policies/*; do
		[ "$(cat "$id/cgroup_id" 2>/dev/null)" = "$cg_id" ] &&
			[ "$(cat "$id/state" 2>/dev/null)" = attached ] && echo "${id##*/}"
	done | sort -n | tail -1
}

arm_detach() { # CG
	case $arm_policy in
	stock) ;;
	classic) echo y >/sys/kernel/mm/lru_gen/enabled ;;
	*) "$arms_ctl" unload --cgroup "$1" >/dev/null 2>&1 ;;
	esac
}

arm_remove() { # CG
	local _
	[ -d "$1" ] || return 0
	echo 1 >"$1/cgroup.kill" 2>/dev/null
	for _ in $(seq 50); do rmdir "$1" 2>/dev/null && return 0; sleep 0.1; done
	echo "arms: $1 is still there" >&2
	return 1
}

arm_stat() { awk -v k="$2" '$1 == k { print $2 }' "$1/memory.stat"; }
arm_event() { awk -v k="$2" '$1 == k { print $2 }' "$1/memory.events"; }
arm_psi_full() { sed -n 's/^full .*total=//p' "$1/memory.pressure"; }

arm_alone() { # SPEC...
	local spec classic=0 other=0
	for spec in "$@"; do
		arm_parse "$spec"
		if [ "$arm_policy" = classic ]; then classic=1; else other=1; fi
	done
	if [ $classic = 1 ] && [ $other = 1 ]; then
		echo "arms: the classic LRU is global: a classic arm runs only beside other classic arms" >&2
		return 1
	fi
}

arm_order() { # RUN SPEC...
	local first=$1 i
	shift
	arm_args=()
	for i in $(seq 0 $(($# - 1))); do
		arm_args+=(--arm "${@:$(((first - 1 + i) % $# + 1)):1}")
	done
}
