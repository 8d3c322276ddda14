#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: the host tests, every VM suite on 7.3 (the primary base),
# then the 6.12 backport's suites (BACKPORT_TESTS); the grand total last.
# The backport builds beside the rest at the lowest CPU priority: its
# kernel from the start, on the CPU the 7.3 kernel's build leaves idle
# (its unpacking, its links), the rest of it once check-ready has built
# the tools both share; then on the CPU the 7.3 guests leave (their
# responsiveness tests measure wall-clock gaps, so they keep what they
# need).
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
backport_log=$repo/build/check-backport-build.log
# written once check-ready has built what the backport's build shares
ready=$repo/build/.check-ready
backport_build=
# the backport's build and what it runs, when check stops early
kill_tree() { # PID
	local child
	for child in $(pgrep -P "$1"); do kill_tree "$child"; done
	kill "$1" 2>/dev/null
}
trap 'rm -f "$copy" "$ready"; [ -z "$backport_build" ] || kill_tree $backport_build' EXIT
start=$SECONDS

# not make's children: makes of their own, with no jobserver of the caller's
mkdir -p "$repo/build"
rm -f "$ready"
(
	MAKEFLAGS= MAKELEVEL= nice -n 19 make --no-print-directory -C "$repo" BASE=6.12 kernel || exit
	# bpftool and libbpf come from check-ready: wait for them
	while [ ! -e "$ready" ]; do sleep 5; done
	MAKEFLAGS= MAKELEVEL= nice -n 19 make --no-print-directory -C "$repo" backport-ready
) >"$backport_log" 2>&1 &
backport_build=$!
if ! MAKEFLAGS= MAKELEVEL= make --no-print-directory -C "$repo" check-ready; then
	echo "not ok - make check-ready: what the 7.3 suites need builds"
	echo "0 passed, 1 failed"
	exit 1
fi
touch "$ready"
"$repo/selftests/host/run.sh" 2>&1 | tee "$copy"
tap_add "$(cat "$copy")"
# every VM suite on 7.3, the primary base
"$repo/selftests/run-vm-tests.sh" --base 7.3 2>&1 | tee "$copy"
tap_add "$(cat "$copy")"
# the backport, on the same policy objects and mglructl
backport_start=$SECONDS
if wait $backport_build; then
	backport_build=
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
