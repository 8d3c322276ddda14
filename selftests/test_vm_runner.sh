#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the VM runner itself, with deliberately broken guest commands:
# a failing command, a kernel WARNING and a hung guest must each fail the
# run with a clear message.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/selftests/lib/tap.sh"
# one vCPU each: two of these guests share the host's two cores
run="$repo/selftests/vm-run.sh --quiet --smp 1 $*"
# the WARN module built against the kernel under test (MGLRU_BASE, set by
# run-vm-tests.sh)
base=$(sed -n 's/.*MGLRU_BASE=\([^ ]*\).*/\1/p' <<<"${VM_APPEND:-}")
warn_ko=$repo/build/kmod/${base:-7.3}/warn_on_load.ko
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tap_begin

# Two guests at a time.
$run -- true >"$tmp/ok" 2>&1 &
ok=$!
$run -- sh -c 'exit 3' >"$tmp/fail" 2>&1 &
failing=$!
wait $ok
tap_ok $? "a guest command that succeeds passes" "$(cat "$tmp/ok")"
wait $failing
rc=$?
[ $rc = 3 ] && grep -q "guest command exited with status 3" "$tmp/fail"
tap_ok $? "a failing guest command fails the run with its status" "$(cat "$tmp/fail")"

$run -- insmod "$warn_ko" >"$tmp/warn" 2>&1 &
warn=$!
$run --timeout 30 -- sleep 1000 >"$tmp/hung" 2>&1 &
hung=$!
wait $warn
rc=$?
[ $rc = 125 ] && grep -q "kernel problem in the guest log" "$tmp/warn"
tap_ok $? "a kernel WARNING in the guest fails the run" "$(cat "$tmp/warn")"
wait $hung
rc=$?
[ $rc = 124 ] && grep -q "guest timed out after 30s" "$tmp/hung"
tap_ok $? "a hung guest is killed and fails the run" "$(cat "$tmp/hung")"
! pgrep -f "qemu-system-x86_64.*$repo/build/vm" >/dev/null
tap_ok $? "no QEMU left running"

tap_end
