#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel series under real memory pressure in a memcg: every hook is
# called and obeyed, NULL hooks and detached policies leave stock, attach
# is per cgroup subtree, invalid answers are refused and counted, bad
# policies are ejected with their reason while the workload goes on, and
# unprivileged users cannot load policies.
. "$(dirname "$0")/lib.sh"

tap_begin
unload_all
swap_on
file=$(big_file pressure.bin 128)

# pressure CG SECONDS: page cache and anon pressure in CG, in the foreground
pressure() {
	in_cgroup "$1" "$anon_touch" 24 2 "$2" >/dev/null &
	file_pressure "$1" "$file" 2
	wait
}

tracing=/sys/kernel/tracing
# trace_decisions FILTER: trace the decisions the event filter FILTER keeps
# (0: all of them)
trace_decisions() {
	echo 0 >$tracing/tracing_on
	echo >$tracing/trace
	echo "$1" >$tracing/events/mglru_ext/mglru_ext_decision/filter
	echo 1 >$tracing/events/mglru_ext/mglru_ext_decision/enable
	echo 1 >$tracing/tracing_on
}
trace_off() {
	echo 0 >$tracing/tracing_on
	echo 0 >$tracing/events/mglru_ext/mglru_ext_decision/enable
	echo 0 >$tracing/events/mglru_ext/mglru_ext_decision/filter
}

# 1. Every hook is called, and the tracepoint sees each decision.
make_cgroup hooks 64M 64M >/dev/null
trace_decisions 0
id=$(load "$bpf/test/scripted.bpf.o" --cgroup hooks)
pressure hooks 4
trace_off
for h in scan_budget choose_type isolate aging; do
	n=$(policy_field "$id" calls_$h)
	[ "${n:-0}" -gt 0 ]
	tap_ok $? "hook $h called under pressure ($n calls)"
	grep -q "hook=$h .*accepted" $tracing/trace
	tap_ok $? "tracepoint reports $h decisions"
done
errors=$("$bpftool" map dump name scripted.bss | sed -n 's/.*"ctx_errors": \([0-9]*\).*/\1/p')
[ "$errors" = 0 ]
tap_ok $? "hooks see a sane context (ctx_errors=$errors)"
[ "$(memevent hooks oom_kill)" = 0 ]
tap_ok $? "no OOM kill under a stock-answering policy"
unload_all

# 2. A NULL hook means stock: a policy with only an aging hook.
id=$(load "$bpf/test/aging_only.bpf.o" --cgroup hooks)
pressure hooks 4
[ "$(policy_field "$id" calls_aging)" -gt 0 ] &&
	[ "$(policy_field "$id" calls_scan_budget)" = 0 ] &&
	[ "$(policy_field "$id" calls_choose_type)" = 0 ] &&
	[ "$(policy_field "$id" calls_isolate)" = 0 ]
tap_ok $? "only the hooks a policy has are called"

# 3. A detached policy leaves stock reclaim.
"$ctl" unload aging_only >/dev/null
before=$(policy_field "$id" calls_aging)
pressure hooks 3
[ "$(policy_field "$id" state)" = detached ] &&
	[ "$(policy_field "$id" calls_aging)" = "$before" ] &&
	[ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 0 ]
tap_ok $? "a detached policy is never called again"
[ "$(memevent hooks oom_kill)" = 0 ]
tap_ok $? "stock reclaim after detach: no OOM kill"

# 4. Isolation restricted to file: anon is never evicted, so never swapped.
remove_cgroup hooks
make_cgroup fileonly 64M 64M >/dev/null
id=$(load "$bpf/test/scripted.bpf.o" --cgroup fileonly --set 'isolate=GO|ALLOW_FILE')
pressure fileonly 6
steal=$(memstat fileonly pgsteal)
swapped=$(cat $cgroot/fileonly/memory.swap.current)
[ "$steal" -gt 0 ] && [ "$swapped" = 0 ]
tap_ok $? "isolate=GO|ALLOW_FILE obeyed: pgsteal=$steal, swap used=$swapped"
unload_all
remove_cgroup fileonly

# 4b. The 192-thread pile-up's isolate hook is test_pileup.sh (not in make
# check).

# 5. Aging on every call is obeyed: generations keep coming, and beyond
# stock's once per pass. A charge's reclaim wants 32 folios, which one
# batch of page cache gives, and 6.12 ends its pass there (7.3 goes on
# while the budget lasts): such passes ask the aging hook once. So a
# budget of 4096 folios, and a proactive reclaim of most of the memcg,
# whose reclaim wants thousands of folios at a time: passes of many
# batches, each asking.
make_cgroup aging 64M >/dev/null
id=$(load "$bpf/test/scripted.bpf.o" --cgroup aging --set aging=AGE_NOW --set budget=4096)
file_pressure aging "$file" 1
# (it may not reclaim all it was asked for: -EAGAIN is not a failure here)
echo 48M >$cgroot/aging/memory.reclaim 2>/dev/null
agings=$(policy_field "$id" agings)
clamped=$(policy_field "$id" clamped)
[ "$agings" -gt 10 ] && [ "$clamped" -gt 0 ] && [ "$(policy_field "$id" refused)" = 0 ]
tap_ok $? "aging=NOW obeyed once per pass ($agings agings, $clamped more asks clamped)"
unload_all

