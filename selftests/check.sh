#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: the host tests, then the VM tests on 7.3 and on the 6.12
# backport, whose kernel builds meanwhile; the grand total last.
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

# The 6.12 backport's kernel and kselftests build in the background, at
# the lowest priority, while the host tests and the 7.3 guest run: a TCG
# guest leaves host CPU idle whenever its vCPUs do, and at nice 19 the
# build takes little of what the guest wants. (make's own flags are the
# parent's jobserver; this make has its own.)
backport_log=$repo/build/check-6.12-build.log
mkdir -p "$repo/build"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL nice -n 19 \
	make -s -C "$repo" BASE=6.12 kernel kselftests-6.12 >"$backport_log" 2>&1 &
backport_build=$!

"$repo/selftests/host/run.sh" 2>&1 | tee "$copy"
total "$(cat "$copy")"
# every VM suite on 7.3, the primary base
"$repo/selftests/run-vm-tests.sh" --base 7.3 2>&1 | tee "$copy"
total "$(cat "$copy")"

# the 6.12 backport: its boot, the shipped policies (the same objects and
# mglructl) and its kselftests; the whole hook suite there is
# make check-vm BASE=6.12 TESTS=test_hooks, outside CI's time
echo "# vm suites on the 6.12 backport"
waited=$SECONDS
if wait $backport_build; then
	echo "# the 6.12 kernel and kselftests were ready $((SECONDS - waited)) s after the 7.3 suites"
	"$repo/selftests/run-vm-tests.sh" --base 6.12 --guest-only test_boot test_shipped test_kselftests 2>&1 |
		tee "$copy"
	total "$(cat "$copy")"
else
	sed 's/^/# /' "$backport_log" | tail -40
	echo "not ok - the 6.12 kernel or its kselftests did not build (log: $backport_log)"
	fail=$((fail + 1))
fi
echo "# make check took $((SECONDS - start)) s"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
