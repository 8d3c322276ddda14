#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mglructl's errors that need no mglru_ext kernel, run on the host: each
# bad input gets its one-line message and its own exit status, and nothing
# is loaded. The host kernel has no mglru_ext, which is itself one of the
# errors under test.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/selftests/lib/tap.sh"
ctl=$repo/build/bin/mglructl
bpf=$repo/build/bpf
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

tap_begin

expect_status 2 'no command given' "no command" -- "$ctl"
expect_status 2 "unknown command 'frobnicate'" "unknown command" -- "$ctl" frobnicate
expect_status 2 "unknown option '--bogus'" "unknown global option" -- "$ctl" --bogus list
expect_status 0 '' "--help" -- "$ctl" --help
for cmd in list load unload status run; do
	out=$("$ctl" $cmd --help)
	grep -q "^Usage: mglructl $cmd" <<<"$out"
	tap_ok $? "$cmd --help"
done
expect_status 2 'load takes one POLICY' "load without a policy" -- "$ctl" load
expect_status 2 'load takes one POLICY' "load with two policies" -- "$ctl" load budget combined
expect_status 8 "unknown policy 'no_such_policy'" "unknown policy name" -- "$ctl" load no_such_policy
expect_status 7 'cannot read policy object' "missing object file" -- "$ctl" load "$scratch/none.bpf.o"
echo "not an object" >"$scratch/text.bpf.o"
expect_status 7 'is not a BPF object' "text file as object" -- "$ctl" load "$scratch/text.bpf.o"
expect_status 7 'is not an mglru_ext policy.*it has 0' "BPF object without mglru_ext_ops" -- \
	"$ctl" load "$bpf/test/not_a_policy.bpf.o"
expect_status 11 "has no knob 'nope'" "unknown knob" -- "$ctl" load thrash_aging --set nope=1
expect_status 11 'expected KNOB=VALUE' "knob without a value" -- "$ctl" load thrash_aging --set refault_pct
expect_status 11 'must be in \[1, 100\], not 101' "knob above its declared max" -- \
	"$ctl" load thrash_aging --set refault_pct=101
expect_status 11 'must be in \[1, 100\], not 0' "knob below its declared min" -- \
	"$ctl" load thrash_aging --set refault_pct=0
expect_status 11 "takes a non-negative integer, not 'many'" "knob of the wrong type" -- \
	"$ctl" load thrash_aging --set refault_pct=many
expect_status 11 "takes a non-negative integer, not '-3'" "negative value for an unsigned knob" -- \
	"$ctl" load budget --set min_budget=-3
expect_status 5 'no cgroup /no/such/cgroup' "missing cgroup" -- "$ctl" load budget --cgroup /no/such/cgroup
expect_status 5 'is not a cgroup v2 directory' "cgroup that isn't cgroup v2" -- "$ctl" load budget --cgroup /proc
expect_status 3 'this kernel has no mglru_ext' "kernel without mglru_ext (load)" -- "$ctl" load budget
expect_status 3 '' "kernel without mglru_ext (status)" -- "$ctl" status
expect_status 3 'this kernel has no mglru_ext' "kernel without mglru_ext (unload)" -- "$ctl" unload --all
expect_status 2 'unload takes one of' "unload with two targets" -- "$ctl" unload budget --all
expect_status 2 "bad --memory-max '12Q'" "run with a bad size" -- "$ctl" run --policy none --memory-max 12Q -- true
expect_status 2 'run needs --policy' "run without a policy" -- "$ctl" run -- true
expect_status 2 'run needs a command' "run without a command" -- "$ctl" run --policy none
expect_status 2 "unknown argument '--yaml'" "status with a bad flag" -- "$ctl" status --yaml

out=$("$ctl" list)
grep -q "^  budget " <<<"$out" && grep -q -- "--set refault_pct=50  \[1..100\]" <<<"$out"
tap_ok $? "list shows shipped policies with knobs, defaults and ranges" "$out"
out=$("$ctl" list --json)
python3 -c 'import json,sys; d=json.load(sys.stdin); assert {p["name"] for p in d["shipped"]} >= {"budget","isolation_throttle","thrash_aging","swappiness","passthrough","combined"}' <<<"$out"
tap_ok $? "list --json is valid JSON naming every shipped policy" "$out"

tap_end
