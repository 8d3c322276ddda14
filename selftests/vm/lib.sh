# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest-side selftests. Sourced; the guest init has set
# MGLRU_SCRATCH (ext4 on a scratch disk) and MGLRU_SWAPDEV.

repo=${MGLRU_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
. "$repo/selftests/lib/tap.sh"
ctl=$repo/build/bin/mglructl
bpftool=$repo/build/tools/bpftool/bpftool
bpf=$repo/build/bpf
anon_touch=$repo/build/bin/anon_touch
cgroot=/sys/fs/cgroup
policies=/sys/kernel/mm/mglru_ext/policies
scratch=${MGLRU_SCRATCH:-/run/scratch}

# make_cgroup PATH MEMORY_MAX [SWAP_MAX]: a fresh memcg under the root
make_cgroup() {
	local cg=$cgroot/$1 parent
	parent=$(dirname "$cg")
	if [ "$parent" != "$cgroot" ]; then
		echo "+memory" >"$parent/cgroup.subtree_control"
	fi
	mkdir -p "$cg"
	echo "$2" >"$cg/memory.max"
	echo "${3:-0}" >"$cg/memory.swap.max"
	echo "$cg"
}

# remove_cgroup PATH: kill what runs in it and remove it, deepest first
remove_cgroup() {
	local cg=$cgroot/$1 d
	[ -d "$cg" ] || return 0
	for d in $(find "$cg" -depth -type d); do
		echo 1 >"$d/cgroup.kill" 2>/dev/null
	done
	for d in $(find "$cg" -depth -type d); do
		for _ in $(seq 50); do rmdir "$d" 2>/dev/null && break; sleep 0.1; done
	done
}

# in_cgroup PATH CMD...: run CMD inside the cgroup (in the foreground)
in_cgroup() {
	local cg=$cgroot/$1
	shift
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@"
}

# big_file NAME MB: a file on the scratch file system, created once and
# written back, so that file_pressure can drop its page cache
big_file() {
	local f=$scratch/$1
	[ -f "$f" ] || dd if=/dev/zero of="$f" bs=1M count="$2" conv=fsync status=none
	echo "$f"
}

# file_pressure CG FILE ROUNDS: read FILE ROUNDS times inside CG. Its page
# cache is dropped first: pages cached by another cgroup would be read
# without being charged here.
file_pressure() {
	dd if="$2" iflag=nocache count=0 status=none
	in_cgroup "$1" sh -c 'for i in $(seq "$1"); do cat "$0" >/dev/null; done' "$2" "$3"
}

# swap_on: enable the scratch swap disk (idempotent)
swap_on() {
	grep -q "^$MGLRU_SWAPDEV " /proc/swaps || swapon "$MGLRU_SWAPDEV"
}

# policy_field ID FIELD: a status file of policy ID, or one of its counters
# (Documentation/ABI/testing/sysfs-kernel-mm-mglru_ext in the series)
policy_field() {
	if [ -f "$policies/$1/$2" ]; then
		cat "$policies/$1/$2"
	else
		cat "$policies/$1/counters/$2" 2>/dev/null
	fi
}

# load ARGS...: mglructl load, quietly; print the new policy's id
load() {
	"$ctl" load "$@" >/dev/null || return
	policy_id "$(basename "${1%.bpf.o}")"
}

# policy_id NAME: the id of the newest policy called NAME
policy_id() {
	local f
	f=$(grep -lx "$1" "$policies"/*/name 2>/dev/null | sort -t/ -k7 -n | tail -1)
	[ -z "$f" ] || basename "$(dirname "$f")"
}

# calls ID: total hook calls of policy ID
calls() {
	local f total=0
	for f in "$policies/$1"/counters/calls_*; do
		total=$((total + $(cat "$f")))
	done
	echo $total
}

# memstat CG KEY: a memory.stat value
memstat() {
	awk -v k="$2" '$1 == k { print $2 }' "$cgroot/$1/memory.stat"
}

# memevent CG KEY: a memory.events value
memevent() {
	awk -v k="$2" '$1 == k { print $2 }' "$cgroot/$1/memory.events"
}

# retry TENTHS CMD...: run CMD every tenth of a second until it succeeds,
# at most TENTHS times
retry() {
	local n=$1 i
	shift
	for i in $(seq "$n"); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# wait_state ID STATE [SECONDS]: wait for policy ID to reach STATE
has_state() { [ "$(policy_field "$1" state)" = "$2" ]; }
wait_state() { retry $((${3:-10} * 10)) has_state "$1" "$2"; }

# as_nobody CMD...: run CMD as an unprivileged user. The checkout may sit in
# a directory only root can enter (CI clones into mktemp -d), so the tools
# and objects it needs are copied to /run/tmp/unpriv first, keeping the
# bin/ and bpf/ layout mglructl looks for its policies in.
as_nobody() {
	local u=/run/tmp/unpriv
	mkdir -p $u/bin $u/bpf
	cp "$ctl" "$bpftool" $u/bin/
	cp "$bpf"/*.bpf.o $u/bpf/
	chmod -R a+rX $u
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
unpriv_bin=/run/tmp/unpriv/bin
unpriv_bpf=/run/tmp/unpriv/bpf

# unload_all: leave no policy behind for the next test
unload_all() {
	"$ctl" unload --all >/dev/null 2>&1
	pkill -f "mglructl load" 2>/dev/null
	sleep 0.5
}