# ... and so is aging with the folded generation put at the head of the
# next (AGE_FOLD_HEAD): a kernel without it refuses the answer.
id=$(load "$bpf/test/scripted.bpf.o" --cgroup aging --set aging=AGE_FOLD_HEAD)
file_pressure aging "$file" 1
agings=$(policy_field "$id" agings)
[ "${agings:-0}" -gt 10 ] && [ "$(policy_field "$id" refused)" = 0 ]
tap_ok $? "aging=FOLD_HEAD obeyed ($agings agings, $(policy_field "$id" refused) refused)"
unload_all
remove_cgroup aging

# 5b. Stock is the floor at the last priority and in kswapd: an answer that
# would make reclaim do less than stock there is replaced by stock's and
# counted as a fallback (a type choice only at the last priority: another
# type is not less reclaim). floor_tally: of the traced decisions, print
# their number, the fallbacks, and the answers taken that do less than
# stock (a smaller budget, a skip where stock ages, another isolate answer,
# another type).
floor_tally() {
	awk '/ hook=(scan_budget|choose_type|isolate|aging) / {
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			v[kv[1]] = kv[2]
		}
		n++
		if ($NF == "fallback")
			f++
		else if (v["hook"] == "scan_budget")
			b += v["applied"] + 0 < v["stock"] + 0
		else if (v["hook"] == "aging")
			b += v["applied"] == 2 && v["stock"] == 1
		else
			b += v["applied"] != v["stock"]
	}
	END { printf "%d %d %d\n", n, f, b }' "$tracing/trace"
}
# floor_check WHO CG: stop tracing; the traced decisions must exist, some
# must have fallen back and none be below stock; then detach and remove CG
floor_check() {
	local n f b
	trace_off
	read -r n f b < <(floor_tally)
	[ "$n" -gt 0 ] && [ "$f" -gt 0 ] && [ "$b" = 0 ]
	tap_ok $? "$1: stock is the floor ($n decisions, $f fallbacks, $b below stock)"
	unload_all
	remove_cgroup "$2"
}
# Throttling every batch holds each pass back until the charge's reclaim
# reaches priority 0; there the throttle, the budget of 1, the type and the
# skip all fall back.
holdback=(--set isolate=THROTTLE --set budget=1 --set type=FILE --set aging=AGE_SKIP)
make_cgroup floor 32M 64M >/dev/null
id=$(load "$bpf/test/scripted.bpf.o" --cgroup floor "${holdback[@]}")
trace_decisions "priority == 0"
pressure floor 3
floor_check "priority 0" floor

# kswapd: a system-wide policy and a node short of free memory (a high
# min_free_kbytes wakes kswapd early). Direct reclaim is held back by the
# budget of 1; kswapd's passes take stock's budget and aging.
min_free=$(cat /proc/sys/vm/min_free_kbytes)
kswapd=$(pgrep -x kswapd0)
id=$(load "$bpf/test/scripted.bpf.o" --set budget=1 --set aging=AGE_SKIP)
trace_decisions "common_pid == $kswapd"
echo 262144 >/proc/sys/vm/min_free_kbytes
make_cgroup kswapd max max >/dev/null
# 700 MiB of anon, every page written (random touches leave most alone)
in_cgroup kswapd dd if=/dev/zero of=/dev/null bs=700M count=1 status=none
echo "$min_free" >/proc/sys/vm/min_free_kbytes
floor_check kswapd kswapd

# 6. Per-cgroup attach: only its subtree, nearest ancestor first.
make_cgroup sub 128M >/dev/null
make_cgroup sub/a 64M >/dev/null
make_cgroup sub/b 64M >/dev/null
make_cgroup sub/a/child 48M >/dev/null
id=$(load "$bpf/test/scripted.bpf.o" --cgroup sub/a)
file_pressure sub/b "$file" 1
[ "$(calls "$id")" = 0 ]
tap_ok $? "reclaim in a sibling cgroup doesn't call the policy"
file_pressure sub/a/child "$file" 1
[ "$(calls "$id")" -gt 0 ]
tap_ok $? "reclaim in a child cgroup calls the parent's policy"
id2=$(load "$bpf/test/aging_only.bpf.o" --cgroup sub/a/child)
before=$(calls "$id")
file_pressure sub/a/child "$file" 1
[ "$(calls "$id")" = "$before" ] && [ "$(policy_field "$id2" calls_aging)" -gt 0 ]
tap_ok $? "the nearest ancestor's policy wins"

