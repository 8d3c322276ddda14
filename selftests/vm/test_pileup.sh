#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A pass that finds nothing to scan while other reclaimers hold folios
# isolated asks the isolate hook again, with stop as the stock answer: 192
# threads touching 48 MiB in a 16 MiB memcg with swap (seed 003's pile-up;
# a stock-answering policy may be OOM-killed like stock). Taking the stock
# stop there is neither refused nor an override.
# Not in make check: the 192 threads finish their faults one reclaim after
# another under TCG, minutes of the guest's hour. Run it by name:
#   make check-vm TESTS=test_pileup
. "$(dirname "$0")/lib.sh"

tap_begin
unload_all
swap_on
make_cgroup pile 16M max >/dev/null
id=$(load "$bpf/test/scripted.bpf.o" --cgroup pile)
in_cgroup pile "$anon_touch" 48 192 2 >/dev/null 2>&1
waits=$("$bpftool" map dump name scripted.bss | sed -n 's/.*"nothing_to_scan": \([0-9]*\).*/\1/p')
[ "${waits:-0}" -gt 0 ] && [ "$(policy_field "$id" refused)" = 0 ]
tap_ok $? "nothing to scan with folios isolated: isolate hook asked with stock stop ($waits calls, $(policy_field "$id" refused) refused)"
unload_all
remove_cgroup pile

tap_end
