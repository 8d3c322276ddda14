#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-init.sh: PID 1 of the mglru_ext test guest (see vm-run.sh).
#
# The root file system is the host's, read-only. Mount the kernel's own
# file systems, give the guest tmpfs for the places programs write to, run
# the command the host left in /run/results/.cmd, record its status and
# power off.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
repo=${MGLRU_REPO:?MGLRU_REPO not set on the kernel command line}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
# what udev would add: bash's <(...) needs /dev/fd
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr

# Never mount a tmpfs over a directory that holds the checkout: CI may clone
# it anywhere, /tmp included.
writable() {
	case "$repo/" in
	"$1"/*) return 1 ;;
	esac
	mount -t tmpfs -o mode=1777 tmpfs "$1"
}
writable /run || { echo "vm-init: the checkout is under /run; move it" >&2; }
writable /tmp
writable /var/tmp
writable /dev/shm
mkdir -p /run/results /run/scratch /run/home /run/tmp
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 results /run/results
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mount -t bpf bpffs /sys/fs/bpf
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
export MGLRU_CLOCK=${MGLRU_CLOCK:-wall}
if [ "$MGLRU_CLOCK" = instructions ]; then
	# On the instruction clock nothing the guest waits for may complete
	# in host time: the scratch file system and the swap area are zram
	# devices (zram0 is left to the workloads). The inode tables are
	# written now, not by a lazy-init thread during a measurement, and
	# reads don't write atimes.
	echo 4G >/sys/block/zram1/disksize
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 /dev/zram1 >/dev/null
	mount -t ext4 -o noatime /dev/zram1 /run/scratch
	echo 1G >/sys/block/zram2/disksize
	mkswap /dev/zram2 >/dev/null
	export MGLRU_SWAPDEV=/dev/zram2
else
	mount -t ext4 /dev/vda /run/scratch
	export MGLRU_SWAPDEV=/dev/vdb
fi

# Controllers for the test cgroups.
echo "+memory" >/sys/fs/cgroup/cgroup.subtree_control
echo 1 >/proc/sys/kernel/panic_on_oops 2>/dev/null
ip link set lo up 2>/dev/null

export HOME=/run/home TMPDIR=/run/tmp TERM=${TERM:-linux}
export MGLRU_RESULTS=/run/results MGLRU_SCRATCH=/run/scratch
cd "$repo" || exit 1

cmd=$(cat /run/results/.cmd)
if [ "$cmd" = "__shell__" ]; then
	echo "mglru_ext guest: $(uname -r); the checkout is at $repo; exit to power off"
	setsid -c bash -i </dev/ttyS0 >/dev/ttyS0 2>&1
	rc=$?
else
	eval "$cmd"
	rc=$?
fi

echo "$rc" >/run/results/.rc
sync
umount /run/results 2>/dev/null
umount /run/scratch 2>/dev/null
echo b >/proc/sysrq-trigger
sleep 10
