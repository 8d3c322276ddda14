#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mglructl's errors that need no mglru_ext kernel, run on the host: each
# bad input gets its one-line message and its own exit status, and nothing
# is loaded. The host kernel has no mglru_ext, which is itself one of the
# errors under test. MGLRUCTL runs another mglructl than the tree's.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/selftests/lib/tap.sh"
ctl=${MGLRUCTL:-$repo/build/bin/mglructl}
bpf=$repo/build/bpf
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

tap_begin

expect_status 2 'no command given' "no command" -- "$ctl"
expect_status 2 "unknown command 'frobnicate'" "unknown command" -- "$ctl" frobnicate
expect_status 2 "unknown option '--bogus'" "unknown global option" -- "$ctl" --bogus list
expect_status 0 '' "--help" -- "$ctl" --help
for cmd in list load unload status run compare apply daemon vmlinux-h; do
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
expect_status 2 "bad option '--yaml'" "status with a bad flag" -- "$ctl" status --yaml
expect_status 2 "unknown --format 'xml'" "status with an unknown format" -- "$ctl" status --format=xml
expect_status 2 "bad --watch 'soon'" "status --watch with a bad interval" -- "$ctl" status --watch soon
expect_status 2 'takes no --json' "status --watch with --json" -- "$ctl" status --watch --json
expect_status 7 'is not a BPF object: BPF object format invalid' "libbpf's errors in words, not 'Unknown error'" -- \
	"$ctl" load /etc/passwd
expect_status 2 'compare needs a command' "compare without a command" -- "$ctl" compare --policy budget
expect_status 2 'too many --policy' "compare with three policies" -- \
	"$ctl" compare --policy a --policy b --policy c -- true
expect_status 2 "bad --repeat '0'" "compare --repeat 0" -- "$ctl" compare --repeat 0 -- true
expect_status 2 '--set comes after the --policy' "compare --set before any --policy" -- \
	"$ctl" compare --set x=1 -- true
expect_status 2 "bad --backoff 'never'" "daemon with a bad backoff" -- "$ctl" daemon --backoff never

# The config file: every mistake is one FILE:LINE line and status 15, and
# --check needs no kernel.
conf=$scratch/policies.conf
cfg() { printf '%s\n' "$@" >"$conf"; }
# bad_config REGEX NAME LINE...: that file is refused with status 15
bad_config() {
	local regex=$1 name=$2
	shift 2
	cfg "$@"
	expect_status 15 "$regex" "$name" -- "$ctl" apply --check --config "$conf"
}
cfg '# thrash-prone containers' '[containers]' 'match = workload/docker-*.scope' \
	'match = workload/podman-[0-9]*.scope' 'policy = thrash_aging' 'refault_pct = 40' '' \
	'; batch jobs' '[batch]' 'match = /batch/*' 'policy = budget'
out=$("$ctl" apply --check --config "$conf" 2>&1)
tap_ok $? "apply --check: a valid file with comments" "$out"
grep -q "valid, 2 sections" <<<"$out"
tap_ok $? "apply --check says what it found" "$out"
expect_status 15 "$scratch/none.conf: cannot read the config file" "apply: missing file" -- \
	"$ctl" apply --check --config "$scratch/none.conf"
bad_config "^$conf:4: syntax error" "config: syntax error, with its line" \
	'[a]' 'match = a' 'policy = budget' 'this line is not ini'
bad_config "^$conf:3: unknown policy 'no_such_policy'" "config: unknown policy" \
	'[a]' 'match = a' 'policy = no_such_policy'
bad_config "^$conf:5: .*must be in \[1, 100\], not 101" "config: knob out of range, on its line" \
	'[a]' 'match = a' 'policy = thrash_aging' 'min_interval_ms = 200' 'refault_pct = 101'
bad_config "^$conf:4: .*has no knob 'nope'" "config: unknown knob" \
	'[a]' 'match = a' 'policy = budget' 'nope = 1'
bad_config "^$conf:2: bad pattern 'a/\[bc': '\[' without its '\]'" "config: bad glob" \
	'[a]' 'match = a/[bc' 'policy = budget'
bad_config "^$conf:2: bad pattern .*'\.\.'" "config: '..' in a pattern" \
	'[a]' 'match = a/../b' 'policy = budget'
bad_config "^$conf:1: 'policy' is outside a \[section\]" "config: key outside a section" \
	'policy = budget' '[a]' 'match = a' 'policy = budget'
bad_config "^$conf:1: \[a\] has no 'policy ='" "config: section without a policy" \
	'[a]' 'match = a' 'refault_pct = 40'
bad_config "^$conf:1: \[a\] has no 'match = PATTERN'" "config: section without a pattern" \
	'[a]' 'policy = budget'
bad_config "^$conf:7: section \[a\] appears twice" "config: a section twice" \
	'[a]' 'match = a' 'policy = budget' '[b]' 'match = b' 'policy = budget' '[a]' 'match = c' 'policy = budget'
