# SPDX-License-Identifier: GPL-2.0
# A slow disk for a workload's files, in the guest: ext4 on dm-delay over
# zram0, every read READ_MS and every write WRITE_MS milliseconds late.
# On the instruction clock the delay is virtual time the guest waits
# idle, as for a real disk, so a page cache miss costs what it costs on
# one instead of a decompression.
#
#   slow_disk_on DIR READ_MS WRITE_MS MB   mount a fresh MB MiB one at DIR
#   slow_disk_off DIR                      unmount it and remove the delay

slow_disk_on() { # DIR READ_MS WRITE_MS MB
	export DM_DISABLE_UDEV=1
	dmsetup remove slowdisk 2>/dev/null
	echo 1 >/sys/block/zram0/reset
	echo "$4M" >/sys/block/zram0/disksize
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 /dev/zram0 >/dev/null || return 1
	echo "0 $(blockdev --getsz /dev/zram0) delay /dev/zram0 0 $2 /dev/zram0 0 $3" |
		dmsetup create slowdisk || return 1
	mkdir -p "$1"
	mount -t ext4 -o noatime /dev/mapper/slowdisk "$1"
}

slow_disk_off() { # DIR
	umount "$1" 2>/dev/null || umount -l "$1"
	dmsetup remove slowdisk
}
