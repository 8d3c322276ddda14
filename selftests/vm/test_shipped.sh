#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every shipped policy, the same object on 7.3 and on the 6.12 backport,
# loads on the running kernel and decides under pressure: its hooks are
# called, nothing it answers is refused, and it is still attached after.
. "$(dirname "$0")/lib.sh"

tap_begin
unload_all
file=$(big_file pressure.bin 128)

make_cgroup shipped 64M 64M >/dev/null
for obj in "$bpf"/*.bpf.o; do
	name=$(basename "${obj%.bpf.o}")
	id=$(load "$obj" --cgroup shipped)
	# one read of the file through the 64 MiB memcg is pressure enough
	file_pressure shipped "$file" 1
	n=$(calls "${id:-none}")
	refused=$(policy_field "${id:-none}" refused)
	[ -n "$id" ] && [ "${n:-0}" -gt 0 ] && [ "${refused:-1}" = 0 ] &&
		[ "$(policy_field "$id" state)" = attached ]
	tap_ok $? "$name loads on $(uname -r) and decides ($n hook calls, ${refused:-?} refused)"
	unload_all
done
remove_cgroup shipped

tap_end
