#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: every policy against stock MGLRU on the workload of its seed,
# measured side by side in one run, plus the framework's own overhead and
# the iteration speed it buys. Prints ratios; passes or fails on nothing.
# Every guest runs on the instruction-clocked bed (docs/bed.md), so every
# duration and rate it prints is in virtual time.
# Output: build/bench/BASE/<workload>/ (CSV, console log), PNG plots, and
# one section per workload in docs/results.md: NAME for the primary base
# (7.3), NAME-BASE for another (pileup-6.12), so that a workload measured
# on both bases has both sections.
#
# Usage: bench.sh [--report] [WORKLOAD...]   (default: all of thrash pileup
#        build swappiness mix oom db dbslow pgbench combined overhead hooks place
#        bed iteration; getscan, ripgrep and pair, the applications, only when named)
# --report writes the sections of the named workloads (all but hooks and
# iteration) again from the last run's data under build/bench/BASE,
# without running anything.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
# BASE: the kernel base the benchmark kernels are of (7.3, or 6.12)
base=${BASE:-7.3}
out=$repo/build/bench/$base
# the section names of this base's results (see above)
suffix=
[ "$base" = 7.3 ] || suffix=-$base
patched=$repo/build/kernel/$base/bench/arch/x86/boot/bzImage
stock=$repo/build/kernel/$base/stock/arch/x86/boot/bzImage
mkdir -p "$out"
results=$repo/docs/results.md
report_only=0
if [ "${1:-}" = --report ]; then
	report_only=1
	shift
fi
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(thrash pileup build swappiness mix oom db dbslow pgbench combined overhead hooks place bed iteration)

vm() { # KERNEL RESULTS_DIR CMD...: the guest's wall seconds go to DIR/wall;
	# BENCH_TIMEOUT (wall s, default 5400) for hosts running more guests than cores
	local kernel=$1 dir=$2 start=$SECONDS rc
	shift 2
	rm -rf "$dir"
	mkdir -p "$dir"
	"$repo/selftests/vm-run.sh" --quiet --kernel "$kernel" --results "$dir" \
		--mem 1536M --timeout "${BENCH_TIMEOUT:-5400}" --clock instructions -- "$@"
	rc=$?
	echo $((SECONDS - start)) >"$dir/wall"
	# a guest cut short leaves fewer runs than its section says it has
	[ $rc = 0 ] || echo "bench: the guest of $dir failed (exit status $rc, 124 when BENCH_TIMEOUT=${BENCH_TIMEOUT:-5400} wall s ran out): its section has only the runs it finished" >&2
	return $rc
}

# Where a section was measured: the date, the kernels and the bed.
qemu_version=$(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')
# a kernel's release, once its image is built (a configured tree has one)
release() {
	[ -f "$repo/build/kernel/$1/arch/x86/boot/bzImage" ] &&
		cat "$repo/build/kernel/$1/include/config/kernel.release" 2>/dev/null || echo "not built"
}
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo "?")
# a tree with uncommitted changes is not the commit: say so (results.md
# aside: an earlier workload of the same run writes its section there)
dirty=
[ -z "$(git -C "$repo" status --porcelain --untracked-files=no -- . ':!docs/results.md' 2>/dev/null)" ] ||
	dirty=" (tree dirty)"
set_where() { # VCPUS: the line each section of this run starts with
	where="measured $(date -u +%Y-%m-%d) at $commit$dirty:"
	where+=" bench kernel $(release "$base/bench") (patched), stock kernel $(release "$base/stock") (unpatched);"
	where+=" QEMU $qemu_version TCG, instruction clock (shift ${VM_ICOUNT_SHIFT:-0}), $1 vCPU, 1536 MiB; host $(nproc) cores"
}

# The vCPUs of a workload's guests: 4 where the seed's phenomenon is
# reclaimers running at once (seed 003's pile-up and build, seed 000's
# aging beside another CPU's reclaim, and what combines them), 1 where
# one reclaimer at a time is the shape. VM_SMP given to make bench sets
# every workload's; the bed bench runs its own counts.
smp_given=${VM_SMP:-}
smp_for() { # WORKLOAD
	case $1 in
	pileup | build | mix | oom | combined | db | dbslow | pgbench) echo "${smp_given:-4}" ;;
	*) echo "${smp_given:-1}" ;;
	esac
}

# section NAME [WHERE]: stdin to stdout, and into NAME's section of this
# base in the results file, saying where it was measured (default: this
# run) and how many minutes of wall time the workload took, and recording
# its inputs for make results-check (bench/inputs.sh)
inputs_of() { # NAME
	echo "base=$base hash=$(BASE=$base "$repo/bench/inputs.sh" --hash "$1") commit=$commit${dirty:+-dirty}"
}
section() {
	local text wall=$out/$1/workload_wall
	text=$(cat)
	# a base other than the primary one says so in its heading
	[ -z "$suffix" ] || text=$(sed "0,/^## /s/^## .*/& (on $base)/" <<<"$text")
	echo "$text"
	# what the workload took, from its start in main(); a report of an
	# earlier run says that run's
	[ $report_only = 1 ] || { mkdir -p "$out/$1" && echo $((SECONDS - workload_start)) >"$wall"; }
	# a report of an earlier run records that run's inputs
	echo "$text" | python3 "$repo/bench/results.py" "$results" "$1$suffix" \
		"${2:-$where}$([ -r "$wall" ] && echo "; $((($(cat "$wall") + 30) / 60)) min wall")" \
		"$(cat "$out/$1/inputs" 2>/dev/null || inputs_of "$1")"
}

