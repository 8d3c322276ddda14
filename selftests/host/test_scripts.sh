#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The build's own scripts on bad input: one line on stderr and their own
# exit status, before they touch anything.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/selftests/lib/tap.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

tap_begin
expect_status 4 '^check-space: .* has [0-9]+ GiB free, a first build needs about 1000000 GiB$' \
	"check-space refuses a file system without the room" -- \
	"$repo/scripts/check-space.sh" "$scratch" 1000000
"$repo/scripts/check-space.sh" "$scratch" 0
tap_ok $? "check-space passes a file system with the room"
expect_status 2 "^inputs.sh: no section 'nosuch'$" \
	"results-check's inputs refuse an unknown section" -- \
	"$repo/bench/inputs.sh" nosuch

# Every script a section runs in its guests is one of its inputs: those
# the bench.sh functions its hash takes name, and those the guest scripts
# among them call.
scripts_of() { # NAME
	local fn f
	for fn in $("$repo/bench/inputs.sh" --funcs "$1"); do
		sed -n "/^$fn() {/,/^}/p" "$repo/bench/bench.sh"
	done | grep -o 'bench/guest/[a-z_]*\.sh\|selftests/workloads/[a-z_]*\.sh' | sort -u |
		while read -r f; do
			echo "$f"
			case $f in bench/guest/*) grep -o 'bench/guest/[a-z_]*\.sh\|selftests/workloads/[a-z_]*\.sh' "$repo/$f" ;; esac
		done | sort -u
}
missing=
for s in $(sed -n 's/^bench_\([a-z]*\)() {$/\1/p' "$repo/bench/bench.sh"); do
	listed=$("$repo/bench/inputs.sh" "$s")
	for f in $(scripts_of $s); do
		grep -qxF "$f" <<<"$listed" || missing="$missing $s:$f"
	done
done
[ -z "$missing" ]
tap_ok $? "every script a bench section runs in its guests is one of its inputs${missing:+ (not:$missing)}"

# A section is stale only when what it measured can have changed: in a
# copy of the tree (sharing build/), a comment added to the bed's scripts,
# a guest script and the workloads leaves the inputs hash of a section of
# each kind as it is, and a changed guest memory size changes it.
if [ "$(cat "$repo/build/src/linux-7.3/.mglru-series" 2>/dev/null)" = \
	"$("$repo/scripts/series-id.sh" 7.3)" ]; then
	copy=$scratch/tree
	mkdir -p "$copy"
	(cd "$repo" && git ls-files -z | xargs -0 cp -p --parents -t "$copy")
	ln -s "$repo/build" "$copy/build"
	# sections of each kind: a seed's, the overhead loads', a database's
	# (with bench.sh's helper db_workload) and an application's
	sections="thrash hooks db ripgrep"
	hashes() { for s in $sections; do "$1/bench/inputs.sh" --hash "$s"; done; }
	before=$(hashes "$repo")
	for f in selftests/lib/bed.sh selftests/vm-run.sh bench/guest/runs.sh \
		selftests/workloads/madv_random_thrash.sh; do
		sed -i '2a # a comment-only edit' "$copy/$f"
	done
	sed -i '1a /* a comment-only edit */' "$copy/selftests/workloads/thrash_load.c"
	[ "$(hashes "$copy")" = "$before" ]
	tap_ok $? "a comment-only edit of the bed and a workload leaves the sections ($sections) fresh"
	sed -i 's/--mem 1536M/--mem 1600M/' "$copy/bench/bench.sh"
	[ "$(hashes "$copy" | sort -u | wc -l)" = "$(echo "$before" | sort -u | wc -l)" ] &&
		! grep -qxF -f <(echo "$before") <(hashes "$copy")
	tap_ok $? "a changed guest memory size makes the sections ($sections) stale"
else
	tap_skip "a comment-only edit of the bed and a workload leaves the sections fresh" "the 7.3 tree is not applied"
	tap_skip "a changed guest memory size makes the sections stale" "the 7.3 tree is not applied"
fi
tap_end
