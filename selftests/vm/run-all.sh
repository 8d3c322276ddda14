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

for t in "${tests[@]}"; do
	echo "# guest suite: $t"
	start=$SECONDS
	out=$("$dir/${t%.sh}.sh" 2>&1 | tee /dev/stderr)
	rc=${PIPESTATUS[0]}
	read -r p f < <(tap_totals "$out")
	if [ -z "${p:-}" ]; then
		echo "not ok - $t printed no totals (exit $rc)"
		p=0
		f=1
	fi
	echo "# $t: $p passed, $f failed in $((SECONDS - start)) s"
	pass=$((pass + p))
	fail=$((fail + f))
done
echo "$pass $fail" >"${MGLRU_RESULTS:-/tmp}/totals"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
