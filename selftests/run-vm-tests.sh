#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host side of the VM selftests: the runner's own tests, then one boot of
# the patched kernel running every guest suite (selftests/vm/run-all.sh),
# then one instruction-clocked boot for the bed's own check (test_bed) and,
# when named, the policies' acceptance tests (test_policies).
# A guest log with a kernel bug fails the run whatever the tests said.
# Usage: run-vm-tests.sh [--base 7.3|6.12] [--kernel BZIMAGE] [--guest-only] [TEST...]
# --base picks the series (default 7.3) and its test kernel; --kernel
# another bzImage of that base. --guest-only skips the runner's tests
# (they load a module built for the test kernel). VM_TIMEOUT (seconds,
# default 3600) bounds the guest run.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/selftests/lib/tap.sh"
base=7.3
if [ "${1:-}" = --base ]; then
	base=$2
	shift 2
fi
kernel_args=(--kernel "$repo/build/kernel/$base/patched/arch/x86/boot/bzImage")
if [ "${1:-}" = --kernel ]; then
	kernel_args=(--kernel "$2")
	shift 2
fi
# test_boot checks that the guest runs the base it was meant to
# a guest suite stuck for half the boot's time is killed (vm/run-all.sh)
export VM_APPEND="${VM_APPEND:-} MGLRU_BASE=$base MGLRU_SUITE_LIMIT=$((${VM_TIMEOUT:-3600} / 2))"
guest_only=0
if [ "${1:-}" = --guest-only ]; then
	guest_only=1
	shift
fi

pass=0
fail=0

if [ $guest_only = 0 ]; then
	echo "# vm suite: runner"
	out=$("$repo/selftests/test_vm_runner.sh" "${kernel_args[@]}")
	echo "$out"
	tap_add "$out"
fi

# test_bed and test_policies need the instruction clock: they get a boot of
# their own. The other suites run in one wall-clock boot with two vCPUs.
wall_tests=()
bed_tests=()
if [ $# -eq 0 ]; then
	bed_tests=(test_bed)
fi
for t in "$@"; do
	case ${t%.sh} in
	test_bed | test_policies) bed_tests+=("${t%.sh}") ;;
	*) wall_tests+=("$t") ;;
	esac
done

guest_boot() { # CLOCK TEST...
	local clock=$1 results rc p f
	shift
	results=$(mktemp -d "$repo/build/vm/check.XXXXXX" 2>/dev/null ||
		{ mkdir -p "$repo/build/vm"; mktemp -d "$repo/build/vm/check.XXXXXX"; })
	# the bed's memory is the benchmarks' (bench/bench.sh)
	"$repo/selftests/vm-run.sh" "${kernel_args[@]}" --clock "$clock" --results "$results" \
		--mem "$([ "$clock" = instructions ] && echo 1536M || echo 1G)" \
		--timeout "${VM_TIMEOUT:-3600}" -- selftests/vm/run-all.sh "$@"
	rc=$?
	if [ -s "$results/totals" ]; then
		read -r p f <"$results/totals"
		pass=$((pass + p))
		fail=$((fail + f))
	else
		echo "not ok - the guest suites reported nothing (vm-run status $rc)"
		fail=$((fail + 1))
	fi
	if [ $rc = 125 ] || [ $rc = 124 ] || [ $rc = 126 ]; then
		echo "not ok - guest run failed (status $rc), log: $results/console.log"
		fail=$((fail + 1))
	else
		echo "ok - guest log ($clock clock) has no kernel bug, warning, lockdep report or hung task"
		pass=$((pass + 1))
	fi
}

if [ $# -eq 0 ] || [ ${#wall_tests[@]} -gt 0 ]; then
	echo "# vm suite: guest (one boot)"
	guest_boot wall "${wall_tests[@]}"
fi
# The bed's boots run side by side: each is one host thread on its own
# instruction clock, so what one measures does not depend on the other.
# bed_boot OUT SMP TEST...: a boot with SMP vCPUs, its TAP into OUT and
# its totals into OUT.totals
bed_boot() {
	local out=$1 smp=$2
	shift 2
	(
		pass=0
		fail=0
		VM_SMP=$smp guest_boot instructions "$@"
		echo "$pass $fail" >"$out.totals"
	) >"$out" 2>&1
}
beds=$(mktemp -d)
trap 'rm -rf "$beds"' EXIT
if [ ${#bed_tests[@]} -gt 0 ]; then
	bed_boot "$beds/1" 1 "${bed_tests[@]}" &
fi
# the bed with several vCPUs round-robin on one clock checks itself too
if [ $# -eq 0 ]; then
	bed_boot "$beds/2" 2 test_bed &
fi
wait
for n in 1 2; do
	[ -f "$beds/$n" ] || continue
	if [ $n = 1 ]; then
		echo "# vm suite: the instruction-clocked bed (one boot)"
	else
		echo "# vm suite: the instruction-clocked bed with 2 vCPUs (one boot)"
	fi
	cat "$beds/$n"
	read -r p f <"$beds/$n.totals" || { p=0; f=1; }
	pass=$((pass + p))
	fail=$((fail + f))
done

echo "# vm total"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
