#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: the host tests, every VM suite on 7.3 (the primary base),
# then the 6.12 backport's suites (BACKPORT_TESTS); the grand total last.
# The backport's kernel builds while the 7.3 guests run, at the lowest CPU
# priority: it takes the CPU they leave idle, and they keep what they need
# (their responsiveness tests measure wall-clock gaps).
set -u
# the 6.12 suites: the Makefile's list, the one check-backport runs
backport_tests=${BACKPORT_TESTS:?run by make check, which sets BACKPORT_TESTS}
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/selftests/lib/tap.sh"
pass=0
fail=0

# Stream each part's output and keep a copy to read its totals from. (tee
# to /dev/stderr would reopen it, truncating a log file CI redirects to.)
copy=$(mktemp)
trap 'rm -f "$copy"' EXIT
start=$SECONDS

# not make's child: a make of its own, with no jobserver of the caller's
backport_log=$repo/build/check-backport-build.log
mkdir -p "$repo/build"
MAKEFLAGS= MAKELEVEL= nice -n 19 make --no-print-directory -C "$repo" backport-ready \
	>"$backport_log" 2>&1 &
backport_build=$!
"$repo/selftests/host/run.sh" 2>&1 | tee "$copy"
tap_add "$(cat "$copy")"
# every VM suite on 7.3, the primary base
"$repo/selftests/run-vm-tests.sh" --base 7.3 2>&1 | tee "$copy"
tap_add "$(cat "$copy")"
# the backport, on the same policy objects and mglructl
backport_start=$SECONDS
if wait $backport_build; then
	echo "# the 6.12 kernel: waited $((SECONDS - backport_start)) s for its build after the 7.3 suites"
	"$repo/selftests/run-vm-tests.sh" --base 6.12 --guest-only $backport_tests 2>&1 | tee "$copy"
	tap_add "$(cat "$copy")"
else
	tail -n 20 "$backport_log"
	echo "not ok - the 6.12 backport's kernel and kselftests build (log: $backport_log)"
	fail=$((fail + 1))
fi

echo "# make check took $((SECONDS - start)) s"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
