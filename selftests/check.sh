#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: the host tests, then every VM suite on 7.3, the primary
# base; the grand total last. The 6.12 backport's suites are make
# check-backport: its kernel build takes the CPU the 7.3 guests need, and
# with it a cold make check does not fit in CI's time.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/selftests/lib/tap.sh"
pass=0
fail=0
total() { # OUTPUT
	local p f
	read -r p f < <(tap_totals "$1")
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-1}))
}

# Stream each part's output and keep a copy to read its totals from. (tee
# to /dev/stderr would reopen it, truncating a log file CI redirects to.)
copy=$(mktemp)
trap 'rm -f "$copy"' EXIT
start=$SECONDS

"$repo/selftests/host/run.sh" 2>&1 | tee "$copy"
total "$(cat "$copy")"
# every VM suite on 7.3, the primary base
"$repo/selftests/run-vm-tests.sh" --base 7.3 2>&1 | tee "$copy"
total "$(cat "$copy")"

echo "# make check took $((SECONDS - start)) s"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
