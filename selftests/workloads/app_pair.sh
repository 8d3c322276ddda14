#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# app_pair: RocksDB GET-SCAN (rocksdb_getscan.sh) and ripgrep's searches
# (ripgrep_search.sh) at once, in two sibling memcgs of one cgroup, each
# decided by the policy one mglructl config gives it (cache_ext's two
# cgroups side by side, each with its own policy). Without --config both
# are stock's. What each workload measures is its own CSV, as when it
# runs alone.
#
# Runs in the guest. Both workloads set up their memcg, files and arm,
# then wait; `mglructl apply CONFIG` attaches what the config says to the
# memcgs as they are now (pair/getscan-NAME and pair/ripgrep-NAME), and
# both start together.
#
# Usage: app_pair.sh --out DIR --data TAR --tree TAR [--name NAME]
#        [--config FILE] [--seconds S] [--warmup S] [--searches N]
# Writes DIR/getscan/getscan.csv and DIR/ripgrep/ripgrep.csv (their
# workloads' columns, arm NAME, default "pair"), and DIR/status.txt:
# mglructl status at the end (the policies' calls and answers), when a
# config was applied.
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
ctl=$repo/build/bin/mglructl
out=
data=
tree=
config=
name=pair
seconds=30
warmup=20
searches=10
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--data) data=$2 ;;
	--tree) tree=$2 ;;
	--config) config=$2 ;;
	--name) name=$2 ;;
	--seconds) seconds=$2 ;;
	--warmup) warmup=$2 ;;
	--searches) searches=$2 ;;
	*) echo "app_pair: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] && [ -n "$data" ] && [ -n "$tree" ] ||
	{ echo "app_pair: --out DIR, --data TAR and --tree TAR are required" >&2; exit 2; }
[ -z "$config" ] || "$ctl" apply --config "$config" --check >/dev/null || exit 2
mkdir -p "$out"
parent=/sys/fs/cgroup/pair
rm -f "$out/go" "$out"/*.ready
[ -d $parent ] || mkdir $parent || exit 1

"$repo/selftests/workloads/rocksdb_getscan.sh" --out "$out/getscan" --data "$data" \
	--arm "$name=stock" --seconds "$seconds" --warmup "$warmup" --cgroups $parent \
	--ready "$out/getscan.ready" --go "$out/go" &
getscan=$!
"$repo/selftests/workloads/ripgrep_search.sh" --out "$out/ripgrep" --tree "$tree" \
	--arm "$name=stock" --searches "$searches" --cgroups $parent \
	--ready "$out/ripgrep.ready" --go "$out/go" &
ripgrep=$!

# both set up, or one of them failed
while [ ! -e "$out/getscan.ready" ] || [ ! -e "$out/ripgrep.ready" ]; do
	kill -0 $getscan 2>/dev/null && kill -0 $ripgrep 2>/dev/null ||
		{ echo "app_pair: a workload failed before it started" >&2; kill $getscan $ripgrep 2>/dev/null; exit 1; }
	sleep 0.2
done
if [ -n "$config" ]; then
	"$ctl" apply --config "$config" >"$out/apply.txt" || { kill $getscan $ripgrep; exit 1; }
fi
: >"$out/go"
rc=0
wait $getscan || rc=1
wait $ripgrep || rc=1
if [ -n "$config" ]; then
	"$ctl" status >"$out/status.txt" 2>&1
	# a config that names nothing detaches what the last apply attached
	: >"$out/empty.conf"
	"$ctl" apply --config "$out/empty.conf" >/dev/null || rc=1
fi
. "$repo/selftests/lib/arms.sh"
arm_remove "$parent/getscan-$name" && arm_remove "$parent/ripgrep-$name" && rmdir $parent || rc=1
exit $rc
