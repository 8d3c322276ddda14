#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the VM runner itself, with deliberately broken guest commands:
# a failing command, a kernel WARNING and a hung guest must each fail the
# run with a clear message.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/selftests/lib/tap.sh"
run="$repo/selftests/vm-run.sh --quiet $*"

tap_begin

out=$($run -- true 2>&1)
tap_ok $? "a guest command that succeeds passes" "$out"

out=$($run -- sh -c 'exit 3' 2>&1)
rc=$?
[ $rc = 3 ] && grep -q "guest command exited with status 3" <<<"$out"
tap_ok $? "a failing guest command fails the run with its status" "$out"

out=$($run -- insmod "$repo/build/kmod/7.3/warn_on_load.ko" 2>&1)
rc=$?
[ $rc = 125 ] && grep -q "kernel problem in the guest log" <<<"$out"
tap_ok $? "a kernel WARNING in the guest fails the run" "$out"

out=$($run --timeout 30 -- sleep 1000 2>&1)
rc=$?
[ $rc = 124 ] && grep -q "guest timed out after 30s" <<<"$out"
tap_ok $? "a hung guest is killed and fails the run" "$out"
! pgrep -f "qemu-system-x86_64.*$repo/build/vm" >/dev/null
tap_ok $? "no QEMU left running"

tap_end
