#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# madv_random_thrash (seed 001, baseline-stock-6.12.md): fio readers of a
# "vec" file through an MADV_RANDOM mapping in a memcg, and partway through
# a cold file read twice through a normal mapping. On stock 6.12 MGLRU the
# readers never recover: their refaults land in the oldest generation, which
# is evicted and refilled at once, while the cold file stays cached.
#
# Runs in the guest. Each --arm NAME=POLICY gets its own sibling memcg, its
# own files and its own fio, all at once; POLICY is a shipped policy, a
# .bpf.o, "stock" (no policy) or "classic" (lru_gen disabled: only valid
# alone, it is global).
#
# Usage: madv_random_thrash.sh --out DIR [--arm NAME=POLICY]... [--duration S]
#        [--cold-at S] [--memcg-mb MB] [--vec-mb MB] [--cold-mb MB] [--jobs N]
#        [--set KNOB=VALUE]...
# Writes DIR/NAME.csv: t,iops,majflt_s,refault_s,activate_s,vec_mb,cold_mb
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
ctl=$repo/build/bin/mglructl
scratch=${MGLRU_SCRATCH:-/run/scratch}

out=
arms=()
sets=()
duration=120
cold_at=40
memcg_mb=256
vec_mb=200
cold_mb=120
jobs=2
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2 ;;
	--arm) arms+=("$2") ;;
	--set) sets+=(--set "$2") ;;
	--duration) duration=$2 ;;
	--cold-at) cold_at=$2 ;;
	--memcg-mb) memcg_mb=$2 ;;
	--vec-mb) vec_mb=$2 ;;
	--cold-mb) cold_mb=$2 ;;
	--jobs) jobs=$2 ;;
	*) echo "madv_random_thrash: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -n "$out" ] || { echo "madv_random_thrash: --out DIR is required" >&2; exit 2; }
[ ${#arms[@]} -gt 0 ] || arms=(stock=stock)
mkdir -p "$out"

memstat() { awk -v k="$2" '$1 == k { print $2 }' "$1/memory.stat"; }
cached_mb() { fincore -nb -o RES "$1" | awk '{ print int($1 / 1048576) }'; }

echo y >/sys/kernel/mm/lru_gen/enabled
pids=()
for arm in "${arms[@]}"; do
	name=${arm%%=*}
	policy=${arm#*=}
	vec=$scratch/vec-$name.bin
	cold=$scratch/cold-$name.bin
	[ -f "$vec" ] || dd if=/dev/zero of="$vec" bs=1M count="$vec_mb" status=none
	[ -f "$cold" ] || dd if=/dev/zero of="$cold" bs=1M count="$cold_mb" status=none
	cg=/sys/fs/cgroup/thrash-$name
	mkdir -p "$cg"
	echo $((memcg_mb << 20)) >"$cg/memory.max"
	echo 0 >"$cg/memory.swap.max"
	case $policy in
	stock) ;;
	classic) echo n >/sys/kernel/mm/lru_gen/enabled ;;
	*) "$ctl" load "$policy" --cgroup "$cg" "${sets[@]}" >/dev/null || exit 1 ;;
	esac
done
sync
echo 3 >/proc/sys/vm/drop_caches
# Fault the vec file in with one sequential read inside its memcg: under
# TCG a 4 KiB major fault costs about a millisecond, and the random
# readers alone would take minutes to bring their working set in. The
# pages land where the readers' own faults would put them: in the oldest
# generation, which MADV_RANDOM accesses never lift out of.
for arm in "${arms[@]}"; do
	name=${arm%%=*}
	sh -c 'echo $$ >"$0/cgroup.procs"; exec cat "$1"' "/sys/fs/cgroup/thrash-$name" \
		"$scratch/vec-$name.bin" >/dev/null
done

