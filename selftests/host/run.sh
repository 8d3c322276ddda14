#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side tests: no VM. Prints each suite's TAP and the sum.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/selftests/lib/tap.sh"
pass=0
fail=0

run_suite() { # NAME CMD...
	local name=$1 out rc p f
	shift
	echo "# host suite: $name"
	out=$("$@" 2>&1)
	rc=$?
	echo "$out"
	read -r p f < <(tap_totals "$out")
	if [ -z "${p:-}" ]; then
		echo "not ok - $name printed no totals (exit $rc)"
		p=0
		f=1
	elif [ "$rc" != 0 ] && [ "$rc" != 4 ] && [ "$f" = 0 ]; then
		echo "not ok - $name exited with $rc"
		f=1
	fi
	pass=$((pass + p))
	fail=$((fail + f))
}

run_suite parse "$repo/build/bin/test_parse"
run_suite cli "$repo/selftests/host/test_cli.sh"
run_suite style "$repo/selftests/host/test_style.sh"
run_suite readme "$repo/selftests/host/test_readme.sh"
run_suite install "$repo/selftests/host/test_install.sh"
run_suite scripts "$repo/selftests/host/test_scripts.sh"
run_suite series "$repo/selftests/host/test_series.sh"
run_suite docs "$repo/selftests/host/test_docs.sh"

# not a test: which results sections are stale (make results-check)
echo "# results sections whose inputs changed since they were measured"
"$repo/bench/results-check.sh" | sed 's/^/# /'

echo "# host total"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