bench_thrash() {
	local d=$out/thrash reps=${THRASH_REPS:-3} cold_at=15 duration=45
	if [ $report_only = 0 ]; then
		echo "bench: madv_random_thrash, $reps runs each: stock and thrash_aging side by side; classic LRU and thrash_aging alone"
		# Two guests, one per core. One runs stock and thrash_aging side
		# by side in sibling memcgs; the classic LRU is a global switch,
		# so the other runs it alone, and thrash_aging alone after it as
		# the like-for-like comparison (side by side, the arms share the
		# one vCPU), and the classic LRU beside a classic neighbour: the
		# comparison for the side-by-side arms, with the same CPU share.
		vm "$patched" "$d/side" bench/guest/runs.sh "$reps" selftests/workloads/madv_random_thrash.sh \
			--duration $duration --cold-at $cold_at -- stock=stock thrash_aging=thrash_aging &
		vm "$patched" "$d/alone" bench/guest/thrash_alone.sh "$reps" $duration $cold_at
		wait
		echo "$where" >"$d/where"
		inputs_of "$(basename "$d")" >"$d/inputs"
	fi
	{
		echo "## madv_random_thrash (seed 001): MADV_RANDOM readers after a cold file read"
		echo
		echo "Per arm a 128 MiB memcg without swap: 2 readers of a 100 MiB file through an MADV_RANDOM"
		echo "mapping (zipf 0.8 page choice, the file read once in order first), and at t=$cold_at s a 60 MiB"
		echo "cold file read twice through a normal mapping (thrash_load; both files random bytes on the"
		echo "zram scratch disk), sampled every 250 virtual ms. \"back to 70%\": seconds from the cold read to"
		echo "the first sample after the drop from which the readers keep at least 70% of their rate over"
		echo "the 10 s before the cold read for a whole second. stock and thrash_aging ran side by side (one"
		echo "vCPU shared by both arms); classic and thrash_aging_alone each alone, one after the other in a"
		echo "second guest, then classic_side beside classic_neighbour (both classic LRU, side by side: the"
		echo "classic LRU with the CPU share the side-by-side arms have); $reps runs each (the table counts"
		echo "each arm's runs), each run a fresh pair of memcgs in the same boot."
		echo
		python3 "$repo/bench/summarize_thrash.py" --compare thrash_aging/classic_side+classic_neighbour \
			--compare thrash_aging_alone/classic "$cold_at" "$d/thrash.png" "$d"/side/[0-9]* \
			"$d"/alone/[0-9]* "$d"/alone/pair[0-9]*
		echo
	} | section thrash "$(cat "$d/where" 2>/dev/null || echo "$where")"
}

# isolation_pileup's shapes, THREADS:MEMCG_MB: the seed's proportions
# (192 threads touching 48 MiB in 16 MiB), the same threads with the room
# their kernel stacks and page tables take (24 MiB), and the seed's
# throughput shape (64 threads in 16 MiB)
pileup_shapes=(192:16 192:24 64:16)
pileup_columns=(--column "touches:touches:+" --column throttles:throttles
	--column pgscan:pgscan --column pgsteal:pgsteal)

bench_pileup() {
	local d=$out/pileup reps=${PILEUP_REPS:-5} shape shapes=${PILEUP_SHAPES:-${pileup_shapes[*]}}
	if [ $report_only = 0 ]; then
		echo "bench: isolation_pileup, $reps runs each of stock, isolation_throttle, combined and the classic LRU, shapes $shapes"
		# One guest per shape; the arms one after the other (they share
		# the swap device).
		for shape in $shapes; do
			vm "$patched" "$d/$shape" bench/guest/runs.sh "$reps" selftests/workloads/isolation_pileup.sh \
				--threads "${shape%:*}" --memcg-mb "${shape#*:}" --seconds 20 -- stock=stock \
				isolation_throttle=isolation_throttle combined=combined classic=classic &
		done
		wait
		echo "$where" >"$d/where"
		inputs_of "$(basename "$d")" >"$d/inputs"
	fi
	{
		echo "## isolation_pileup (seed 003): anon write-touchers in a small memcg, swap on dm-delay"
		echo
		echo "N threads write-touching random pages of a 48 MiB buffer for 20 virtual s, swap on dm-delay"
		echo "(50 ms) over zram in the guest; stock, isolation_throttle, combined (which contains it) and the"
		echo "classic LRU one after the other in each run, $reps runs, one guest per shape. The seed (10 vCPUs): at 192 threads stock"
		echo "MGLRU is OOM-killed and the classic LRU survives; at 64 threads isolation_throttle touches"
		echo "22% more than stock in the same time. 192 threads in 24 MiB: the 192 threads' kernel stacks,"
		echo "page tables and slab take about 5 MiB of the memcg. Touches are the work done; an OOM kill"
		echo "ends the process before it reports, so a killed run counts 0."
		echo
		for shape in $shapes; do
			echo "### ${shape%:*} threads in ${shape#*:} MiB"
			echo
			python3 "$repo/bench/summarize_arms.py" "${pileup_columns[@]}" \
				--compare isolation_throttle/stock --compare combined/stock --compare classic/stock \
				--compare combined/isolation_throttle "$d/$shape"/[0-9]*/pileup.csv
			echo
		done
	} | section pileup "$(cat "$d/where" 2>/dev/null || echo "$where")"
}

bench_swappiness() {
	local d=$out/swappiness arms=(--arm stock=stock --arm swappiness=swappiness --arm classic=classic)
	if [ $report_only = 0 ]; then
		echo "bench: swappiness_sweep, stock, the swappiness policy, then classic LRU; both file orders at once"
		# Two guests, one per file order (swappiness is global to a guest).
		vm "$patched" "$d/random" selftests/workloads/swappiness_sweep.sh --out /run/results \
			--file-order random "${arms[@]}" --reps 3 &
		vm "$patched" "$d/sequential" selftests/workloads/swappiness_sweep.sh --out /run/results \
			--file-order sequential "${arms[@]}" --reps 3
		wait
		echo "$where" >"$d/where"
		inputs_of "$(basename "$d")" >"$d/inputs"
	fi
	{
		echo "## swappiness_sweep (seed 004): anon share of reclaimed pages"
		echo
		echo "A 64 MiB memcg with zram swap; 60,000 lockstep steps, each one write to a random page of a"
		echo "48 MiB anon buffer and one 4 KiB pread() of a file (a 48 MiB file at random pages, or a"
		echo "235 MiB file front to back), at swappiness 35, 70, 105, 140 and 175 (the report's values);"
		echo "the arms one after the other in one guest per file order, 3 runs each; pswpout and pswpin"
		echo "are the guest's over the run. The target (issue 28): with both types refaulting, the"
		echo "swappiness policy's share rises with swappiness and lies within 0.05 of swappiness/200;"
		echo "with only anon refaulting it stays below that line, as the classic LRU's does."
		echo
		python3 "$repo/bench/summarize_swappiness.py" "$d/random/swappiness.csv" "$d/sequential/swappiness.csv"
		echo "Seed 004's own numbers (20 CPUs, zram, its script at swappiness 35, 70, 105, 140, 175):"
		echo "pswpout 4.84, 5.35, 4.91, 5.03, 4.79 M with the budgeted loop (7.3's), against 3.33, 3.45,"
		echo "3.55, 3.76, 4.06 M before it: flat where it used to rise."
		echo
	} | section swappiness "$(cat "$d/where" 2>/dev/null || echo "$where")"
}