for arm in "${arms[@]}"; do
	name=${arm%%=*}
	cg=/sys/fs/cgroup/thrash-$name
	rm -f "$out/$name"_iops.*.log
	# fio: MADV_RANDOM (fadvise_hint=1) mmap readers, zipf like a vector
	# index; invalidate=0 keeps the warmed page cache
	sh -c 'echo $$ >"$0/cgroup.procs"; exec "$@"' "$cg" \
		fio --name=vec --filename="$scratch/vec-$name.bin" --ioengine=mmap --rw=randread \
		--bs=4k --fadvise_hint=1 --random_distribution=zipf:0.8 --numjobs="$jobs" \
		--invalidate=0 \
		--time_based --runtime="$duration" --write_iops_log="$out/$name" \
		--log_avg_msec=5000 --output=/dev/null &
	pids+=($!)
	(
		sleep "$cold_at"
		sh -c 'echo $$ >"$0/cgroup.procs"; exec "$@"' "$cg" \
			fio --name=cold --filename="$scratch/cold-$name.bin" --ioengine=mmap \
			--rw=read --bs=4k --fadvise_hint=0 --loops=2 --output=/dev/null
	) &
	pids+=($!)
done

# Sample the memcgs about every 5 s of real time while fio runs. Under TCG
# a round of sampling itself takes a while, so each sample is labelled
# with the real time it was taken at (to the 5 s grid fio's IOPS log uses)
# and rates divide by the real time since the previous one.
declare -A prev
for arm in "${arms[@]}"; do
	name=${arm%%=*}
	echo "t,majflt_s,refault_s,activate_s,vec_mb,cold_mb" >"$out/$name.mem.csv"
done
start=$SECONDS
last=0
while :; do
	next=$(((($SECONDS - start) / 5 + 1) * 5))
	[ $next -lt "$duration" ] || break
	while [ $((SECONDS - start)) -lt $next ]; do sleep 0.2; done
	now=$((SECONDS - start))
	dt=$((now - last))
	last=$now
	progress=
	for arm in "${arms[@]}"; do
		name=${arm%%=*}
		cg=/sys/fs/cgroup/thrash-$name
		m=$(memstat "$cg" pgmajfault)
		r=$(memstat "$cg" workingset_refault_file)
		a=$(memstat "$cg" workingset_activate_file)
		vec_mb=$(cached_mb "$scratch/vec-$name.bin")
		cold_mb=$(cached_mb "$scratch/cold-$name.bin")
		echo "$next,$(((m - ${prev[$name.m]:-0}) / dt)),$(((r - ${prev[$name.r]:-0}) / dt)),$(((a - ${prev[$name.a]:-0}) / dt)),$vec_mb,$cold_mb" >>"$out/$name.mem.csv"
		progress+="; $name: $(((m - ${prev[$name.m]:-0}) / dt)) major faults/s, vec $vec_mb MiB, cold $cold_mb MiB cached"
		prev[$name.m]=$m
		prev[$name.r]=$r
		prev[$name.a]=$a
	done
	# the generations of each memcg, for the record
	{ echo "t=$next"; cat /sys/kernel/debug/lru_gen; } >>"$out/lru_gen.txt"
	echo "madv_random_thrash: t=${next}s of ${duration}s$progress" >&2
done
# what each policy decided
"$ctl" status --json >"$out/policies.json" 2>/dev/null
wait "${pids[@]}"

# Join fio's per-5 s IOPS (summed over jobs) with the memcg samples.
for arm in "${arms[@]}"; do
	name=${arm%%=*}
	python3 - "$out" "$name" <<'PY'
import csv, glob, sys
out, name = sys.argv[1], sys.argv[2]
iops = {}
for path in glob.glob(f"{out}/{name}_iops.*.log"):
    for row in csv.reader(open(path)):
        t = (int(row[0]) + 2500) // 5000 * 5
        iops[t] = iops.get(t, 0) + int(row[1])
rows = list(csv.DictReader(open(f"{out}/{name}.mem.csv")))
with open(f"{out}/{name}.csv", "w") as f:
    f.write("t,iops,majflt_s,refault_s,activate_s,vec_mb,cold_mb\n")
    for r in rows:
        t = int(r["t"])
        f.write(f"{t},{iops.get(t, 0)},{r['majflt_s']},{r['refault_s']},{r['activate_s']},{r['vec_mb']},{r['cold_mb']}\n")
PY
	cg=/sys/fs/cgroup/thrash-$name
	echo "$name,$(memevent_oom=$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events"); echo "$memevent_oom")" >>"$out/oom_kills.csv"
	"$ctl" unload --cgroup "$cg" >/dev/null 2>&1
	rmdir "$cg" 2>/dev/null
done
echo y >/sys/kernel/mm/lru_gen/enabled
