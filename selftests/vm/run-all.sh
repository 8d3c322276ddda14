#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make check`: run every VM selftest in this boot, print
# their TAP, and write the sum to $MGLRU_RESULTS/totals for the host.
# Usage: run-all.sh [TEST...]   (default: the suites of make check)
set -u
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../lib/tap.sh"
pass=0
fail=0
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(test_boot test_hooks test_kselftests test_mglructl test_deploy test_hardening)

# A suite that has not finished in $MGLRU_SUITE_LIMIT seconds is stuck, not
# slow: the slowest suite takes a fifth of that. Its blocked tasks and the
# CPUs' backtraces go to the console log (SysRq w and l) and the suite is
# killed, so that one hang fails one suite instead of the whole boot's
# timeout, and says where it hung.
limit=${MGLRU_SUITE_LIMIT:-1500}
log=$(mktemp)
watchdog() { # PID SUITE
	sleep "$limit"
	kill -0 "$1" 2>/dev/null || return
	echo "# $2 still running after ${limit}s: blocked tasks and CPUs follow" >&2
	echo w >/proc/sysrq-trigger
	echo l >/proc/sysrq-trigger
	kill -KILL -- "-$1" 2>/dev/null
}

for t in "${tests[@]}"; do
	echo "# guest suite: $t"
	start=$SECONDS
	# its own process group, so that the watchdog kills all of it
	setsid "$dir/${t%.sh}.sh" >"$log" 2>&1 &
	spid=$!
	tail -n +1 -f --pid=$spid "$log" >&2 &
	tpid=$!
	watchdog $spid "$t" &
	wpid=$!
	wait $spid
	rc=$?
	kill $wpid 2>/dev/null
	wait $tpid
	out=$(cat "$log")
	read -r p f < <(tap_totals "$out")
	if [ $((SECONDS - start)) -ge "$limit" ]; then
		echo "not ok - $t did not finish in ${limit}s and was killed (SysRq w and l in the console log)"
		p=${p:-0}
		f=$((${f:-0} + 1))
	elif [ -z "${p:-}" ]; then
		echo "not ok - $t printed no totals (exit $rc)"
		p=0
		f=1
	fi
	echo "# $t: $p passed, $f failed in $((SECONDS - start)) s"
	pass=$((pass + p))
	fail=$((fail + f))
done
rm -f "$log"
echo "$pass $fail" >"${MGLRU_RESULTS:-/tmp}/totals"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