# 7. One policy per cgroup: EEXIST from the kernel.
"$ctl" load "$bpf/test/aging_only.bpf.o" --cgroup sub/b --foreground >/dev/null &
fg=$!
sleep 2
expect_status 6 'already attached to cgroup /sub/b' "second policy on a cgroup: EEXIST" -- \
	"$ctl" load "$bpf/test/scripted.bpf.o" --cgroup sub/b --foreground
kill -INT $fg
wait $fg
unload_all
remove_cgroup sub

# 8. Invalid answers are refused, counted, and eject the policy.
make_cgroup invalid 64M 0 >/dev/null
id=$(load "$bpf/test/scripted.bpf.o" --cgroup invalid --set type=TYPE_MASK)
file_pressure invalid "$file" 1
refused=$(policy_field "$id" refused)
[ "${refused:-0}" -gt 0 ]
tap_ok $? "invalid type refused and counted ($refused)"
wait_state "$id" ejected
tap_ok $? "a policy refused $refused times in a row is ejected"
[ "$(policy_field "$id" exit_kind)" = invalid ] &&
	grep -q "choose_type hook returned 255" <<<"$(policy_field "$id" exit_msg)"
tap_ok $? "its exit record says why ($(policy_field "$id" exit_msg))"
unload_all
id=$(load "$bpf/test/scripted.bpf.o" --cgroup invalid --set type=ANON)
file_pressure invalid "$file" 1
[ "$(policy_field "$id" refused)" -gt 0 ]
tap_ok $? "anon refused when the memcg cannot swap"
unload_all

# 9. A policy that stalls reclaim is ejected; nothing is OOM-killed.
for bad in "budget=0" "isolate=STOP"; do
	remove_cgroup invalid
	make_cgroup stall 64M 64M >/dev/null
	id=$(load "$bpf/test/scripted.bpf.o" --cgroup stall --set $bad)
	# each charge that reclaims makes 13 passes; keep charging until
	# the policy has stalled 32 of them in a row
	for round in 1 2 3 4 5 6; do
		pressure stall 2
		[ "$(policy_field "$id" state)" = attached ] || break
	done
	wait_state "$id" ejected 5
	tap_ok $? "$bad: stalling policy ejected ($(policy_field "$id" exit_reason))"
	[ "$(policy_field "$id" exit_kind)" = stall ] && [ "$(memevent stall oom_kill)" = 0 ]
	tap_ok $? "$bad: exit kind stall, workload not OOM-killed"
	unload_all
	remove_cgroup stall
done

# 10. A policy can eject itself through the kfunc.
make_cgroup self 64M >/dev/null
id=$(load "$bpf/test/scripted.bpf.o" --cgroup self --set eject_after=5)
file_pressure self "$file" 1
wait_state "$id" ejected
tap_ok $? "bpf_mglru_ext_eject() ejects the policy"
[ "$(policy_field "$id" exit_kind)" = self ] &&
	[ "$(policy_field "$id" exit_msg)" = "scripted: eject_after reached" ]
tap_ok $? "with its own message"
unload_all

# 11. Removing a cgroup with a policy attached ejects the policy.
id=$(load "$bpf/test/scripted.bpf.o" --cgroup self)
remove_cgroup self
wait_state "$id" ejected
tap_ok $? "removing its cgroup ejects the policy"
[ "$(policy_field "$id" exit_kind)" = cgroup ]
tap_ok $? "exit kind cgroup"
"$ctl" unload scripted >/dev/null
wait_state "$id" detached
tap_ok $? "and unload still cleans it up"

# 12. The emergency switch ejects every policy under load.
make_cgroup emerg 64M 64M >/dev/null
id1=$(load "$bpf/passthrough.bpf.o")
id2=$(load "$bpf/test/scripted.bpf.o" --cgroup emerg --set spin=1000)
in_cgroup emerg "$anon_touch" 24 2 6 >/dev/null &
sleep 2
echo 1 >/sys/kernel/mm/mglru_ext/eject_all
wait_state "$id1" ejected && wait_state "$id2" ejected
tap_ok $? "eject_all ejects system-wide and per-cgroup policies"
[ "$(policy_field "$id2" exit_kind)" = sysfs ]
tap_ok $? "exit kind sysfs"
wait
[ "$(memevent emerg oom_kill)" = 0 ]
tap_ok $? "the workload finishes under stock reclaim"
unload_all
remove_cgroup emerg

# 13. Unprivileged users cannot load a policy.
mkdir -p /sys/fs/bpf/unpriv && chmod 777 /sys/fs/bpf/unpriv
out=$(as_nobody "$unpriv_bin/bpftool" struct_ops register "$unpriv_bpf/passthrough.bpf.o" \
	/sys/fs/bpf/unpriv 2>&1)
rc=$?
[ $rc != 0 ] && grep -qE "Operation not permitted|-EPERM" <<<"$out"
tap_ok $? "unprivileged struct_ops registration fails with EPERM" "$out"
rm -rf /sys/fs/bpf/unpriv
[ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 0 ]
tap_ok $? "and attaches nothing"

# Attach/detach storms, bad-policy gallery and cgroup churn: test_hardening.sh.

tap_end