# overlap: decided on the patterns, whatever cgroups exist now
overlap() { # RESULT A B
	cfg '[one]' "match = $2" 'policy = budget' '[two]' "match = $3" 'policy = thrash_aging'
	"$ctl" apply --check --config "$conf" >/dev/null 2>&1
	[ $? = "$1" ]
	tap_ok $? "config: '$2' and '$3' $([ "$1" = 15 ] && echo overlap || echo "do not overlap")"
}
overlap 15 'web/*' 'web/api-*'
overlap 15 'a/*.scope' 'a/docker-*'
overlap 15 '[ab]x' '[bc]x'
overlap 15 'a/?' 'a/[0-9]'
overlap 0 'web/*' 'db/*'
overlap 0 'web/*' 'web/*/leaf'
overlap 0 '*.scope' '*.service'
overlap 0 '[!a]x' 'ax'
overlap 0 'a/*.scope' 'a/docker-?'
cfg '[one]' 'match = web/*' 'policy = budget' '[two]' 'match = web/api-*' 'policy = budget'
out=$("$ctl" apply --check --config "$conf" 2>&1)
tap_ok $? "config: overlapping patterns with the same policy are fine" "$out"
cfg '[one]' 'match = web/*' 'policy = budget' '[two]' 'match = db/*' 'match = web/api-*' 'policy = thrash_aging'
out=$("$ctl" apply --check --config "$conf" 2>&1)
grep -q "^$conf:6: 'web/api-\*' of \[two\] and 'web/\*' of \[one\] (line 2) can match the same cgroup with different policies$" <<<"$out"
tap_ok $? "config: the overlap error names both patterns, sections and lines" "$out"
cfg '[a]' 'match = a' 'policy = budget'
expect_status 3 'this kernel has no mglru_ext' "apply (not --check) needs the kernel" -- \
	"$ctl" apply --config "$conf"

out=$("$ctl" vmlinux-h)
grep -q "^struct task_struct {" <<<"$out" && grep -q "preserve_access_index" <<<"$out"
tap_ok $? "vmlinux-h prints the running kernel's types" "$(head -c 300 <<<"$out")"

out=$("$ctl" list)
grep -q "^  budget " <<<"$out" && grep -q -- "--set refault_pct=50  \[1..100\]" <<<"$out"
tap_ok $? "list shows shipped policies with knobs, defaults and ranges" "$out"
out=$("$ctl" list --json)
python3 -c 'import json,sys; d=json.load(sys.stdin); assert {p["name"] for p in d["shipped"]} >= {"budget","isolation_throttle","thrash_aging","swappiness","passthrough","combined"}' <<<"$out"
tap_ok $? "list --json is valid JSON naming every shipped policy" "$out"

# JSON: the global -j and -p, one document on stdout, errors on stderr.
out=$("$ctl" -j list)
python3 -m json.tool <<<"$out" >/dev/null && [ "$(wc -l <<<"$out")" = 1 ] &&
	python3 -c 'import json,sys; d=json.load(sys.stdin); k={k["name"]: k for p in d["shipped"] for k in p["knobs"]}; assert k["refault_pct"]["default"] == "50" and k["refault_pct"]["max"] == "100", k; assert d["attached"] == []' <<<"$out"
tap_ok $? "-j list: one line of JSON, knobs with defaults and ranges" "$out"
[ "$out" = "$("$ctl" list --json)" ] && [ "$out" = "$("$ctl" list -j)" ]
tap_ok $? "-j list and list --json, list -j: the same document"
pretty=$("$ctl" -p list)
[ "$(wc -l <<<"$pretty")" -gt 20 ] && grep -q '^  "shipped": \[$' <<<"$pretty" &&
	python3 -c 'import json,sys; a,b=sys.argv[1:]; assert json.loads(a) == json.loads(b)' "$out" "$pretty"
tap_ok $? "-p list: the same document, indented" "$(head -5 <<<"$pretty")"
for form in "--pretty list" "-jp list" "--json --pretty list" "list --pretty"; do
	[ -n "$pretty" ] && [ "$("$ctl" $form)" = "$pretty" ]
	tap_ok $? "mglructl $form is -p list"
done
out=$("$ctl" -j status 2>"$scratch/err")
rc=$?
[ $rc = 3 ] && python3 -c 'import json,sys; d=json.load(sys.stdin); assert d == {"kernel_support": False, "policies": []}, d' <<<"$out" &&
	[ ! -s "$scratch/err" ] && [ "$out" = "$("$ctl" status --json)" ] && [ "$out" = "$("$ctl" status --format=json)" ]
tap_ok $? "-j status without mglru_ext: the document, status 3 (and status --json, --format=json)" "$rc: $out"
out=$("$ctl" -j load budget 2>"$scratch/err")
[ $? = 3 ] && [ -z "$out" ] && grep -q '^mglructl: this kernel has no mglru_ext' "$scratch/err" &&
	[ "$(wc -l <"$scratch/err")" = 1 ]
tap_ok $? "-j load that fails: nothing on stdout, the one error line on stderr" "$out$(cat "$scratch/err")"
cfg '[containers]' 'match = workload/docker-*.scope' 'policy = thrash_aging' 'refault_pct = 40' \
	'[batch]' 'match = batch/*' 'policy = budget'
