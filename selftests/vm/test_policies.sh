#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Each shipped policy against stock MGLRU on a scaled-down version of its
# seed's workload, in the same boot: the raw figures are printed, and the
# direction of the effect the policy claims is asserted with a margin.
# Runs on the instruction-clocked bed (`make check-policies`, on the
# benchmark kernel), so a workload's figures are those of `make bench`.
# Not in `make check`: it takes longer than make check's budget allows.
. "$(dirname "$0")/lib.sh"

workloads=$repo/selftests/workloads
out=/run/tmp/policies
rm -rf $out
mkdir -p $out

tap_begin
unload_all

# csv_field FILE ARM COLUMN: one value of a workload's CSV
csv_field() {
	python3 - "$@" <<'PY'
import csv, sys
path, arm, col = sys.argv[1:]
for row in csv.DictReader(open(path)):
    if row["arm"] == arm:
        print(row[col])
        break
PY
}

# 1. isolation_throttle (seed 003): 192 threads write-touching 48 MiB in a
# 24 MiB memcg (at 16 MiB their kernel stacks and page tables leave too
# little for the classic LRU too), swap on dm-delay. Stock MGLRU piles up
# isolated folios and OOM-kills; the throttle keeps the work going.
"$workloads/isolation_pileup.sh" --out $out/pileup192 --threads 192 --memcg-mb 24 --seconds 20 \
	--arm stock=stock --arm isolation_throttle=isolation_throttle | sed 's/^/# /'
f=$out/pileup192/pileup.csv
s_oom=$(csv_field $f stock oom_kill)
p_oom=$(csv_field $f isolation_throttle oom_kill)
p_touch=$(csv_field $f isolation_throttle touches)
p_thr=$(csv_field $f isolation_throttle throttles)
[ "${s_oom:-0}" -gt 0 ]
tap_ok $? "192 threads: stock MGLRU OOM-kills ($s_oom kills, the seed 003 problem)"
[ "$p_oom" = 0 ] && [ "${p_touch:-0}" -gt 0 ] && [ "${p_thr:-0}" -gt 0 ]
tap_ok $? "192 threads: isolation_throttle completes with no OOM kill ($p_touch touches, $p_thr throttles)"

"$workloads/isolation_pileup.sh" --out $out/pileup64 --threads 64 --seconds 20 \
	--arm stock=stock --arm isolation_throttle=isolation_throttle | sed 's/^/# /'
f=$out/pileup64/pileup.csv
s_touch=$(csv_field $f stock touches)
p_touch=$(csv_field $f isolation_throttle touches)
[ "$(csv_field $f isolation_throttle oom_kill)" = 0 ] &&
	[ "${p_touch:-0}" -ge $((${s_touch:-0} * 8 / 10)) ]
tap_ok $? "64 threads: no loss of work (isolation_throttle $p_touch touches, stock $s_touch; margin 20%)"

# 2. budget (seed 000): mmap file readers that pause plus anon churn above
# the memcg limit, no swap; stock and budget side by side. No OOM kill under
# budget, the work done no less, and it ages (on 7.3 its loop is stock's;
# on 6.12 it goes on after aging where stock ends the pass).
"$workloads/file_anon_mix.sh" --out $out/mix --seconds 40 \
	--arm stock=stock --arm budget=budget | sed 's/^/# /'
f=$out/mix/mix.csv
p_age=$(csv_field $f budget agings)
s_it=$(($(csv_field $f stock file_batches) + $(csv_field $f stock anon_iterations)))
p_it=$(($(csv_field $f budget file_batches) + $(csv_field $f budget anon_iterations)))
[ "$(csv_field $f budget oom_kill)" = 0 ]
tap_ok $? "file_anon_mix: no OOM kill under budget (stock: $(csv_field $f stock oom_kill))"
[ "${p_age:-0}" -gt 0 ]
tap_ok $? "file_anon_mix: budget's memcg ages ($p_age generations; stock $(csv_field $f stock agings))"
[ "$p_it" -ge $((s_it * 9 / 10)) ]
tap_ok $? "file_anon_mix: no fewer iterations (budget $p_it, stock $s_it; margin 10%)"

# 3. thrash_aging (seed 001): MADV_RANDOM readers and a cold file read at
# t=15 (virtual s on the bed). Stock MGLRU and thrash_aging side by side in
# sibling memcgs: stock never gets back to 70% of its pre-read rate;
# thrash_aging does, evicts at least half of the cold file, and no process
# of its memcg is OOM-killed. Then the classic LRU alone (a global switch)
# and thrash_aging alone: the policy must be back no later than classic.
thrash=$out/thrash
"$workloads/madv_random_thrash.sh" --out $thrash/side --arm stock=stock \
	--arm thrash_aging=thrash_aging 2>/dev/null | sed 's/^/# /'
