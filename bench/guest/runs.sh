#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runs.sh: a bench guest's repetitions of one workload, in the guest, one
# after the other. Run r (from 1) is
#   CMD [ARGS...] --out DIR/r [--arm SPEC]...
# and the first run that fails ends them with its status, so that a guest
# cut short says so (bench.sh's vm()).
#
# Usage: runs.sh [--out DIR] [--rotate FIRST] REPS CMD [ARGS...] [-- SPEC...]
#   --out DIR       the runs' directories go under DIR (default /run/results)
#   --rotate FIRST  run r starts its arms at the (r + FIRST - 1)-th SPEC,
#                   wrapping (arms.sh's arm_order): side-by-side arms start
#                   in another order each run; without it, as given
#   SPEC            an arm (arms.sh), given to every run as --arm SPEC
set -u
repo=${MGLRU_REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$repo/selftests/lib/arms.sh"
out=/run/results
rotate=
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--rotate) rotate=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -lt 2 ]; then
	echo "usage: runs.sh [--out DIR] [--rotate FIRST] REPS CMD [ARGS...] [-- SPEC...]" >&2
	exit 2
fi
reps=$1
shift
cmd=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	cmd+=("$1")
	shift
done
[ $# -eq 0 ] || shift
specs=("$@")
for rep in $(seq "$reps"); do
	arm_args=()
	if [ -n "$rotate" ] && [ ${#specs[@]} -gt 0 ]; then
		arm_order $((rep + rotate - 1)) "${specs[@]}"
	else
		for spec in "${specs[@]}"; do arm_args+=(--arm "$spec"); done
	fi
	"${cmd[@]}" --out "$out/$rep" "${arm_args[@]}" || exit
done