# The columns of file_anon_mix's table (summarize_arms.py specs)
mix_columns=(--column "file_batches:file batches:+" --column "anon_iterations:anon iterations:+"
	--column "refault_file:file refaults:-" --column "max_events:limit hits:-"
	--column "psi_full_us:PSI full (ms):-" --column "reclaims:reclaim calls"
	--column "empty_reclaims:of them empty:-" --column "agings:agings"
	--column pgscan:pgscan --column pgsteal:pgsteal)

bench_mix() {
	local d=$out/mix reps=${MIX_REPS:-3}
	if [ $report_only = 0 ]; then
		echo "bench: file_anon_mix, $reps runs each: stock and budget side by side; classic LRU beside classic"
		# the arms start in another order each run: the first one
		# started gets its threads going first
		vm "$patched" "$d/side" bench/guest/runs.sh --rotate 1 "$reps" \
			selftests/workloads/file_anon_mix.sh --seconds 40 -- stock=stock budget=budget &
		vm "$patched" "$d/classic" bench/guest/runs.sh "$reps" selftests/workloads/file_anon_mix.sh \
			--seconds 40 -- classic=classic classic_neighbour=classic
		wait
		echo "$where" >"$d/where"
		inputs_of "$(basename "$d")" >"$d/inputs"
	fi
	{
		echo "## file_anon_mix (seed 000): mmap file readers that pause, anon workers above the limit, no swap"
		echo
		echo "Per arm a 208 MiB memcg without swap: 16 readers of a 36 MiB file through mmap, 256 pages a"
		echo "batch and a 100-300 ms pause after each, and 16 workers mapping, touching and unmapping 12 MiB"
		echo "each (anon 92% of the limit and file 17%, the seed's proportions), for 40 virtual s. stock and"
		echo "budget side by side in one guest, started in another order each run; in another the"
		echo "classic LRU beside a classic neighbour (the"
		echo "same workload, so that it has the CPU share the side-by-side arms have); $reps runs each. Limit"
		echo "hits: memory.events max; PSI full: memory.pressure full total. From the kernel's trace, by"
		echo "the arm's threads: memcg reclaim calls and those that reclaimed nothing (empty); agings: the"
		echo "generations the memcg's MGLRU gained (max_seq, from debugfs's lru_gen)."
		if [ "$base" = 6.12 ]; then
			echo "On 6.12 stock ends its pass after every aging, budget only after a failed one; on 7.3"
			echo "aging ends no memcg pass."
		fi
		echo
		python3 "$repo/bench/summarize_arms.py" "${mix_columns[@]}" --compare budget/stock \
			"$d"/side/[0-9]*/mix.csv "$d"/classic/[0-9]*/mix.csv
		echo
	} | section mix "$(cat "$d/where" 2>/dev/null || echo "$where")"
}

# Seed 000's OOM: shapes of file_anon_mix for one where stock MGLRU is
# OOM-killed and the classic LRU is not, as MEMCG_MB:FILE_MB:ANON_WORKERS:
# ANON_KB (KiB each worker holds): the seed's proportions (anon 92% of the
# limit, file 17%), and anon at 98% of it.
oom_shapes=(208:36:16:12288 208:36:16:13056)
oom_columns=(--column "anon_iterations:anon iterations:+" --column "file_batches:file batches:+"
	--column "refault_file:file refaults:-" --column "max_events:limit hits:-"
	--column "empty_reclaims:empty reclaim calls:-" --column "agings:agings")

bench_oom() {
	local d=$out/oom reps=${OOM_REPS:-3} shape shapes=${OOM_SHAPES:-${oom_shapes[*]}}
	if [ $report_only = 0 ]; then
		echo "bench: file_anon_mix shapes for seed 000's OOM, $reps runs each: stock and budget side by side; classic LRU beside classic"
		for guest in side classic; do
			local arms="stock=stock budget=budget"
			[ $guest = classic ] && arms="classic=classic classic_neighbour=classic"
			vm "$patched" "$d/$guest" bench/guest/oom_shapes.sh "$reps" "$shapes" $arms &
		done
		wait
		echo "$where" >"$d/where"
		inputs_of "$(basename "$d")" >"$d/inputs"
	fi
	{
		echo "## file_anon_mix shapes (seed 000): where does stock MGLRU OOM?"
		echo
		echo "The seed's reproducer (48-96 CPUs) OOM-kills stock MGLRU before the budgeted loop (7.3's)"
		echo "after 10-20 iterations, while the classic LRU and the budgeted loop finish 128. Each shape"
		echo "below: N file readers (mmap, 256 pages a batch, a 100-300 ms pause after each) and N anon"
		echo "workers mapping, touching and unmapping their buffers, in a memcg without swap, 30 virtual s;"
		echo "stock and budget side by side in one guest, started in another order each run, in another"
		echo "the classic LRU beside a classic neighbour; $reps runs. Empty reclaim calls: memcg reclaim"
		echo "calls by the arm's threads that reclaimed nothing; agings: the generations the memcg's MGLRU"
		if [ "$base" = 6.12 ]; then
			echo "gained (on 6.12 each aging ends stock's pass; budget's only when it fails)."
		else
			echo "gained (on 7.3 aging ends no memcg pass, stock's or budget's)."
		fi
		echo
		for shape in $shapes; do
			IFS=: read -r memcg file workers kb <<<"$shape"
			echo "### $memcg MiB memcg, file $((100 * file / memcg))% of it, $workers anon workers holding $((100 * workers * kb / 1024 / memcg))%"
			echo
			python3 "$repo/bench/summarize_arms.py" "${oom_columns[@]}" --compare budget/stock \
				"$d"/side/"$shape"/[0-9]*/mix.csv "$d"/classic/"$shape"/[0-9]*/mix.csv
			echo
		done
	} | section oom "$(cat "$d/where" 2>/dev/null || echo "$where")"
}

# db_readmostly's columns and its database (built on the host, once)
db_columns=(--column "tps:transactions/s:+:1" --column "lat_avg_ms:latency avg (ms):-:1"
	--column "lat_p99_ms:latency p99 (ms):-:1" --column "pgpgin_kib:pgpgin (KiB):-"
	--column "refault_file:file refaults:-" --column "dirty_met:dirty met"
	--column "rotated:rotated" --column "max_events:limit hits:-"
	--column "psi_full_us:PSI full (ms):-" --column pgscan:pgscan --column pgsteal:pgsteal)
db_data=$repo/build/db/sbtest.tar

