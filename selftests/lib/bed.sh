# SPDX-License-Identifier: GPL-2.0
# The guest side of the instruction-clocked bed (docs/bed.md). Sourced by
# the workloads that measure: what runs in a measured interval comes from
# tmpfs, not from the 9p root (a 9p read completes in host time), and every
# run starts from a settled system.
#
#   bed_clock           "instructions" or "wall": how this guest's time runs
#   bed_stage FILE...   copy FILEs to /run/stage (tmpfs) and print the
#                       staged path of the last one
#   bed_stage_exec DIR BIN
#                       stage a dynamically linked BIN with the libraries
#                       it loads into /run/stage/DIR and print the command
#                       that runs the staged copy with them (a static BIN:
#                       the staged copy)
#   bed_settle          write back and drop the page cache, and compact
#                       memory where the kernel can: the state every
#                       measured run starts from
#   bed_swap_on MB      a fresh zram0 swap area of MB MiB
#   bed_slow_swap DEV MS
#                       the only swap: DEV behind dm-delay, every I/O MS ms
#                       late (slow swap-out stretches the time reclaimed
#                       folios stay isolated); bed_slow_swap_off undoes it
#   bed_sync            arm the start of the next run: prints a file whose
#                       first read returns just after the memcg statistics
#                       flush worker has run (reclaim_load --wait FILE), or
#                       nothing when the kernel has no tracepoint for it
#   bed_sync_off        disarm it
#
# Why bed_sync: the flush worker runs every 2 s of guest time, whatever
# the workload does, and reclaim reads what it flushed (the shadow-node
# shrinker sizes itself from those statistics). A run that starts at
# another point of that cycle meets the flushes at other points of its
# work and can take another path: the bed's file load had two modes a
# batch apart, and its anon+file mix several, until every run started
# right after a flush.

bed_stage_dir=/run/stage

bed_clock() {
	echo "${MGLRU_CLOCK:-wall}"
}

bed_stage() {
	local f staged=
	mkdir -p "$bed_stage_dir"
	for f in "$@"; do
		staged=$bed_stage_dir/$(basename "$f")
		cp "$f" "$staged" || return 1
	done
	echo "$staged"
}

bed_stage_exec() { # DIR BIN
	local dir=$bed_stage_dir/$1 bin=$2 lib loader=
	mkdir -p "$dir"
	cp "$bin" "$dir/" || return 1
	if ! ldd "$bin" >/dev/null 2>&1; then # static
		echo "$dir/$(basename "$bin")"
		return 0
	fi
	for lib in $(ldd "$bin" | awk '/=> \// { print $3 } /^\t\// { print $1 }'); do
		cp -L "$lib" "$dir/" || return 1
		case $lib in */ld-linux*) loader=$dir/$(basename "$lib") ;; esac
	done
	[ -n "$loader" ] || { echo "bed: no dynamic loader for $bin" >&2; return 1; }
	echo "$loader --library-path $dir $dir/$(basename "$bin")"
}

bed_settle() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	[ -w /proc/sys/vm/compact_memory ] && echo 1 >/proc/sys/vm/compact_memory
}

bed_swap_on() { # MB
	swapoff /dev/zram0 2>/dev/null
	echo 1 >/sys/block/zram0/reset
	echo "$1M" >/sys/block/zram0/disksize
	mkswap /dev/zram0 >/dev/null && swapon /dev/zram0
}

bed_slow_swap() { # DEV MS
	local sectors
	swapoff -a 2>/dev/null
	export DM_DISABLE_UDEV=1
	sectors=$(blockdev --getsz "$1") || return 1
	dmsetup remove slowswap 2>/dev/null
	echo "0 $sectors delay $1 0 $2" | dmsetup create slowswap || return 1
	mkswap /dev/mapper/slowswap >/dev/null && swapon /dev/mapper/slowswap
}

bed_slow_swap_off() {
	swapoff /dev/mapper/slowswap
	dmsetup remove slowswap
}

bed_trace=/sys/kernel/tracing
bed_event=$bed_trace/events/workqueue/workqueue_execute_end

bed_sync() {
	local addr
	[ -d "$bed_event" ] || return 0
	addr=$(awk '$3 == "flush_memcg_stats_dwork" { print $1; exit }' /proc/kallsyms)
	[ -n "$addr" ] && [ "$addr" != 0000000000000000 ] || return 0
	echo 0 >"$bed_event/enable"
	echo "function == 0x$addr" >"$bed_event/filter" || return 0
	echo >"$bed_trace/trace"
	echo 1 >"$bed_event/enable"
	echo "$bed_trace/trace_pipe"
}

bed_sync_off() {
	[ -d "$bed_event" ] && echo 0 >"$bed_event/enable"
}
