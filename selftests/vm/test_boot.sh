#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The guest runs the patched kernel with BTF, MGLRU and mglru_ext, and the
# in-tree bpftool can register a struct_ops map.
. "$(dirname "$0")/lib.sh"

tap_begin

# the base make check booted (MGLRU_BASE on the kernel command line)
want=$(sed -n 's/.*MGLRU_BASE=\([^ ]*\).*/\1/p' /proc/cmdline)
grep -q "^${want:-7.3}\." <<<"$(uname -r)"
tap_ok $? "guest runs a ${want:-7.3} kernel ($(uname -r))"
[ -s /sys/kernel/btf/vmlinux ]
tap_ok $? "kernel BTF at /sys/kernel/btf/vmlinux"
[ "$(cat /sys/kernel/mm/lru_gen/enabled)" != 0x0000 ]
tap_ok $? "MGLRU enabled ($(cat /sys/kernel/mm/lru_gen/enabled))"
[ "$(nproc)" = 2 ]
tap_ok $? "guest sees 2 CPUs"
"$bpftool" btf dump file /sys/kernel/btf/vmlinux format raw | grep -q "STRUCT 'mglru_ext_ops'"
tap_ok $? "kernel BTF has struct mglru_ext_ops"
[ -w /sys/kernel/mm/mglru_ext/eject_all ] && [ -d "$policies" ]
tap_ok $? "mglru_ext sysfs files"
[ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 0 ]
tap_ok $? "no policy attached at boot"

mkdir -p /sys/fs/bpf/boot-test
out=$("$bpftool" struct_ops register "$bpf/passthrough.bpf.o" /sys/fs/bpf/boot-test 2>&1)
tap_ok $? "bpftool struct_ops register (in-tree bpftool)" "$out"
"$bpftool" struct_ops list 2>&1 | grep -q passthrough
tap_ok $? "bpftool struct_ops list shows the map"
[ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 1 ]
tap_ok $? "the registered policy is attached"
rm -rf /sys/fs/bpf/boot-test
for _ in $(seq 50); do
	[ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 0 ] && break
	sleep 0.1
done
[ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 0 ]
tap_ok $? "removing the link pin detaches it"

tap_end
