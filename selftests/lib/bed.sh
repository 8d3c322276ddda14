# SPDX-License-Identifier: GPL-2.0
# The guest side of the instruction-clocked bed (docs/bed.md). Sourced by
# the workloads that measure: what runs in a measured interval comes from
# tmpfs, not from the 9p root (a 9p read completes in host time), and every
# run starts from a settled system.
#
#   bed_clock           "instructions" or "wall": how this guest's time runs
#   bed_stage FILE...   copy FILEs to /run/stage (tmpfs) and print the
#                       staged path of the last one
#   bed_settle          write back and drop the page cache, compact memory
#                       and empty the zram0 swap area: the state every
#                       measured run starts from
#   bed_swap_on MB      a fresh zram0 swap area of MB MiB

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