"$workloads/madv_random_thrash.sh" --out $thrash/alone --arm classic=classic \
	2>/dev/null | sed 's/^/# /'
"$workloads/madv_random_thrash.sh" --out $thrash/alone --arm thrash_aging_alone=thrash_aging \
	2>/dev/null | sed 's/^/# /'
python3 "$repo/bench/summarize_thrash.py" 15 $thrash/thrash.png $thrash/side $thrash/alone |
	sed 's/^/# /'
# thrash_field DIR ARM FIELD: recover (seconds, -1: never), cold_mb, oom_kill
thrash_field() {
	python3 - "$@" "$repo/bench" <<'PY2'
import os, sys
d, arm, field, bench = sys.argv[1:]
sys.path.insert(0, bench)
import summarize_thrash as st
if field == "oom_kill":
    print(st.result(os.path.join(d, arm + ".result")).get("oom_kill", -1))
else:
    v = st.summarize(st.load(os.path.join(d, arm + ".csv")), 15)[field]
    print(-1 if v is None else int(v))
PY2
}
s_rec=$(thrash_field $thrash/side stock recover)
p_rec=$(thrash_field $thrash/side thrash_aging recover)
p_cold=$(thrash_field $thrash/side thrash_aging cold_mb)
p_oom=$(thrash_field $thrash/side thrash_aging oom_kill)
c_rec=$(thrash_field $thrash/alone classic recover)
a_rec=$(thrash_field $thrash/alone thrash_aging_alone recover)
a_oom=$(thrash_field $thrash/alone thrash_aging_alone oom_kill)
[ "$s_rec" = -1 ]
tap_ok $? "madv_random_thrash: stock MGLRU never gets back to 70% (recover=$s_rec, the seed 001 problem)"
[ "$p_rec" -ge 0 ] && [ "$p_oom" = 0 ]
tap_ok $? "madv_random_thrash: thrash_aging side by side with stock gets back to 70% ($p_rec s after the cold read), no OOM kill ($p_oom)"
[ "$p_cold" -le 30 ]
tap_ok $? "madv_random_thrash: thrash_aging evicts at least half of the 60 MiB cold file ($p_cold MiB cached at the end)"
# classic never back (-1) within the run is slower than any recovery
[ "$a_rec" -ge 0 ] && [ "$a_oom" = 0 ] && { [ "$c_rec" -lt 0 ] || [ "$a_rec" -le "$c_rec" ]; }
tap_ok $? "madv_random_thrash: thrash_aging alone is back no later than the classic LRU alone (thrash_aging $a_rec s, classic $c_rec s; -1: never), no OOM kill ($a_oom)"

# 4. swappiness (seed 004): anon writes and pread()s of a file in lockstep,
# at the report's swappiness values; stock MGLRU's share does not move with
# swappiness. With both types refaulting the policy's anon share follows
# swappiness/200 (within 0.05, rising); with a file that never refaults it
# stays below that line, as the classic LRU's does.
for order in random sequential; do
	"$workloads/swappiness_sweep.sh" --out $out/swappiness-$order --file-order $order \
		--values "35 70 105 140 175" --arm stock=stock --arm swappiness=swappiness \
		2>/dev/null | sed 's/^/# /'
done
# share ORDER ARM SWAPPINESS: anon share of reclaim in per mille
share() {
	awk -F, -v a="$2" -v s="$3" '$1 == a && $3 == s { printf "%d", $9 * 1000 }' \
		$out/swappiness-$1/swappiness.csv
}
s70=$(share random stock 70)
s175=$(share random stock 175)
[ -n "$s70" ] && [ -n "$s175" ] && [ $((s175 - s70)) -le 20 ]
tap_ok $? "swappiness_sweep: stock MGLRU's anon share does not follow swappiness ($s70/1000 at 70, $s175/1000 at 175: the seed 004 problem)"
prev=-1 ok=0 shares=
for v in 35 70 105 140 175; do
	p=$(share random swappiness $v)
	shares="$shares $v: ${p:-none}"
	want=$((v * 5))
	[ -n "$p" ] && [ "$p" -gt "$prev" ] && [ $((p - want)) -le 50 ] && [ $((want - p)) -le 50 ] || ok=1
	prev=${p:-1000}
done
tap_ok $ok "swappiness_sweep, both types refaulting: the policy's share rises and stays within 0.05 of swappiness/200 (per mille,$shares)"
ok=0 shares=
for v in 35 70 105 140 175; do
	p=$(share sequential swappiness $v)
	shares="$shares $v: ${p:-none}"
	[ -n "$p" ] && [ "$p" -lt $((v * 5)) ] || ok=1
done
tap_ok $ok "swappiness_sweep, only anon refaulting: the policy's share stays below swappiness/200 (per mille,$shares)"

tap_end
