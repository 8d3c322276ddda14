#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# inputs.sh NAME: the files a results section's figures depend on, one per
# line: the policies it loads, its workload and summarizer, the C loads
# those run, the kernel series and configs of the base it ran on, and the
# bed's own scripts.
#
# inputs.sh --hash NAME: one hash of what those figures can depend on, so
# that a section is stale (make results-check) only when what it measured
# can have changed:
#   - the kernel: the applied tree's net change from the pristine source
#     (however the series is cut into patches) and the config fragments;
#   - the policies: what their objects give the kernel
#     (bench/policy_hash.py: instructions and data, not names or BTF);
#   - the workloads, the guest scripts, the C loads and the bed's scripts
#     without their comments and blank lines;
#   - bench.sh's bench_NAME() and the helpers it calls, vm() (the guest's
#     QEMU options) and the section's vCPUs, without comments.
# Not the summarizers, the results writer or any prose. Exit status 3: the
# kernel tree is not applied or a policy object is not built, and the
# hash cannot be taken.
#
# inputs.sh --funcs NAME: the functions of bench.sh that hash takes.
#
# BASE (default 7.3) picks the kernel series.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
base=${BASE:-7.3}

hash=0
list_funcs=0
case ${1:-} in
--hash) hash=1; shift ;;
--funcs) list_funcs=1; shift ;;
esac
name=${1:?usage: inputs.sh [--hash | --funcs] NAME}

bench_fn() { # NAME: bench.sh's function NAME, without comments
	sed -n "/^$1() {/,/^}/p" bench/bench.sh |
		sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d'
}

# the policies a section loads: their sources are listed, their objects
# (build/bpf/NAME.bpf.o, build/bpf/test/NAME.bpf.o) hashed
pol() { for p in "$@"; do ls bpf-policies/$p.bpf.*; done; }
tpol() { for p in "$@"; do ls selftests/policies/$p.bpf.c; done; }
# the guest scripts bench.sh runs (in files of their own)
guest=bench/guest
# the application sections' arms: every shipped policy, as bench.sh lists them
eval "$(grep '^app_all_policies=' bench/bench.sh)"
case $name in
thrash) files="$(pol thrash_aging) selftests/workloads/madv_random_thrash.sh $guest/runs.sh $guest/thrash_alone.sh
	selftests/workloads/thrash_load.c bench/summarize_thrash.py" ;;
pileup) files="$(pol isolation_throttle budget combined thrash_aging) selftests/workloads/isolation_pileup.sh $guest/runs.sh
	selftests/workloads/anon_touch.c bench/summarize_arms.py" ;;
swappiness) files="$(pol swappiness) selftests/workloads/swappiness_sweep.sh
	selftests/workloads/anon_file_lockstep.c bench/summarize_swappiness.py" ;;
mix | oom) files="$(pol budget) selftests/workloads/file_anon_mix.sh $guest/runs.sh
	selftests/workloads/file_anon_mix.c bench/summarize_arms.py bench/median_range.py"
	[ "$name" = mix ] || files="$files $guest/oom_shapes.sh" ;;
db | dbslow) files="$(pol budget combined isolation_throttle thrash_aging)
	selftests/workloads/db_prepare.sh selftests/workloads/db_readmostly.sh
	selftests/workloads/db_readmostly.cnf selftests/lib/db_counters.sh bench/summarize_arms.py $guest/runs.sh" ;;
pgbench) files="$(pol budget combined isolation_throttle thrash_aging)
	selftests/workloads/pgbench_prepare.sh selftests/workloads/pgbench_scan.sh
	selftests/lib/db_counters.sh bench/summarize_arms.py $guest/runs.sh" ;;
build) files="$(pol isolation_throttle budget) selftests/workloads/build_prepare.sh
	selftests/workloads/parallel_build.sh bench/summarize_arms.py $guest/build_runs.sh" ;;
combined) files="$(pol combined budget isolation_throttle thrash_aging)
	selftests/workloads/file_anon_mix.sh selftests/workloads/file_anon_mix.c
	selftests/workloads/isolation_pileup.sh selftests/workloads/madv_random_thrash.sh
	selftests/workloads/thrash_load.c bench/summarize_arms.py bench/summarize_thrash.py
	$guest/runs.sh $guest/combined_parts.sh" ;;
overhead | hooks | place | bed)
	# the bed runs no policy, hooks passthrough and the stock_* test
	# policies, overhead the shipped policies bench_overhead names (not
	# example, the policy written to be copied)
	files="selftests/workloads/reclaim_overhead.sh selftests/workloads/reclaim_load.c
	selftests/workloads/bed_load.h bench/summarize_overhead.py"
	case $name in
	hooks) files="$files $(pol passthrough) $(tpol stock_isolate_only stock_no_budget stock_no_hooks passthrough_lru)" ;;
	place) files="$files $(tpol stock_no_hooks passthrough_place) $guest/place.sh" ;;
	overhead) files="$files $(pol passthrough budget isolation_throttle thrash_aging swappiness combined)
		$guest/overhead_scaling.sh" ;;
	esac ;;
getscan) files="$(pol $app_all_policies)
	selftests/workloads/rocksdb_prepare.sh selftests/workloads/rocksdb_getscan.sh selftests/lib/apps.sh selftests/lib/slow_disk.sh
	selftests/lib/db_counters.sh bench/summarize_arms.py $guest/runs.sh" ;;
ripgrep) files="$(pol $app_all_policies)
	selftests/workloads/ripgrep_search.sh selftests/lib/apps.sh selftests/lib/slow_disk.sh selftests/lib/db_counters.sh bench/summarize_arms.py
	$guest/runs.sh" ;;
