#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# results-check.sh [--mark]: list every section of docs/results.md whose
# inputs (bench/inputs.sh) changed since it was measured, and what changed.
# A section measured before sections recorded their inputs is listed as
# unrecorded, and one whose kernel tree is not applied here (so that what
# the series builds cannot be hashed) as unknown, and left unmarked.
# Prints; exits 0 either way (make check-host runs it).
#
# --mark also writes the verdict at the top of each section of the file:
# a stale section gets a line saying so, a fresh one loses it.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
results=$repo/docs/results.md
mark=0
[ "${1:-}" = --mark ] && mark=1

stale=0
fresh=0
unknown=0
verdicts=$(mktemp)
trap 'rm -f "$verdicts" "$verdicts.err"' EXIT

# What of section NAME's inputs on BASE changed since COMMIT, in short: a
# base's kernel series as one item, the rest as paths.
changed_since() { # COMMIT BASE NAME
	(cd "$repo" && git diff --name-only "$1" -- \
		$(BASE=$2 bench/inputs.sh "$3") bench/bench.sh 2>/dev/null) |
		sed "s#^kernel-patches/\($2\|common\)/.*#the $2 kernel series#" | sort -u | tr '\n' ' ' |
		sed 's/ $//'
}

# a section is NAME on the primary base, NAME-BASE on another (bench.sh)
for name in $(sed -n 's/^<!-- bench:\([a-z_]*\(-[0-9.]*\)\?\) -->$/\1/p' "$results"); do
	section=$(sed -n "/^<!-- bench:$name -->\$/,/^<!-- \/bench:$name -->\$/p" "$results")
	workload=${name%%-*}
	rec=$(sed -n 's/^<!-- inputs \(.*\) -->$/\1/p' <<<"$section")
	if [ -z "$rec" ]; then
		# the commit and the kernel from the section's where line
		where=$(sed -n 's/^_measured [0-9-]* at \([0-9a-f]*\).*/\1 &/p' <<<"$section" | head -1)
		commit=${where%% *}
		base=7.3
		grep -q "kernel 6\.12" <<<"$where" && base=6.12
		changed=$(changed_since "$commit" "$base" "$workload")
		why="measured before sections recorded their inputs, at ${commit:-?} on $base; changed since: ${changed:-nothing that inputs.sh lists}"
	else
		base=$(sed -n 's/.*base=\([^ ]*\).*/\1/p' <<<"$rec")
		hash=$(sed -n 's/.*hash=\([^ ]*\).*/\1/p' <<<"$rec")
		commit=$(sed -n 's/.*commit=\([^ -]*\).*/\1/p' <<<"$rec")
		now=$(BASE=$base "$repo/bench/inputs.sh" --hash "$workload" 2>"$verdicts.err")
		if [ $? = 3 ]; then
			echo "unknown: $name ($(sed 's/^inputs.sh: //' "$verdicts.err"))"
			unknown=$((unknown + 1))
			continue
		fi
		if [ "$now" = "$hash" ]; then
			echo "fresh: $name (measured at $commit)"
			fresh=$((fresh + 1))
			echo "$name" >>"$verdicts"
			continue
		fi
		changed=$(changed_since "$commit" "$base" "$workload")
		why="inputs changed since $commit: ${changed:-bench_$workload() in bench.sh, or uncommitted edits}"
	fi
	echo "stale: $name ($why)"
	stale=$((stale + 1))
	printf '%s\t%s\t%s\n' "$name" "$base" "$why" >>"$verdicts"
done
echo "results-check: $fresh fresh, $stale stale$([ $unknown = 0 ] || echo ", $unknown unknown")"

[ $mark = 1 ] || exit 0
python3 - "$results" "$verdicts" <<'EOF'
import re, sys
path, verdicts = sys.argv[1:]
text = open(path).read()
for line in open(verdicts):
    name, base, why = (line.rstrip("\n").split("\t") + ["", ""])[:3]
    begin = f"<!-- bench:{name} -->\n"
    i = text.index(begin) + len(begin)
    rest = text[i:]
    # the where line, after the inputs record if there is one
    m = re.match(r"(<!-- inputs .* -->\n)?(_[^\n]*_\n)(\*\*Stale\*\*[^\n]*\n)?", rest)
    head = (m.group(1) or "") + m.group(2)
    workload, _, suffix = name.partition("-")
    cmd = f"BASE={base} make bench BENCH={workload}" if suffix else f"make bench BENCH={workload}"
    banner = f"**Stale**: {why}; re-measure with `{cmd}`.\n" if why else ""
    text = text[:i] + head + banner + rest[m.end():]
open(path, "w").write(text)
EOF
echo "results-check: marked $results"