out=$("$ctl" -j apply --check --config "$conf")
python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["config"] == sys.argv[1] and d["sections"] == 2 and isinstance(d["matches"], list), d' "$conf" <<<"$out"
tap_ok $? "-j apply --check: config, sections and the cgroups that match" "$out"
expect_status 2 "--format=prometheus and --json: choose one" "-j status --format=prometheus" -- \
	"$ctl" -j status --format=prometheus
expect_status 2 "takes no --json" "-j status --watch" -- "$ctl" -j status --watch
expect_status 2 "the daemon logs lines of text; it takes no -j" "-j daemon" -- "$ctl" -j daemon
expect_status 2 "vmlinux-h prints a C header; it takes no -j" "-j vmlinux-h" -- "$ctl" -j vmlinux-h
expect_status 2 "unknown option '-jx'" "unknown letter among global options" -- "$ctl" -jx list
"$ctl" --help | grep -q -- '-j, --json'
tap_ok $? "--help names -j"

# run and compare under 'none' need no mglru_ext, only root and a cgroup2
# /sys/fs/cgroup: the host's, or on a hybrid host its unified hierarchy
# bound there in a mount namespace of their own.
in_cgroup2() {
	if [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ]; then
		"$@"
	else
		unshare -m --propagation private sh -c \
			'mount --bind /sys/fs/cgroup/unified /sys/fs/cgroup && exec "$@"' sh "$@"
	fi
}
if [ "$(id -u)" != 0 ] || { [ "$(stat -fc %T /sys/fs/cgroup)" != cgroup2fs ] &&
	[ "$(stat -fc %T /sys/fs/cgroup/unified 2>/dev/null)" != cgroup2fs ]; }; then
	for t in "run -j" "run's text" "compare -j"; do
		tap_skip "$t under policy none" "needs root and a cgroup2 hierarchy"
	done
else
	out=$(in_cgroup2 "$ctl" -j run --policy none -- sh -c 'echo from-cmd; exit 3' 2>"$scratch/err")
	rc=$?
	[ $rc = 3 ] && grep -qx from-cmd "$scratch/err" &&
		python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["command"] == ["sh", "-c", "echo from-cmd; exit 3"] and d["policy"] == "none" and d["exit_status"] == 3 and d["attached"] is None and "pgscan" in d["memory_stat"] and "oom_kill" in d["memory_events"], d' <<<"$out"
	tap_ok $? "run -j under policy none: CMD's output on stderr, one document, CMD's status" "$rc: $out $(cat "$scratch/err")"
	out=$(in_cgroup2 "$ctl" run --policy none -- sh -c 'echo from-cmd; exit 3' 2>&1)
	rc=$?
	[ $rc = 3 ] && [ "$(sed -n 1,2p <<<"$out")" = "from-cmd
--- mglructl run: sh exited with status 3 under policy none (stock)" ] && grep -q '^memory.stat: pgscan=' <<<"$out"
	tap_ok $? "run's text under policy none" "$rc: $out"
	out=$(in_cgroup2 "$ctl" -j compare --repeat 2 -- sh -c 'exit 2' 2>"$scratch/err")
	rc=$?
	[ $rc = 16 ] && grep -q 'the command failed on at least one side' "$scratch/err" &&
		python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["sides"]; assert d["repeat"] == 2 and s["A"]["policy"] == s["B"]["policy"] == "none" and [r["exit_status"] for r in s["A"]["runs"] + s["B"]["runs"]] == [2] * 4 and s["B"]["summary"]["exit_status"]["median"] == 2, d' <<<"$out"
	tap_ok $? "compare -j under policy none: every run, status 16" "$rc: $out $(cat "$scratch/err")"
fi

# run's options are its own: compare's --repeat is not among them.
expect_status 2 "bad option '--repeat'" "run takes no --repeat" -- "$ctl" run --policy none --repeat 2 -- true

# Paths past PATH_MAX or NAME_MAX: one line, status 17, nothing cut.
long=$(printf 'a%.0s' {1..5000})
expect_status 17 '^mglructl: cgroup path is too long \(limits: 4095 bytes, 255 per name\): a{40}\.\.\.$' \
	"a cgroup path over PATH_MAX" -- "$ctl" load budget --cgroup "$long"
expect_status 17 'cgroup path is too long' "a cgroup name over NAME_MAX" -- \
	"$ctl" load budget --cgroup "/sys/fs/cgroup/${long:0:300}"
expect_status 17 'policy object path is too long' "a policy object path over PATH_MAX" -- \
	"$ctl" load "/$long.bpf.o"
expect_status 17 'config file path is too long' "a config file path over PATH_MAX" -- \
	"$ctl" apply --check --config "/$long"
out=$("$ctl" -j load budget --cgroup "$long" 2>&1 >/dev/null)
[ $? = 17 ] && [ "$(wc -l <<<"$out")" = 1 ]
tap_ok $? "-j: the same one line and status" "$out"

tap_end
