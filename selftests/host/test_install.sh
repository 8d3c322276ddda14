#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install and make uninstall on the host, into a scratch PREFIX: what
# lands where, the pkg-config file, the systemd unit (systemd-analyze
# verify, when the host has it), and that uninstall leaves nothing.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/selftests/lib/tap.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix

tap_begin
out=$(make -s -C "$repo" install PREFIX="$prefix" 2>&1)
tap_ok $? "make install PREFIX=..." "$out"
for f in sbin/mglructl lib/mglru_ext/policies/budget.bpf.o include/mglru_ext/policy.bpf.h \
	include/mglru_ext/mglru_ext_policy.h include/mglru_ext/bpf/bpf_helpers.h \
	lib/pkgconfig/mglru_ext.pc lib/systemd/system/mglru_ext.service \
	share/doc/mglru_ext/policies.conf.example; do
	[ -f "$prefix/$f" ]
	tap_ok $? "installed $f"
done
out=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags mglru_ext | xargs)
[ "$out" = "-I$prefix/include/mglru_ext" ]
tap_ok $? "pkg-config --cflags mglru_ext points at the installed headers ($out)"
out=$("$prefix/sbin/mglructl" list 2>&1)
grep -q "^Policies shipped in $prefix/sbin/../lib/mglru_ext/policies" <<<"$out"
tap_ok $? "the installed mglructl lists the installed policies" "$(head -2 <<<"$out")"
out=$("$prefix/sbin/mglructl" apply --check --config "$prefix/share/doc/mglru_ext/policies.conf.example" 2>&1)
tap_ok $? "the example config validates" "$out"
if command -v systemd-analyze >/dev/null; then
	out=$(systemd-analyze verify "$prefix/lib/systemd/system/mglru_ext.service" 2>&1)
	[ -z "$out" ]
	tap_ok $? "systemd-analyze verify mglru_ext.service" "$out"
else
	tap_skip "systemd-analyze verify mglru_ext.service" "no systemd-analyze"
fi
out=$(make -s -C "$repo" uninstall PREFIX="$prefix" 2>&1)
left=$(find "$prefix" -type f)
[ -z "$left" ]
tap_ok $? "make uninstall removes every installed file" "$out$left"
tap_end