# db_workload NAME DELAY: seed 000's database in NAME's section, its data
# on the scratch disk (DELAY 0) or on a disk whose writes are DELAY ms
# late; DB_ARMS (default stock and budget) and DB_REPS (default 5)
db_workload() {
	local name=$1 delay=$2 d=$out/$1 reps=${DB_REPS:-5} arms=(${DB_ARMS:-stock budget}) arm f
	local seven=$repo/build/bench/7.3/$1
	if [ $report_only = 0 ]; then
		[ -f "$db_data" ] || "$repo/selftests/workloads/db_prepare.sh" "$db_data" || return 1
		echo "bench: db_readmostly (sysbench on MariaDB), writes $delay ms late, $reps runs of each arm, one guest per arm: ${arms[*]}"
		# One guest per arm, its runs one after the other. Side by side
		# in one guest the arms' servers shared its 4 vCPUs, and how the
		# scheduler shared them decided what each one touched: stock's
		# file refaults spread over a factor of ten in 3 runs on 6.12.
		rm -rf "$d"
		for arm in "${arms[@]}"; do
			vm "$patched" "$d/$arm" bench/guest/runs.sh "$reps" selftests/workloads/db_readmostly.sh \
				--data "$db_data" --warmup 10 --seconds 30 --write-delay-ms "$delay" -- "$arm=$arm" &
		done
		wait
		echo "$where" >"$d/where"
		inputs_of "$name" >"$d/inputs"
	fi
	# the arms this run had (its guests' directories, by name)
	arms=()
	for f in "$d"/*/1/db.csv; do
		arm=$(basename "$(dirname "$(dirname "$f")")")
		[ -f "$f" ] && [ "$arm" != stock-7.3 ] && arms+=("$arm")
	done
	# on 6.12, stock 7.3's runs from this workload's 7.3 section beside
	# this base's arms: the kernel whose loop the budget policy brings to
	# 6.12 (seed 000)
	local csvs=() other=() compares=()
	for arm in "${arms[@]}"; do
		csvs+=("$d/$arm"/[0-9]*/db.csv)
		[ "$arm" = stock ] || compares+=(--compare "$arm/stock")
	done
	if [ "$base" = 6.12 ] && [ -f "$seven/stock/1/db.csv" ]; then
		rm -rf "$d/stock-7.3"
		for f in "$seven"/stock/[0-9]*/db.csv; do
			mkdir -p "$d/stock-7.3/$(basename "$(dirname "$f")")"
			sed 's/^stock,/stock-7.3,/' "$f" >"$d/stock-7.3/$(basename "$(dirname "$f")")/db.csv"
		done
		other=("$d"/stock-7.3/[0-9]*/db.csv)
		compares+=(--compare stock-7.3/stock)
	fi
	{
		local heading disk
		if [ "$delay" = 0 ]; then
			heading="## db_readmostly (seed 000's database workload): sysbench on MariaDB, read-mostly, no swap"
			disk="rows) on the zram scratch disk read through the page cache (an 8 MiB buffer pool); sysbench"
		else
			heading="## db_readmostly on a slow disk (seed 000's database workload): writes $delay ms late"
			disk="rows) on ext4 over dm-delay on zram, every write $delay ms late and reads not delayed, read
through the page cache (an 8 MiB buffer pool); sysbench"
		fi
		echo "$heading"
		echo
		echo "A MariaDB server in a 96 MiB memcg without swap, its 116 MiB of tables (4 of 100,000"
		echo "$disk"
		echo "from the root cgroup, 4 threads, each transaction 19 point selects and 1 index update"
		echo "(YCSB workload B's 95/5) on pareto-distributed keys, 10 virtual s of warmup, then 30 measured."
		echo "Each arm alone in its own guest, its runs one after the other, each on a fresh copy of the"
		echo "database; $reps runs. pgpgin: what the memcg read from disk in the measured run (its io.stat);"
		echo "dirty met: dirty file folios reclaim met and left to writeback (nr_vmscan_immediate_reclaim);"
		echo "rotated: folios moved to the oldest generation when their writeback ended (pgrotated)."
		if [ ${#other[@]} -gt 0 ]; then
			echo "stock-7.3: the $name section's stock runs (7.3, the same bed and workload; $(sed -n 's/^measured \([^:]*\):.*/\1/p' "$seven/where" 2>/dev/null)):"
			echo "seed 000's loop as upstream has it, which the budget policy brings to 6.12."
		fi
		echo
		python3 "$repo/bench/summarize_arms.py" "${db_columns[@]}" "${compares[@]}" \
			"${csvs[@]}" "${other[@]}"
		echo
		if [ ${#other[@]} -gt 0 ] && [ -d "$d/budget" ]; then
			# seed 000's target, on the medians of file refaults, where
			# stock 7.3's runs are apart from stock 6.12's
			python3 -c '
import csv, statistics, sys
def runs(arm):
    return [float(r["refault_file"]) for p in sys.argv[1:]
            for r in csv.DictReader(open(p)) if r["arm"] == arm]
s, b, n = runs("stock"), runs("budget"), runs("stock-7.3")
ms, mb, mn = (statistics.median(x) for x in (s, b, n))
meds = f"medians: stock 6.12 {ms:.0f}, budget {mb:.0f}, stock 7.3 {mn:.0f}"
target = ("seed 000, target budget at least 0.50 of stock 7.3'"'"'s reduction of file refaults"
          " over stock 6.12: ")
if max(n) < min(s):
    share = (ms - mb) / (ms - mn)
    print(f"{target}{share:.2f}, {'"'"'met'"'"' if share >= 0.5 else '"'"'not met'"'"'} ({meds})")
else:
    print(f"{target}nothing to take a share of, stock 7.3'"'"'s runs are not below"
          f" stock 6.12'"'"'s ({meds})")
' "${csvs[@]}" "${other[@]}"
			echo
		fi
	} | section "$name" "$(cat "$d/where" 2>/dev/null || echo "$where")"
}

bench_db() {
	db_workload db 0
}

# the same database with its writes on a slow disk: where 7.3's handling
# of dirty folios in reclaim has something to act on
bench_dbslow() {
	db_workload dbslow 50
}

# pgbench_scan's columns and its database (built on the host, once)
pgbench_columns=(--column "tps:transactions/s:+:1" --column "lat_avg_ms:latency avg (ms):-:2"
	--column "lat_p99_ms:latency p99 (ms):-:2" --column "scans:scans:+"
	--column "pgpgin_kib:pgpgin (KiB):-" --column "refault_file:file refaults:-"
	--column "max_events:limit hits:-" --column "psi_full_us:PSI full (ms):-"
	--column pgscan:pgscan --column pgsteal:pgsteal)
pgbench_data=$repo/build/pg/pgbench.tar

bench_pgbench() {
	local d=$out/pgbench reps=${PGBENCH_REPS:-3}
	if [ $report_only = 0 ]; then
		[ -f "$pgbench_data" ] || "$repo/selftests/workloads/pgbench_prepare.sh" "$pgbench_data" || return 1
		echo "bench: pgbench_scan (PostgreSQL), $reps runs: stock, budget, thrash_aging, isolation_throttle and combined side by side"
		# the arms start in another order every run
		vm "$patched" "$d/side" bench/guest/runs.sh --rotate 1 "$reps" selftests/workloads/pgbench_scan.sh \
			--data "$pgbench_data" --warmup 10 --seconds 20 -- stock=stock budget=budget \
			thrash_aging=thrash_aging isolation_throttle=isolation_throttle combined=combined
		echo "$where" >"$d/where"
		inputs_of "$(basename "$d")" >"$d/inputs"
	fi
	{
		echo "## pgbench_scan (an application beside the seeds): PostgreSQL, zipf reads beside a table scan"
		echo
		echo "Per arm a PostgreSQL 15 server in an 80 MiB memcg without swap, pgbench's scale-10 tables"
		echo "(a 128 MiB pgbench_accounts) on the zram scratch disk read through the page cache"
		echo "(shared_buffers 8 MiB); from the root cgroup 4 pgbench clients, each transaction a read (19"
		echo "of 20) or an update (1 of 20) of one row on zipf-distributed keys (s = 1.1), beside one client"
		echo "summing a column of the whole table over and over, a sequential scan each time (cache_ext's"
		echo "GET-SCAN shape). Throughput and latency are the row clients', scans the scanner's completed"
		echo "ones. 10 virtual s of warmup, then 20 measured; the arms side by side in one guest, started"
		echo "in another order each run; $reps runs. pgpgin: what the memcg read from disk in the measured"
		echo "run (its io.stat). No swap: swappiness decides nothing here."
		echo
		python3 "$repo/bench/summarize_arms.py" "${pgbench_columns[@]}" --compare budget/stock \
			--compare thrash_aging/stock --compare isolation_throttle/stock \
			--compare combined/stock "$d"/side/[0-9]*/pgbench.csv
		echo
	} | section pgbench "$(cat "$d/where" 2>/dev/null || echo "$where")"
}

# The applications (RocksDB, ripgrep): each arm alone in its own guest,
# its runs one after the other; stock, the classic LRU and the policies
# the section is about (app_policies) 5 runs each (APP_REPS), every other
# arm APP_HARM_REPS (3) for the harm table. APP_ARMS overrides the arms.
# A policy's knobs for the section: app_knobs[POLICY]="KNOB=VALUE,...".
# app_workload NAME CSV SCRIPT_ARGS... (with the columns in app_columns)
app_workload() {
	local name=$1 csv=$2 d=$out/$1 arms arm spec reps f compares=() csvs=()
	shift 2
	local harm=() p
	for p in $app_all_policies; do
		[[ " $app_policies " == *" $p "* ]] || harm+=("$p")
	done
	read -r -a arms <<<"${APP_ARMS:-stock classic $app_policies ${harm[*]}}"
	if [ $report_only = 0 ]; then
		rm -rf "$d"
		for arm in "${arms[@]}"; do
			reps=${APP_HARM_REPS:-3}
			[[ " stock classic $app_policies " != *" $arm "* ]] || reps=${APP_REPS:-5}
			spec=$arm=$arm${app_knobs[$arm]:+,${app_knobs[$arm]}}
			vm "$patched" "$d/$arm" bench/guest/runs.sh "$reps" "$@" -- "$spec" &
		done
		wait
		echo "$where" >"$d/where"
		inputs_of "$name" >"$d/inputs"
	fi
	for f in "$d"/*/1/"$csv"; do
		[ -f "$f" ] || continue
		arm=$(basename "$(dirname "$(dirname "$f")")")
		csvs+=("$d/$arm"/[0-9]*/"$csv")
		[ "$arm" = stock ] || compares+=(--compare "$arm/stock")
	done
	python3 "$repo/bench/summarize_arms.py" "${app_columns[@]}" "${compares[@]}" "${csvs[@]}"
}

# every shipped policy, for the harm table (a section's own policies
# are left out of it)
app_all_policies="frequency scan_resistant loop budget isolation_throttle thrash_aging swappiness passthrough combined"
rocksdb_data=$repo/build/rocksdb/db-400k.tar
getscan_columns=(--column "gets_s:gets/s:+" --column "get_p99_us:get p99 (ms):-:3"
	--column "scans_s:scans/s:+:3" --column "pgpgin_kib:pgpgin (KiB):-"
	--column "refault_file:file refaults:-" --column "psi_full_us:PSI full (ms):-"
	--column pgscan:pgscan --column pgsteal:pgsteal)

# RocksDB GET-SCAN: gets on skewed keys beside full scans
bench_getscan() {
	local app_policies=${GETSCAN_POLICIES:-frequency scan_resistant}
	local -A app_knobs=()
	local app_columns=("${getscan_columns[@]}")
	[ $report_only = 1 ] || [ -f "$rocksdb_data" ] ||
		"$repo/selftests/workloads/rocksdb_prepare.sh" "$rocksdb_data" || return 1
	{
		echo "## rocksdb_getscan (an application): RocksDB gets on skewed keys beside full scans"
		echo
		echo "RocksDB 7.8's db_bench in a 160 MiB memcg without swap, its database (400,000 keys of 16"
		echo "bytes with 1000-byte values, 394 MiB, one sorted run, uncompressed) on the zram scratch disk"
		echo "read through the page cache (an 8 MiB block cache): one thread of gets on keys drawn with"
		echo "--read_random_exp_range=20 (skewed toward the low keys), 20 virtual s alone, then 30 measured"
		echo "beside a loop of db_bench readseq, each a full scan of the database (cache_ext's GET-SCAN"
		echo "shape). gets/s and p99 are the measured gets'; scans/s counts the full scans that ended in"
		echo "the measured 30 s. Each arm alone in its own guest (1 vCPU), its runs one after the other,"
		echo "each on a fresh copy of the database."
		echo
		app_workload getscan getscan.csv selftests/workloads/rocksdb_getscan.sh --data "$rocksdb_data" \
			--warmup 20 --seconds 30
		echo
	} | section getscan "$(cat "$out/getscan/where" 2>/dev/null || echo "$where")"
}

ripgrep_tree=$repo/build/ripgrep/ethernet.tar
ripgrep_columns=(--column "total_s:10 searches (virtual s):-:2" --column "first_s:first search (s):-:2"
	--column "rest_s:each later search (s):-:2" --column "pgpgin_kib:pgpgin (KiB):-"
	--column "refault_file:file refaults:-" --column "psi_full_us:PSI full (ms):-"
	--column pgscan:pgscan --column pgsteal:pgsteal)
ripgrep_tree_made() { # the tree, from the linux-7.3 source, once
	[ -f "$ripgrep_tree" ] && return 0
	make -s -C "$repo" kernel >/dev/null &&
		mkdir -p "$(dirname "$ripgrep_tree")" &&
		tar -C "$repo/build/src/linux-7.3" -cf "$ripgrep_tree" drivers/net/ethernet
}

# ripgrep: ten searches of a source tree in a memcg of 70% of it
bench_ripgrep() {
	local app_policies=${RIPGREP_POLICIES:-frequency loop}
	# loop keeps about three quarters of the memcg (its header says why)
	local -A app_knobs=([loop]=keep_mb=40)
	local app_columns=("${ripgrep_columns[@]}")
	[ $report_only = 1 ] || ripgrep_tree_made || return 1
	{
		echo "## ripgrep_search (an application): ten searches of a source tree larger than its memcg"
		echo
		echo "ripgrep 13 (one thread) searches linux-7.3's drivers/net/ethernet (81 MiB of page cache) for"
		echo "a string no file has, ten times, in a memcg of 70% of the tree without swap, the tree on the"
		echo "zram scratch disk (cache_ext's ripgrep workload, smaller). Times are virtual seconds on the"
		echo "bed; the counters are over the ten searches. Each arm alone in its own guest (1 vCPU), its"
		echo "runs one after the other, each on a fresh copy of the tree."
		echo
		app_workload ripgrep ripgrep.csv selftests/workloads/ripgrep_search.sh --tree "$ripgrep_tree" \
			--searches 10 --pct 70
		echo
	} | section ripgrep "$(cat "$out/ripgrep/where" 2>/dev/null || echo "$where")"
}

# the pair: GET-SCAN and ripgrep at once in sibling memcgs, stock against
# each under its own policy from one mglructl config
bench_pair() {
	local d=$out/pair reps=${APP_REPS:-5} arm f csvs
	local config=$repo/selftests/workloads/app_pair.conf
	[ $report_only = 1 ] || [ -f "$rocksdb_data" ] ||
		"$repo/selftests/workloads/rocksdb_prepare.sh" "$rocksdb_data" || return 1
	[ $report_only = 1 ] || ripgrep_tree_made || return 1
	if [ $report_only = 0 ]; then
		rm -rf "$d"
		for arm in stock policies; do
			vm "$patched" "$d/$arm" bench/guest/runs.sh "$reps" selftests/workloads/app_pair.sh \
				--name $arm --data "$rocksdb_data" --tree "$ripgrep_tree" \
				$([ $arm = stock ] || echo "--config $config") &
		done
		wait
		echo "$where" >"$d/where"
		inputs_of pair >"$d/inputs"
	fi
	{
		echo "## app_pair (two applications): GET-SCAN and ripgrep side by side, each under its own policy"
		echo
		echo "The getscan and ripgrep sections' workloads at once, in two sibling memcgs of one cgroup"
		echo "(160 MiB and 70% of the tree), in one guest (1 vCPU): both under stock, or GET-SCAN under"
		echo "scan_resistant and ripgrep under loop (keep_mb=40), attached by one \`mglructl apply\` of"
		echo "selftests/workloads/app_pair.conf. Each arm in its own guest, its runs one after the other."
		echo
		echo "### GET-SCAN's side"
		echo
		python3 "$repo/bench/summarize_arms.py" "${getscan_columns[@]}" --compare policies/stock \
			"$d"/*/[0-9]*/getscan/getscan.csv
		echo
		echo "### ripgrep's side"
		echo
		python3 "$repo/bench/summarize_arms.py" "${ripgrep_columns[@]}" --compare policies/stock \
			"$d"/*/[0-9]*/ripgrep/ripgrep.csv
		echo
	} | section pair "$(cat "$d/where" 2>/dev/null || echo "$where")"
}

# parallel_build's columns and its root file system (built on the host, once)
build_columns=(--column "seconds:build time (virtual s):-:2" --column "status:make's exit status"
	--column "objects:objects built:+" --column "psi_full_us:PSI full (ms):-"
	--column "refault_anon:anon refaults:-" --column throttles:throttles
	--column "pgscan_direct:pgscan_direct:-" --column pgscan:pgscan --column pgsteal:pgsteal)
build_root=$repo/build/parallel_build/root.tar

bench_build() {
	local d=$out/build reps=${BUILD_REPS:-3} mb=${BUILD_MEMCG_MB:-24} g
	if [ $report_only = 0 ]; then
		[ -f "$build_root" ] || "$repo/selftests/workloads/build_prepare.sh" "$build_root" || return 1
		echo "bench: parallel_build (make -j8 in $mb MiB, swap and objects on dm-delay), $reps runs in each of two guests: stock, isolation_throttle and the classic LRU one after the other"
		# A build this far over its memory is chaotic: one run says
		# little, so two guests (one per core) give twice the runs. Both
		# use the same limit; the first also measures the build's peak
		# without one, which the limit is a third of. The arms go in
		# another order every run, and the guests start in opposite ones.
		for g in 1 2; do
			vm "$patched" "$d/guest$g" bench/guest/build_runs.sh $g "$reps" "$build_root" "$mb" \
				stock=stock isolation_throttle=isolation_throttle classic=classic &
		done
		wait
		echo "$where" >"$d/where"
		inputs_of "$(basename "$d")" >"$d/inputs"
	fi
	{
		echo "## parallel_build (seed 003's second workload): make -j8 in a memcg a third of its peak"
		echo
		echo "make -j8 compiling mglructl's 16 sources (-O2, objects only) in a chroot on tmpfs, the objects"
		echo "written to ext4 behind dm-delay (writes 50 ms late: the seed's slow writeback), in a"
		echo "$(awk -F, 'NR == 2 { print $3 }' "$d/guest1/1/build.csv" 2>/dev/null) MiB memcg, about a" \
			"third of the build's memory.peak without a limit ($(cat "$d/guest1/1/peak_mb" 2>/dev/null) MiB),"
		echo "swap on dm-delay (50 ms) over zram in the guest; stock, isolation_throttle and the classic LRU"
		echo "one after the other, in another order each run; $reps runs in each of two guests. Build time"
		echo "in virtual seconds; make's exit status is not 0 when a compiler was OOM-killed. The seed"
		echo "(10 vCPUs, make -j as many): isolation_throttle builds 32-52% more objects in the same time"
		echo "with 23-33% fewer direct scans (pgscan_direct)."
		echo
		python3 "$repo/bench/summarize_arms.py" "${build_columns[@]}" \
			--compare isolation_throttle/stock --compare classic/stock "$d"/guest[0-9]/[0-9]*/build.csv
		echo
	} | section build "$(cat "$d/where" 2>/dev/null || echo "$where")"
}

# combined against each of its parts, side by side on the part's seed
# workload (each pair shares the one vCPU alike).
bench_combined() {
	local d=$out/combined reps=${COMBINED_REPS:-3}
	if [ $report_only = 0 ]; then
		echo "bench: combined against its parts, $reps runs each: thrash_aging (madv_random_thrash), budget (file_anon_mix), isolation_throttle (isolation_pileup)"
		vm "$patched" "$d/thrash" bench/guest/runs.sh "$reps" selftests/workloads/madv_random_thrash.sh \
			--duration 45 --cold-at 15 -- thrash_aging=thrash_aging combined=combined &
		vm "$patched" "$d/other" bench/guest/combined_parts.sh "$reps"
		wait
		echo "$where" >"$d/where"
		inputs_of "$(basename "$d")" >"$d/inputs"
	fi
	{
		echo "## combined against its parts"
		echo
		echo "combined is budget + isolation_throttle + thrash_aging in one policy. On each part's seed"
		echo "workload it ran side by side with that part (the same workloads and sizes as above); $reps runs each."
		echo
		echo "### madv_random_thrash: combined and thrash_aging side by side"
		echo
		python3 "$repo/bench/summarize_thrash.py" 15 "$d/thrash.png" "$d"/thrash/[0-9]* |
			sed -n '/^| arm | runs/,$p'
		echo
		echo "### file_anon_mix: combined and budget side by side"
		echo
		python3 "$repo/bench/summarize_arms.py" "${mix_columns[@]}" --compare combined/budget \
			"$d"/other/mix/[0-9]*/mix.csv
		for threads in 192 64; do
			echo
			echo "### isolation_pileup, $threads threads: combined and isolation_throttle one after the other"
			echo
			python3 "$repo/bench/summarize_arms.py" "${pileup_columns[@]}" \
				--compare combined/isolation_throttle "$d"/other/pileup$threads/[0-9]*/pileup.csv
		done
		echo
	} | section combined "$(cat "$d/where" 2>/dev/null || echo "$where")"
}

bench_overhead() {
	local d=$out/overhead policies=(passthrough budget isolation_throttle thrash_aging swappiness combined)
	local arms=(--arm none=none) p
	for p in "${policies[@]}"; do arms+=(--arm "$p=$p"); done
	[ $report_only = 1 ] || run_overhead "$d" "${arms[@]}" || return 1
	report_overhead "$d"
}

run_overhead() { # DIR ARM_OPTIONS...
	local d=$1
	shift
	echo "bench: reclaim_overhead: the unpatched kernel, then the patched one with no policy, passthrough and each shipped policy"
	# Two guests at a time, one per core: on the instruction clock they
	# cannot change each other's figures, only each other's wall time.
	# One lane: the unpatched kernel, then the cost as the work grows (1,
	# 10, 100 policies attached; the memcg 1, 4, 16 levels below its
	# policy). The other: the patched kernel's arms.
	(
		vm "$stock" "$d/unpatched" selftests/workloads/reclaim_overhead.sh --out /run/results \
			--arm unpatched=none --reps 5 || exit 1
		vm "$patched" "$d/siblings" bench/guest/overhead_scaling.sh --siblings 1 10 100 || exit 1
		vm "$patched" "$d/depth" bench/guest/overhead_scaling.sh --depth 1 4 16
	) &
	vm "$patched" "$d/patched" selftests/workloads/reclaim_overhead.sh --out /run/results \
		"$@" --reps 5
	wait
	echo "$where" >"$d/where"
	inputs_of "$(basename "$d")" >"$d/inputs"
}

report_overhead() { # DIR
	local d=$1
	{
		echo "## reclaim_overhead: what reclaim costs, in instructions per page"
		echo
		echo "Fixed work in a fresh 64 MiB memcg per run: \`file\` streams a 384 MiB file once with pread(),"
		echo "\`anon\` write-touches 200,000 random pages of a 96 MiB buffer with zram swap, \`mix\` interleaves"
		echo "16 KiB reads of the file with touches of a 64 MiB buffer. Virtual ns on the instruction clock"
		echo "(shift 0: one ns, one instruction), median of 5 runs, spread = (max - min) / median. The"
		echo "unpatched kernel and the patched one each boot once; the arms of the patched kernel alternate"
		echo "within each repetition, every policy attached to the run's parent cgroup."
		echo
		python3 "$repo/bench/summarize_overhead.py" cost "$d/unpatched/overhead.csv" "$d/patched/overhead.csv"
		echo
		echo "As the work grows (file load; passthrough on the run's parent, each sibling memcg filled to"
		echo "its 4 MiB limit under a copy of it; then the reclaiming memcg at depth 1, 4 and 16 below it):"
		echo
		python3 "$repo/bench/summarize_overhead.py" scaling "$d"/siblings/s*/overhead.csv "$d"/depth/d*/overhead.csv
		echo
		echo "The bed itself: the no-policy arm of each guest (the unpatched kernel's for that guest), and what"
		echo "a virtual second cost in wall time (two guests ran at once, one per core):"
		echo
		python3 "$repo/bench/summarize_overhead.py" bed "$d/unpatched" "$d/patched" "$d/siblings" "$d/depth"
		echo
	} | section overhead "$(cat "$d/where" 2>/dev/null || echo "$where")"
}

# The bed with 1, 2 and 4 vCPUs on one instruction clock: the overhead
# loads, identical runs, on the patched kernel without a policy. The
# guests run one after the other, so that each has a core to itself.
bench_bed() {
	local d=$out/bed n
	if [ $report_only = 0 ]; then
		echo "bench: the bed with ${BED_SMP:-1 2 4} vCPUs, ${BED_REPS:-5} identical runs of each overhead load"
		for n in ${BED_SMP:-1 2 4}; do
			VM_SMP=$n vm "$patched" "$d/smp$n" selftests/workloads/reclaim_overhead.sh \
				--out /run/results --arm none=none --reps "${BED_REPS:-5}" || return 1
			echo "$n" >"$d/smp$n/smp"
		done
		echo "$where" >"$d/where"
		inputs_of bed >"$d/inputs"
	fi
	{
		echo "## the bed with several vCPUs: identical runs at 1, 2 and 4 vCPUs"
		echo
		echo "The overhead loads of reclaim_overhead (file, anon, mix; no policy) in one guest per vCPU count,"
		echo "the runs of each load identical work. With N vCPUs they run round-robin on one host thread and"
		echo "the instruction clock counts the instructions of all of them (docs/bed.md). A load is one process,"
		echo "so the other vCPUs run kernel threads (kswapd, the flusher, kworkers) beside it."
		echo
		python3 "$repo/bench/summarize_overhead.py" smp "$d"/smp[0-9]*
		echo
	} | section bed "$(cat "$d/where" 2>/dev/null || echo "$where")"
}

bench_hooks() {
	local d=$out/hooks t p arms=(--arm none=none)
	t=$repo/build/bpf/test
	for p in stock_no_hooks stock_isolate_only stock_no_budget; do
		arms+=(--arm "$p=$t/$p.bpf.o")
	done
	arms+=(--arm passthrough=passthrough --arm "passthrough_lru=$t/passthrough_lru.bpf.o")
	echo "bench: what one hook call and one context fill cost (file load, bench kernel)"
	vm "$patched" "$d" selftests/workloads/reclaim_overhead.sh --out /run/results \
		--load file "${arms[@]}" --reps 5 || return 1
	{
		echo "## hooks: what a policy costs, part by part"
		echo
		echo "The file load of reclaim_overhead (one 384 MiB stream through a 64 MiB memcg), 5 runs per arm,"
		echo "under policies that return the stock decision from more and more hooks: none, a policy with no"
		echo "hooks, the isolate hook alone, every hook but the budget (the loop stays exactly stock's),"
		echo "passthrough, and passthrough_lru, which is passthrough without MGLRU_EXT_OPS_NO_LRU (the kernel"
		echo "fills ctx->lru for it, as for a policy that reads it). Virtual ns are instructions (instruction"
		echo "clock, shift 0)."
		echo
		python3 "$repo/bench/summarize_overhead.py" hooks "$d/overhead.csv"
		echo
	} | section hooks
}

# place: what the place hook costs per page added, in a memcg that reads
# a file it holds whole (no reclaim): no policy anywhere (the static key
# off), no policy in the memcg while one elsewhere places (the lookup), a
# policy without the hook (the lookup finds it), and the hook answering
# stock's placement
bench_place() {
	local d=$out/place file_mb=384
	if [ $report_only = 0 ]; then
		echo "bench: place, what placing costs per page added (file load, bench kernel)"
		vm "$patched" "$d" bench/guest/place.sh "$repo/build/bpf/test" $file_mb || return 1
		inputs_of place >"$d/inputs"
	fi
	{
		echo "## place: what placing costs per page added"
		echo
		echo "The file load of reclaim_overhead reading a $file_mb MiB file from the zram scratch disk once into a"
		echo "512 MiB memcg (nothing is reclaimed: every page is one folio added to the generations), 5 runs"
		echo "per arm: no policy anywhere (the place path's static key off); no policy in the memcg while a"
		echo "sibling has passthrough_place (the key on: the lookup of the memcg's policy); stock_no_hooks,"
		echo "a policy without the hook, with the same sibling; and passthrough_place, the place hook alone"
		echo "answering stock's placement. Instructions are virtual ns (instruction clock, shift 0); the"
		echo "target is at most 1% of a page's buffered read for the hook."
		echo
		python3 "$repo/bench/summarize_overhead.py" place $((file_mb * 256)) "$d"/alone/overhead.csv \
			"$d"/placing/overhead.csv
		echo
	} | section place
}

bench_iteration() {
	local d=$out/iteration t0 t1 t2 t3 policy_build kernel_build load boot vmscan mtime
	mkdir -p "$d"
	echo "bench: iteration speed, a policy edit against a one-line vmscan.c change"
	# a policy edit: recompile it and load it in a running guest
	t0=$(date +%s.%N)
	touch "$repo/bpf-policies/thrash_aging.bpf.c"
	make -s -C "$repo" policies >/dev/null
	t1=$(date +%s.%N)
	vm "$patched" "$d/guest" bench/guest/load_time.sh
	read -r s e <"$d/guest/load_time"
	load=$(awk -v s="$s" -v e="$e" 'BEGIN { print e - s }')
	policy_build=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
	# a kernel edit: rebuild after touching vmscan.c, then boot it
	# (vmscan.c gets its time back after, so the test kernel's tree does
	# not rebuild for an edit that never happened)
	vmscan=$repo/build/src/linux-$base/mm/vmscan.c
	mtime=$(stat -c %Y "$vmscan")
	t2=$(date +%s.%N)
	touch "$vmscan"
	make -s -C "$repo/build/src/linux-$base" O="$repo/build/kernel/$base/bench" -j"$(nproc)" bzImage >/dev/null
	t3=$(date +%s.%N)
	touch -d "@$mtime" "$vmscan"
	kernel_build=$(awk -v a="$t2" -v b="$t3" 'BEGIN { print b - a }')
	s=$(date +%s.%N)
	vm "$patched" "$d/boot" true
	boot=$(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
	{
		echo "## iteration speed: from an edit to the change running"
		echo
		echo "| path | build | load or boot | total |"
		echo "|---|---|---|---|"
		awk -v b="$policy_build" -v l="$load" 'BEGIN { printf "| edit a policy, make policies, mglructl load | %.1f s | %.2f s | %.1f s |\n", b, l, b + l }'
		awk -v b="$kernel_build" -v l="$boot" 'BEGIN { printf "| edit vmscan.c, rebuild bzImage, boot (TCG) | %.1f s | %.1f s | %.1f s |\n", b, l, b + l }'
		awk -v pb="$policy_build" -v l="$load" -v kb="$kernel_build" -v bt="$boot" \
			'BEGIN { printf "\nkernel path / policy path: %.0fx\n", (kb + bt) / (pb + l) }'
		echo
	} | section iteration
}

main() {
	local w
	for w in "${workloads[@]}"; do
		if [ $report_only = 1 ] &&
			! [[ " overhead bed swappiness thrash pileup mix oom db dbslow pgbench build combined getscan ripgrep pair place " == *" $w "* ]]; then
			echo "bench: --report knows overhead, bed, swappiness, thrash, pileup, mix, oom, db, dbslow, pgbench, build, combined, getscan, ripgrep, pair and place, not '$w'" >&2
			exit 2
		fi
		export VM_SMP
		VM_SMP=$(smp_for "$w")
		if [ "$w" = bed ]; then
			set_where "$(echo ${BED_SMP:-1 2 4} | sed 's/ /, /g')"
		else
			set_where "$VM_SMP"
		fi
		workload_start=$SECONDS
		"bench_$w"
	done
	echo "bench: results in $results"
}

# One line, read before anything runs: a bench takes hours, and bash
# reads a script as it goes, so an edit to this file while it runs would
# otherwise be read from the wrong offset when the workloads end.
main; exit
