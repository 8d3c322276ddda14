#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-each-patch.sh: check that every prefix of the series of one base
# (BASE, default 7.3) builds, with CONFIG_MGLRU_EXT on and off. For speed it builds the objects the series
# touches (mm/), in a separate worktree and object directory, and the whole
# vmlinux for the last patch only (that is `make kernel`).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
base=${BASE:-7.3}
src=$repo/build/src/linux-$base
wt=$repo/build/src/linux-$base-series-check
jobs=${JOBS:-$(nproc)}
objs="mm/mglru_ext.o mm/vmscan.o mm/memcontrol.o"

[ -d "$src/.git" ] || { echo "build-each-patch: run 'make BASE=$base kernel' first" >&2; exit 1; }
if [ ! -d "$wt" ]; then
	git -C "$src" worktree add -q --detach "$wt" HEAD
fi
# SERIES_REF: another ref of that tree (a branch being cut in a worktree
# of it, say) instead of the series applied by make kernel
commits=$(git -C "$src" rev-list --reverse "pristine..${SERIES_REF:-HEAD}")
status=0
for onoff in y n; do
	obj=$repo/build/kernel/$base/series-check-$onoff
	mkdir -p "$obj"
	for c in $commits; do
		git -C "$wt" checkout -q --detach "$c"
		if [ ! -f "$obj/.config" ]; then
			make -s -C "$wt" O="$obj" tinyconfig >/dev/null
			(cat "$repo/kernel-config/mglru_ext.config" \
				"$repo/kernel-config/linux-$base.config"
			 echo "CONFIG_MGLRU_EXT=$onoff") >"$obj/fragment"
			"$wt/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$obj/fragment" >/dev/null
		fi
		make -s -C "$wt" O="$obj" olddefconfig >/dev/null
		subject=$(git -C "$wt" log -1 --format=%s "$c")
		# a patch that doesn't add mglru_ext.c yet has no such object
		targets=""
		for o in $objs; do
			[ -f "$wt/${o%.o}.c" ] || continue
			# with the option off, kbuild never builds the framework
			[ $onoff = n ] && [ $o = mm/mglru_ext.o ] && continue
			targets="$targets $o"
		done
		if make -s -C "$wt" O="$obj" -j"$jobs" $targets >"$obj/log" 2>&1 &&
			! grep -q "warning:" "$obj/log"; then
			echo "ok - $base MGLRU_EXT=$onoff builds after: $subject"
		else
			echo "not ok - $base MGLRU_EXT=$onoff fails or warns after: $subject (see $obj/log)"
			status=1
		fi
	done
done
exit $status
