#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mglructl as a platform team deploys it, against the real kernel: apply
# from a config file, the daemon keeping it true (cgroups made later, a
# policy the kernel ejects, SIGHUP with a broken file, SIGKILL and
# adoption, SIGTERM), compare side by side, the Prometheus and --watch
# status, and a policy built outside the checkout against the installed
# SDK alone.
. "$(dirname "$0")/lib.sh"

tap_begin
unload_all
file=$(big_file deploy.bin 96)
conf=/run/tmp/deploy.conf
log=/run/tmp/daemon.log
scripted=$bpf/test/scripted.bpf.o
mkdir -p /run/tmp
make_cgroup deploy max >/dev/null
echo "+memory" >$cgroot/deploy/cgroup.subtree_control

# policy_on_cg_id ID: "ID NAME STATE" of the newest policy on the cgroup
# with id ID that is not a record, if any. wait_policy polls it, and
# every process costs on this guest, so two: grep reads the status files
# (and, unlike mawk, goes on past one whose policy was freed after the
# glob), awk picks.
policy_on_cg_id() {
	grep -H '' "$policies"/*/cgroup_id "$policies"/*/state "$policies"/*/name 2>/dev/null |
		awk -F: -v cg="$1" '{
		n = split($1, p, "/"); v[p[n - 1], p[n]] = $2; ids[p[n - 1]] = 1
	} END {
		for (id in ids)
			if (v[id, "cgroup_id"] == cg && v[id, "state"] != "detached" &&
			    (best == "" || id + 0 > best + 0))
				best = id
		if (best != "") print best, v[best, "name"], v[best, "state"]
	}'
}
# current_policy CG: the same for cgroup CG
current_policy() {
	local cg
	cg=$(stat -c %i "$cgroot/$1") || return
	policy_on_cg_id "$cg"
}
# wait_policy CG NAME [TENTHS]: wait until NAME is attached on CG
has_policy() { # CG_ID NAME
	local l
	l=$(policy_on_cg_id "$1")
	[ "${l#* }" = "$2 attached" ]
}
wait_policy() {
	local cg
	cg=$(stat -c %i "$cgroot/$1") || return 1
	retry "${3:-50}" has_policy "$cg" "$2"
}
nr_attached() { cat /sys/kernel/mm/mglru_ext/nr_attached; }
# wait_log FILE PATTERN [TENTHS]: wait until FILE has a line matching PATTERN
# (a loaded host may take seconds to start the daemon)
wait_log() { retry "${3:-100}" grep -qs -- "$2" "$1"; }

cat >"$conf" <<EOF
# web servers get the budgeted loop
[web]
match = deploy/web-*
policy = budget
min_budget = 64

[batch]
match = deploy/batch
policy = thrash_aging
EOF
for cg in web-1 web-2 batch other; do make_cgroup deploy/$cg 48M >/dev/null; done

# apply --check touches nothing; apply attaches; a second apply is a no-op.
out=$("$ctl" apply --check --config "$conf")
grep -q "^/deploy/web-1: \[web\] budget min_budget=64" <<<"$out" && [ "$(nr_attached)" = 0 ]
tap_ok $? "apply --check prints the plan and attaches nothing" "$out"
out=$("$ctl" apply --config "$conf")
rc=$?
[ $rc = 0 ] && wait_policy deploy/web-1 budget && wait_policy deploy/web-2 budget &&
	wait_policy deploy/batch thrash_aging && [ -z "$(current_policy deploy/other)" ]
tap_ok $? "apply attaches the config's policies to the matching cgroups only" "$out"
ids=$(for cg in web-1 web-2 batch; do current_policy deploy/$cg; done)
out=$("$ctl" apply --config "$conf")
[ -z "$out" ] && [ "$ids" = "$(for cg in web-1 web-2 batch; do current_policy deploy/$cg; done)" ]
tap_ok $? "apply again changes nothing (no double attach)" "$out"
out=$("$ctl" status)
grep -qE "budget +/deploy/web-1 +attached +config" <<<"$out"
tap_ok $? "status shows the config as the owner" "$out"
json=$("$ctl" status --json)
python3 -c 'import json,sys; d=json.load(sys.stdin); o={p["cgroup"]: p["owner"] for p in d["policies"] if p["state"] == "attached"}; assert o["/deploy/web-1"] == "config", o' <<<"$json"
tap_ok $? "status --json carries the owner"

# The file changes: a knob, a section gone; a broken file attaches nothing.
sed -i 's/min_budget = 64/min_budget = 128/; /^\[batch\]/,$d' "$conf"
out=$("$ctl" apply --config "$conf")
grep -q "detached budget from /deploy/web-1: its config entry changed" <<<"$out" &&
	grep -q "detached thrash_aging from /deploy/batch: no longer in the config" <<<"$out" &&
	wait_policy deploy/web-1 budget && [ -z "$(current_policy deploy/batch)" ]
tap_ok $? "apply re-attaches a changed entry and detaches a removed one" "$out"
before=$(nr_attached)
cp "$conf" "$conf.good"
printf '[more]\nmatch = deploy/other\npolicy = budget\nbad_knob = 1\n' >>"$conf"
expect_status 15 "^$conf:[0-9]+: .*has no knob 'bad_knob'" "apply of a broken file: FILE:LINE and status 15" -- \
	"$ctl" apply --config "$conf"
[ "$(nr_attached)" = "$before" ] && [ -z "$(current_policy deploy/other)" ]
tap_ok $? "a broken file attaches nothing"
cp "$conf.good" "$conf"

# A policy loaded by hand on a matching cgroup is left alone.
make_cgroup deploy/web-hand 48M >/dev/null
"$ctl" load passthrough --cgroup deploy/web-hand >/dev/null
out=$("$ctl" apply --config "$conf" 2>&1)
grep -q "/deploy/web-hand has policy passthrough .* not attached by the config; leaving it" <<<"$out" &&
	wait_policy deploy/web-hand passthrough 5
tap_ok $? "apply leaves a hand-loaded policy alone, and says so" "$out"

# The daemon: later cgroups, ejections with backoff and a limit.
cat >>"$conf" <<EOF

[ejecting]
match = deploy/eject-*
policy = $scripted
eject_after = 1
EOF
"$ctl" daemon --config "$conf" --backoff 1 --max-restarts 2 >"$log" 2>&1 &
daemon=$!
wait_log "$log" "mglructl daemon $daemon: config $conf, 2 sections" && kill -0 $daemon
tap_ok $? "the daemon starts with the config" "$(cat "$log")"
# Loading a policy (the verifier) takes its own time on this slow guest:
# the daemon must add less than a second to what one mglructl load takes,
# the slower of one just before and one just after (a host busy with other
# work slows both alike). Its latency is timed by its own clock (the log's
# boot-time stamps, from just before the mkdir), and the wait reads only
# the log, so that the test's polling does not take the daemon's CPU.
make_cgroup deploy/timing 48M >/dev/null
timed_load() {
	local start
	start=$(date +%s%N)
	"$ctl" load budget --cgroup deploy/timing >/dev/null
	echo $((($(date +%s%N) - start) / 1000000))
	"$ctl" unload --cgroup deploy/timing >/dev/null
}
load_ms=$(timed_load)
read -r made _ </proc/uptime
mkdir $cgroot/deploy/web-new
for i in $(seq 50); do
	ms=$(awk -F'[][]' -v t0="$made" '/] attached budget to \/deploy\/web-new / {
		printf "%d", ($2 - t0) * 1000 }' "$log")
	[ -n "$ms" ] && break
	sleep 0.2
done
after_ms=$(timed_load)
[ "$after_ms" -gt "$load_ms" ] && load_ms=$after_ms
wait_policy deploy/web-new budget 10 && [ -n "$ms" ] && [ $((ms - load_ms)) -lt 1000 ]
tap_ok $? "a cgroup made later gets its policy within a second of a load (${ms:-no attach in 10 s} ms; the slower of two mglructl loads: $load_ms ms)" \
	"$(cat "$log")"
expect_status 1 'another mglructl daemon runs' "a second daemon refuses to start" -- \
	"$ctl" daemon --config "$conf"

# scripted ejects itself on its first hook call: pressure brings each
# ejection, the daemon re-attaches after 1 s, then 2 s, then stops.
make_cgroup deploy/eject-1 32M >/dev/null
wait_policy deploy/eject-1 scripted 30
tap_ok $? "the daemon attaches the self-ejecting test policy" "$(cat "$log")"
deadline=$((SECONDS + 120))
while [ $SECONDS -lt $deadline ] && ! grep -q "the limit: stock MGLRU decides there" "$log"; do
	file_pressure deploy/eject-1 "$file" 1
done
# the daemon's lines carry the boot-time clock: ejection seen -> re-attached
gaps=($(awk -F'[][]' '/on \/deploy\/eject-1 was ejected by the kernel/ { t = $2 }
	/attached scripted to \/deploy\/eject-1/ && t { printf "%d ", ($2 - t) * 1000; t = 0 }' "$log"))
grep -q "the limit: stock MGLRU decides there" "$log" && [ ${#gaps[@]} = 2 ] &&
	[ "${gaps[0]}" -ge 950 ] && [ "${gaps[1]}" -ge 1950 ]
tap_ok $? "an ejected policy comes back after 1 s, then 2 s, then not (re-attached after ${gaps[*]} ms)" \
	"$(cat "$log")"
[ "$(grep -c 'was ejected by the kernel: kind=self reason=".*" message="scripted: eject_after reached"' "$log")" = 3 ]
tap_ok $? "each ejection is logged with the kernel's exit reason" "$(cat "$log")"
sleep 3
read -r _ _ state < <(current_policy deploy/eject-1)
[ "$state" = ejected ] && [ "$(grep -c 'attached scripted to /deploy/eject-1' "$log")" = 3 ]
tap_ok $? "after the limit it stays out: stock MGLRU decides there"

# SIGHUP: a broken file keeps the old assignment; a good one is applied.
cp "$conf" "$conf.good"
echo "not ini at all" >>"$conf"
kill -HUP $daemon
wait_log "$log" "keeping the previous assignment"
mkdir $cgroot/deploy/web-after-bad-hup
grep -q "^$conf:[0-9]*: syntax error" "$log" && grep -q "keeping the previous assignment" "$log" &&
	wait_policy deploy/web-after-bad-hup budget 30 && kill -0 $daemon
tap_ok $? "SIGHUP with a broken file: logged, the old assignment kept" "$(tail -5 "$log")"
cp "$conf.good" "$conf"
printf '\n[batch]\nmatch = deploy/batch\npolicy = thrash_aging\n' >>"$conf"
kill -HUP $daemon
wait_policy deploy/batch thrash_aging 50 && grep -q "reloaded $conf: 3 sections" "$log"
tap_ok $? "SIGHUP with a good file applies it" "$(tail -5 "$log")"

# unload of a config policy says the daemon will put it back, and it does.
out=$("$ctl" unload --cgroup deploy/web-2 2>&1)
grep -q "note: policy budget .* was attached by the config file; a running mglructl daemon attaches it again" <<<"$out" &&
	wait_policy deploy/web-2 budget 50
tap_ok $? "unload of a config policy warns, and the daemon attaches it again" "$out"

# SIGKILL leaves everything attached; a new daemon adopts it all.
before=$(for cg in web-1 web-2 web-new batch; do current_policy deploy/$cg; done)
kill -KILL $daemon
wait $daemon 2>/dev/null
sleep 0.5
[ "$before" = "$(for cg in web-1 web-2 web-new batch; do current_policy deploy/$cg; done)" ]
tap_ok $? "SIGKILL of the daemon leaves its policies attached"
"$ctl" daemon --config "$conf" --backoff 1 --max-restarts 2 >"$log.2" 2>&1 &
daemon=$!
# a second for its first look at the cgroups, once it has started
wait_log "$log.2" "mglructl daemon $daemon: config" && sleep 2
[ "$before" = "$(for cg in web-1 web-2 web-new batch; do current_policy deploy/$cg; done)" ] &&
	! grep -q "] attached .* to /deploy/web" "$log.2"
tap_ok $? "a restarted daemon adopts them without attaching again" "$(cat "$log.2")"

# SIGTERM: the config's policies go, the hand-loaded one stays.
kill -TERM $daemon
wait $daemon
rc=$?
[ $rc = 0 ] && [ -z "$(current_policy deploy/web-1)" ] && [ -z "$(current_policy deploy/batch)" ] &&
	wait_policy deploy/web-hand passthrough 5 && grep -q "detached [0-9]* policies, exiting" "$log.2"
tap_ok $? "SIGTERM detaches the config's policies and exits 0 (status $rc)" "$(tail -8 "$log.2")"
unload_all

# compare: the same command under stock and budget at once, repeated;
# each side reads its own file (MGLRUCTL_SIDE), so each is charged for it.
big_file deploy.A.bin 96 >/dev/null
big_file deploy.B.bin 96 >/dev/null
cmd="f=$scratch/deploy.\$MGLRUCTL_SIDE.bin; [ \$MGLRUCTL_RUN -ge 1 ] &&
	dd if=\$f iflag=nocache count=0 status=none && cat \$f >/dev/null"
out=$("$ctl" compare --policy budget --memory-max 32M --repeat 2 -- sh -c "$cmd" 2>/dev/null)
rc=$?
[ $rc = 0 ] && grep -qE "^median \[range\] +A: none \(stock\) +B: budget" <<<"$out" &&
	grep -qE "^pgscan +[1-9][0-9]* \[" <<<"$out" && grep -q "(2 runs of each side, side by side)" <<<"$out"
tap_ok $? "compare prints both sides with medians and ranges" "$out"
json=$("$ctl" compare --policy none --policy budget --memory-max 32M --json -- sh -c "$cmd" 2>/dev/null)
python3 - "$json" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
a, b = d["sides"]["A"], d["sides"]["B"]
assert a["policy"] == "none" and b["policy"] == "budget"
assert a["summary"]["policy_calls"]["median"] == 0
assert b["summary"]["policy_calls"]["median"] > 0
assert a["runs"][0]["pgscan"] > 0 and b["runs"][0]["pgscan"] > 0
assert a["runs"][0]["exit_status"] == 0
PY
tap_ok $? "compare --json: runs and summaries, the policy decides only on its side" "$json"
expect_status 16 'the command failed on at least one side' "compare exits non-zero when the command fails" -- \
	"$ctl" compare -- sh -c 'exit 3'
! ls -d $cgroot/mglructl-* >/dev/null 2>&1 && [ "$(nr_attached)" = 0 ]
tap_ok $? "compare leaves no cgroup and no policy behind"

# Fleet conventions: Prometheus text format, --watch.
"$ctl" load budget --cgroup deploy/web-1 >/dev/null
file_pressure deploy/web-1 "$file" 1
prom=$("$ctl" status --format=prometheus)
python3 - "$prom" <<'PY'
import re, sys
text = sys.argv[1]
sample = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? [0-9.e+-]+$')
typed = set()
for line in text.splitlines():
    if line.startswith("# TYPE "):
        typed.add(line.split()[2])
    elif line.startswith("# HELP "):
        pass
    else:
        assert sample.match(line), line
        assert line.split("{")[0].split(" ")[0] in typed, line
assert 'mglru_ext_kernel_support 1' in text
assert re.search(r'^mglru_ext_policy_info\{id="\d+",name="budget",cgroup="/deploy/web-1",state="attached",owner="pin",exit_kind="none"\} 1$', text, re.M)
m = re.search(r'^mglru_ext_calls_scan_budget_total\{[^}]*name="budget"[^}]*\} (\d+)$', text, re.M)
assert m and int(m.group(1)) > 0
PY
tap_ok $? "status --format=prometheus: valid exposition format, info and counters" "$prom"
"$ctl" status --watch 0.5 >/run/tmp/watch.out 2>&1 &
watcher=$!
file_pressure deploy/web-1 "$file" 2
kill -INT $watcher
wait $watcher
rc=$?
frames=$(grep -c "^ID .*DECIDED/s" /run/tmp/watch.out)
[ $rc = 0 ] && [ "$frames" -ge 3 ] &&
	grep -qE "^[0-9]+ +budget +/deploy/web-1 +attached +[1-9][0-9]* " /run/tmp/watch.out
tap_ok $? "status --watch redraws rates ($frames frames, plain text into a file)" "$(tail -6 /run/tmp/watch.out)"
unload_all

# The SDK: an install as a package lays it out (make sdk-stage, before
# the boot, into build/sdk), copied out of the checkout as a package would
# be unpacked; then a policy in a directory outside the checkout, built
# and loaded with nothing from it.
sdk=/run/sdk
rm -rf $sdk /run/mypolicy
cp -a "$repo/build/sdk" $sdk
[ -x $sdk/usr/sbin/mglructl ] && [ -f $sdk/usr/lib/pkgconfig/mglru_ext.pc ]
tap_ok $? "the installed tree: mglructl, policies, SDK, pkg-config file" "$(find $sdk | head -20)"
out=$($sdk/usr/sbin/mglructl list 2>&1)
grep -q "^Policies shipped in $sdk/usr/sbin/../lib/mglru_ext/policies" <<<"$out" &&
	grep -q "^  thrash_aging " <<<"$out"
tap_ok $? "the installed mglructl finds the installed policies" "$(head -3 <<<"$out")"
mkdir /run/mypolicy
cat >/run/mypolicy/file_first.bpf.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include "policy.bpf.h"

MGLRU_EXT_POLICY_DESC("file first, built against the installed SDK");

s32 MGLRU_EXT_OP(file_first_type, const struct mglru_ext_ctx *rc)
{
	if (rc->lru[MGLRU_EXT_FILE].evictable >= 32)
		return MGLRU_EXT_FILE;
	return rc->stock;
}

MGLRU_EXT_OPS_DEFINE(file_first_ops) = {
	.choose_type = (void *)file_first_type,
	.name = "file_first",
};
EOF
export PKG_CONFIG_PATH=$sdk/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$sdk
flags="$(pkg-config --variable=bpf_cflags mglru_ext) $(pkg-config --cflags mglru_ext)"
out=$(cd /run/mypolicy && $sdk/usr/sbin/mglructl vmlinux-h >vmlinux.h &&
	clang $flags -I. -c file_first.bpf.c -o file_first.bpf.o 2>&1)
rc=$?
[ $rc = 0 ] && ! grep -q "$repo" <<<"$flags"
tap_ok $? "a policy builds outside the checkout with the SDK's flags alone ($flags)" "$out"
make_cgroup deploy/sdk 32M >/dev/null
out=$($sdk/usr/sbin/mglructl load /run/mypolicy/file_first.bpf.o --cgroup deploy/sdk 2>&1)
rc=$?
id=$(policy_id file_first)
file_pressure deploy/sdk "$file" 1
[ $rc = 0 ] && [ "$(calls "$id")" -gt 0 ] && [ "$(policy_field "$id" refused)" = 0 ]
tap_ok $? "the SDK-built policy loads by file and decides ($(calls "$id") calls)" "$out"
unload_all
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

remove_cgroup deploy
tap_end
