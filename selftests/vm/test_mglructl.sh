#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mglructl against the real patched kernel: every command, two policies on
# sibling cgroups at once, pins that outlive mglructl, --foreground on
# SIGINT and SIGTERM, run's exit status, and the errors only a kernel can
# produce.
. "$(dirname "$0")/lib.sh"

tap_begin
unload_all
file=$(big_file pressure.bin 128)

out=$("$ctl" status)
grep -q "kernel support: yes" <<<"$out" && grep -q "no policy attached" <<<"$out"
tap_ok $? "status: kernel support, nothing attached" "$out"

# Two different policies on two sibling cgroups at once.
make_cgroup left 64M >/dev/null
make_cgroup right 64M >/dev/null
out=$("$ctl" load thrash_aging --cgroup left --set min_interval_ms=200 2>&1)
tap_ok $? "load thrash_aging on /left" "$out"
out=$("$ctl" load budget --cgroup right 2>&1)
tap_ok $? "load budget on /right" "$out"
[ -e /sys/fs/bpf/mglru_ext/cgroup-$(stat -c %i $cgroot/left)/link ]
tap_ok $? "the policy is pinned per cgroup"
# one file each: a page cached by one cgroup is not charged to the other
file_pressure left "$file" 1 &
file_pressure right "$(big_file pressure-right.bin 128)" 1
wait
out=$("$ctl" status)
grep -qE "thrash_aging +/left +attached" <<<"$out" && grep -qE "budget +/right +attached" <<<"$out"
tap_ok $? "status lists both, with their cgroups" "$out"
json=$("$ctl" status --json)
python3 - "$json" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
by = {p["name"]: p for p in d["policies"] if p["state"] == "attached"}
assert d["kernel_support"] is True
assert by["budget"]["cgroup"] == "/right" and by["thrash_aging"]["cgroup"] == "/left"
assert by["budget"]["counters"]["calls_scan_budget"] > 0
PY
tap_ok $? "status --json: both policies, counters of the one under pressure"
out=$("$ctl" list)
grep -q "Attached now" <<<"$out" && grep -qE "budget +/right" <<<"$out"
tap_ok $? "list shows shipped and attached policies"

# The pins outlived the mglructl processes that made them; unload removes.
out=$("$ctl" unload budget)
grep -q "detached" <<<"$out" && [ ! -e /sys/fs/bpf/mglru_ext/cgroup-$(stat -c %i $cgroot/right) ]
tap_ok $? "unload NAME detaches and removes the pin" "$out"
out=$("$ctl" unload --cgroup left)
tap_ok $? "unload --cgroup" "$out"
expect_status 12 'no pinned policy named budget' "unload of nothing attached" -- "$ctl" unload budget
[ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 0 ]
tap_ok $? "nothing left attached"

# --foreground detaches on SIGINT and on SIGTERM.
for sig in INT TERM; do
	"$ctl" load budget --cgroup left --foreground >/run/tmp/fg.out 2>&1 &
	pid=$!
	sleep 3
	[ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 1 ]
	tap_ok $? "--foreground attaches while it runs (SIG$sig test)"
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc = 0 ] && [ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 0 ] &&
		grep -q "detaching policy budget" /run/tmp/fg.out &&
		grep -q "kind=unregistered" /run/tmp/fg.out
	tap_ok $? "--foreground detaches on SIG$sig and says why" "$(cat /run/tmp/fg.out)"
done

# SIGKILL mid-foreground: the kernel detaches when the last fd goes.
"$ctl" load budget --cgroup left --foreground >/dev/null 2>&1 &
pid=$!
sleep 2
kill -KILL $pid
wait $pid 2>/dev/null
for _ in $(seq 50); do
	[ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 0 ] && break
	sleep 0.1
done
[ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 0 ]
tap_ok $? "SIGKILLed mglructl leaves nothing attached"

# run: a temporary cgroup, the policy attached there, the command's status.
out=$("$ctl" run --policy budget --memory-max 64M -- \
	sh -c "dd if=$file iflag=nocache count=0 status=none; cat $file >/dev/null; exit 7")
rc=$?
[ $rc = 7 ] && grep -q "exited with status 7 under policy budget" <<<"$out" &&
	grep -qE "memory.stat: pgscan=[1-9]" <<<"$out" && grep -q "oom_kill=0" <<<"$out"
tap_ok $? "run passes on the exit status and reports the cgroup's reclaim" "$out"
! ls -d $cgroot/mglructl-* >/dev/null 2>&1 && [ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 0 ]
tap_ok $? "run leaves no cgroup and no policy behind"
out=$("$ctl" run --policy none --memory-max 64M -- true)
tap_ok $? "run --policy none runs under stock reclaim" "$out"

# Kernel-side errors, each with its status.
"$ctl" load budget --cgroup left >/dev/null
expect_status 6 'already pinned for cgroup /left' "second pinned policy on a cgroup" -- \
	"$ctl" load thrash_aging --cgroup left
expect_status 6 'already attached to system' "second system-wide policy (kernel EEXIST)" -- \
	bash -c "'$ctl' load passthrough >/dev/null && '$ctl' load budget --foreground"
unload_all
expect_status 4 'needs root' "not root" -- as_nobody "$unpriv_bin/mglructl" load budget
expect_status 9 'the verifier rejected policy writes_ctx' "verifier rejection, summary line" -- \
	"$ctl" load "$bpf/test/writes_ctx.bpf.o"
out=$("$ctl" -v load "$bpf/test/writes_ctx.bpf.o" 2>&1)
grep -q "BEGIN PROG LOAD LOG" <<<"$out"
tap_ok $? "-v shows the whole verifier log"
expect_status 14 'attaching policy scripted to system failed' "a policy whose init refuses" -- \
	"$ctl" load "$bpf/test/scripted.bpf.o" --set init_ret=-22
expect_status 10 'bpffs is not mounted' "bpffs not mounted" -- \
	unshare -m sh -c "umount /sys/fs/bpf && '$ctl' load budget"
# nomem doesn't pass the memory controller down to its child
mkdir -p $cgroot/nomem/child
expect_status 5 'has no memory controller' "cgroup without the memory controller" -- \
	"$ctl" load budget --cgroup nomem/child
rmdir $cgroot/nomem/child $cgroot/nomem
[ "$(cat /sys/kernel/mm/mglru_ext/nr_attached)" = 0 ] && [ -z "$(ls /sys/fs/bpf/mglru_ext 2>/dev/null)" ]
tap_ok $? "failed loads leave nothing attached or pinned"

# Every shipped policy passes the verifier and decides under pressure
# without refusals or ejection.
swap_on
make_cgroup shipped 64M 64M >/dev/null
for obj in "$bpf"/*.bpf.o; do
	name=$(basename "$obj" .bpf.o)
	"$ctl" load "$name" --cgroup shipped >/dev/null || { tap_ok 1 "shipped policy $name loads"; continue; }
	id=$(policy_id "$name")
	in_cgroup shipped "$anon_touch" 32 2 3 >/dev/null &
	file_pressure shipped "$file" 1
	wait
	n=$(calls "$id")
	[ "$n" -gt 0 ] && [ "$(policy_field "$id" refused)" = 0 ] &&
		[ "$(policy_field "$id" state)" = attached ] &&
		[ "$(memevent shipped oom_kill)" = 0 ]
	tap_ok $? "shipped policy $name decides under pressure ($n calls, $(policy_field "$id" differed) differed from stock)"
	"$ctl" unload "$name" >/dev/null
done
remove_cgroup shipped

remove_cgroup left
remove_cgroup right
tap_end