pair) files="$(pol scan_resistant loop) selftests/workloads/app_pair.sh selftests/workloads/app_pair.conf
	selftests/workloads/rocksdb_prepare.sh selftests/workloads/rocksdb_getscan.sh selftests/workloads/ripgrep_search.sh
	selftests/lib/apps.sh selftests/lib/slow_disk.sh selftests/lib/db_counters.sh bench/summarize_arms.py
	$guest/runs.sh" ;;
iteration) files="$(pol thrash_aging) $(ls loader/*.c loader/*.h) $guest/load_time.sh" ;;
*) echo "inputs.sh: no section '$name'" >&2; exit 2 ;;
esac
# bench.sh's functions a section's figures depend on: bench_NAME, the
# functions of bench.sh it calls, theirs, and so on, but those that only
# write the section (the writer and the summaries' text)
writers=" section inputs_of set_where release report_overhead "
defined=$(sed -n 's/^\([a-z_][a-z_0-9]*\)() {.*/\1/p' bench/bench.sh | paste -sd '|')
funcs=
todo=bench_$name
while [ -n "${todo// /}" ]; do
	set -- $todo
	f=$1
	shift
	todo="$*"
	[[ " $funcs " == *" $f "* || $writers == *" $f "* ]] && continue
	funcs="$funcs $f"
	todo="$todo $(bench_fn "$f" | tail -n +2 | { grep -owE "$defined" || true; } | sort -u | tr "\n" " ")"
done
if [ $list_funcs = 1 ]; then
	tr ' ' '\n' <<<"$funcs" | sed '/^$/d'
	exit 0
fi
# every section: the kernel it ran on (the series as applied: the cover
# letter is not part of the kernel) and the bed
series=$(cd kernel-patches && for slug in $(grep -v '^#' "$base/series"); do
	ls "common/$slug.patch" "$base/$slug.patch" 2>/dev/null || true
done | sed 's|^|kernel-patches/|'; echo "kernel-patches/$base/series")
files="$files kernel-config/mglru_ext.config
	kernel-config/linux-$base.config kernel-config/bench.config
	include/mglru_ext_policy.h bpf-policies/policy.bpf.h selftests/vm-run.sh
	selftests/vm-init.sh selftests/lib/bed.sh selftests/lib/arms.sh bench/results.py"
files=$(tr -s ' \t' '\n\n' <<<"$files" | sed '/^$/d' | sort -u)

if [ $hash = 0 ]; then
	sort -u <<<"$files
$series"
	exit 0
fi
# The kernel is hashed as what the series builds, not as the patch files:
# the net change of the applied tree (build-kernel.sh) from the pristine
# source. That needs the tree applied with the series as it is now.
src=build/src/linux-$base
if [ "$(cat "$src/.mglru-series" 2>/dev/null)" != "$(scripts/series-id.sh "$base")" ]; then
	echo "inputs.sh: $src does not hold the $base series as it is now: run 'make BASE=$base kernel'" >&2
	exit 3
fi
objs=$(sed -n 's|^bpf-policies/\(.*\.bpf\)\.c$|build/bpf/\1.o|p
	s|^selftests/policies/\(.*\.bpf\)\.c$|build/bpf/test/\1.o|p' <<<"$files")
for o in $objs; do
	src_of=$(sed 's|build/bpf/test/\(.*\)\.o|selftests/policies/\1.c|; s|build/bpf/\(.*\)\.o|bpf-policies/\1.c|' <<<"$o")
	# what the object was built from: the files clang said it read (the
	# .d beside it, which make rebuilds by), else its source and the
	# headers every policy includes
	deps="$src_of bpf-policies/policy.bpf.h include/mglru_ext_policy.h"
	[ ! -f "$o.d" ] || deps=$(sed -e 's/^[^:]*://' -e 's/\\$//' "$o.d" | tr ' ' '\n' |
		sed -n "s#^\($repo/\)\?\(bpf-policies/.*\|include/.*\|selftests/policies/.*\)#\2#p")
	if [ ! -f "$o" ] || [ -n "$(find $deps -newer "$o" 2>/dev/null)" ]; then
		echo "inputs.sh: $o is not built from the sources as they are: run 'make policies'" >&2
		exit 3
	fi
done

# a file without its comments and blank lines (C: as the compiler sees it
# before preprocessing; scripts: without whole-line comments)
uncommented() { # FILE
	case $1 in
	*.c | *.h) gcc -fpreprocessed -dD -E -P -x c "$1" 2>/dev/null ;;
	*.config) grep -v -e '^#' -e '^[[:space:]]*$' "$1" | cat
		# "is not set" is a setting, not a comment
		grep '^# CONFIG_.* is not set' "$1" || true ;;
	*) sed -e '1!{/^[[:space:]]*#/d}' -e '/^[[:space:]]*$/d' "$1" ;;
	esac
}
eval "$(sed -n '/^smp_for() {/,/^}/p' bench/bench.sh)"
{
	for f in $files; do
		case $f in
		bpf-policies/* | selftests/policies/* | include/mglru_ext_policy.h | \
			bench/summarize_*.py | bench/median_range.py | bench/results.py) ;;
		*) echo "== $f"; uncommented "$f" ;;
		esac
	done
	# shellcheck disable=SC2086
	[ -z "$objs" ] || python3 bench/policy_hash.py $objs | sed 's| build/| |'
	git -C "$src" diff --no-ext-diff --no-color pristine HEAD
	for f in $funcs; do
		bench_fn "$f"
	done
	echo "vcpus $(smp_given='' smp_for "$name")"
} | sha256sum | cut -c1-16
