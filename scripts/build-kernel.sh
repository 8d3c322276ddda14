#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh FLAVOR: build an mglru_ext kernel of one base (BASE, the
# kernel the series applies to: 7.3, the default, or 6.12).
#
#   patched  linux-source-BASE + the series of BASE (kernel-patches/common
#            and kernel-patches/BASE, scripts/series.py), test config
#   debug    the same tree, test config + kernel-config/debug.config
#   bench    the same tree, test config + kernel-config/bench.config
#   stock    unpatched linux-source-BASE, bench config: the A/B baseline
#   source   the patched tree alone (libbpf, bpftool and the kselftests
#            build from it)
#
# The patched tree is a git repository whose first commit is the pristine
# source. When the series changes, the tree is reset to that commit and the
# whole series is applied again with `git am`, so it is never applied on
# top of an older one; files the series doesn't touch keep their
# timestamps and kbuild rebuilds only what changed.
set -euo pipefail

flavor=${1:?usage: BASE=7.3|6.12 build-kernel.sh patched|debug|bench|stock|source}
repo=$(cd "$(dirname "$0")/.." && pwd)
base=${BASE:-7.3}
build=$repo/build
jobs=${JOBS:-$(nproc)}
patches=$repo/kernel-patches/$base

say() { echo "build-kernel[$base/$flavor]: $*"; }
die() { echo "build-kernel[$base/$flavor]: $*" >&2; exit 1; }

[ -f "$patches/series" ] || die "no series for base '$base' (kernel-patches/$base/series)"
# The source: Debian's linux-source-BASE package, installed on the host
# (6.12, Debian 12's own archive) or fetched by make deps without
# installing it (7.3, see scripts/fetch-linux-source.sh).
tarball=/usr/src/linux-source-$base.tar.xz
[ -r "$tarball" ] || tarball=$build/deb/linux-source-$base/usr/src/linux-source-$base.tar.xz
[ -r "$tarball" ] || die "linux-source-$base missing: run 'make deps'"
# What the tree was made from, for the build record and the failure line.
version=$(cat "$build/deb/linux-source-$base.version" 2>/dev/null ||
	dpkg-query -W -f='${Version}' "linux-source-$base" 2>/dev/null || echo unknown)

extract() { # DIR
	local tmp
	tmp=$(mktemp -d "$build/src/.extract.XXXXXX")
	say "unpacking $tarball ($version)"
	tar -C "$tmp" -xf "$tarball"
	mv "$tmp/linux-source-$base" "$1"
	rmdir "$tmp"
}

git_tree() {
	git -C "$src" -c user.name=mglru_ext -c user.email=mglru_ext@localhost "$@"
}

mkdir -p "$build/src"
case $flavor in
stock)
	src=$build/src/linux-$base-stock
	[ -f "$src/Makefile" ] || extract "$src"
	fragments=(kernel-config/mglru_ext.config "kernel-config/linux-$base.config"
		kernel-config/bench.config)
	;;
patched | debug | bench | source)
	src=$build/src/linux-$base
	# The flavors share this tree: one at a time unpacks and patches it
	# (make -j builds several kernels at once).
	exec 9>"$build/src/.linux-$base.lock"
	flock 9
	if [ ! -d "$src/.git" ]; then
		rm -rf "$src"
		extract "$src"
		say "recording the pristine tree"
		git_tree init -q
		# the source's ~90000 files are stored loose and uncompressed,
		# and never packed in the background: zlib and an automatic gc
		# of the whole source take minutes of a build's CPU
		git_tree config gc.auto 0
		git_tree config core.looseCompression 0
		git_tree add -A -f
		git_tree commit -q -m "linux-source-$base $version as shipped by Debian"
		git_tree tag pristine
	fi
	series_id=$("$repo/scripts/series-id.sh" "$base")
	if [ "$(cat "$src/.mglru-series" 2>/dev/null)" != "$series_id" ]; then
		say "applying the $base series on a clean tree"
		old_head=$(git_tree rev-parse HEAD)
		# Remember when each file the old series touched last changed:
		# files the new series leaves as they were get their time back,
		# so that kbuild doesn't rebuild everything that includes them.
		touched=$(git_tree diff --name-only pristine "$old_head")
		declare -A mtime=()
		for f in $touched; do
			[ -e "$src/$f" ] && mtime[$f]=$(stat -c %Y "$src/$f")
		done
		git_tree reset -q --hard pristine
		git_tree clean -qfdx -e .mglru-series
		tested=$(sed -n 's/^# tested on: //p' "$patches/series")
		python3 "$repo/scripts/series.py" apply "$base" "$src" ||
			die "the series does not apply to linux-source-$base $version (it is tested on ${tested:-?}): rebase kernel-patches/$base"
		for f in "${!mtime[@]}"; do
			[ -e "$src/$f" ] && git_tree diff --quiet "$old_head" HEAD -- "$f" &&
				touch -d "@${mtime[$f]}" "$src/$f"
		done
		echo "$series_id" >"$src/.mglru-series"
	fi
	flock -u 9
	# source: the patched tree alone, for libbpf and bpftool
	[ "$flavor" = source ] && { say "tree ready: $src"; exit 0; }
	fragments=(kernel-config/mglru_ext.config "kernel-config/linux-$base.config"
		kernel-config/mglru_ext-patched.config)
	[ "$flavor" = patched ] || fragments+=("kernel-config/$flavor.config")
	;;
*) die "unknown flavor '$flavor'" ;;
esac

obj=$build/kernel/$base/$flavor
mkdir -p "$obj"
config_id=$(cd "$repo" && cat "${fragments[@]}" | sha256sum | cut -c1-16)
if [ "$(cat "$obj/.mglru-config" 2>/dev/null)" != "$config_id" ] || [ ! -f "$obj/.config" ]; then
	say "configuring: tinyconfig + ${fragments[*]}"
	make -s -C "$src" O="$obj" tinyconfig >/dev/null
	(cd "$repo" && cat "${fragments[@]}") >"$obj/mglru.fragment"
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$obj/mglru.fragment" >/dev/null
	make -s -C "$src" O="$obj" olddefconfig >/dev/null
	# A symbol that didn't make it (typo, unmet dependency) is an error,
	# not a silently different kernel. A later fragment may override an
	# earlier one: only a symbol's last assignment counts.
	missing=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=n) sym=${line%%=*}
			grep -q "^$sym=" "$obj/.config" && { echo "  $sym is set, wanted off"; missing=1; } ;;
		CONFIG_*) grep -qxF "$line" "$obj/.config" || { echo "  $line did not stick"; missing=1; } ;;
		esac
	done < <(awk -F= '/^CONFIG_/ { last[$1] = $0; order[++n] = $1 }
		END { for (i = 1; i <= n; i++) if (!seen[order[i]]++) print last[order[i]] }' \
		"$obj/mglru.fragment")
	[ $missing = 0 ] || die "config fragment not applied (see above)"
	echo "$config_id" >"$obj/.mglru-config"
fi

# "modules" builds no module here, but produces what out-of-tree test
# modules need (Module.symvers, module.lds).
targets=${KBUILD_TARGETS:-bzImage modules}
say "make -j$jobs $targets"
# A progress line every 200 objects: a build is ten minutes of silence
# otherwise. Warnings and errors are on stderr, untouched.
# (MAKEFLAGS cleared: a parent's -s would silence the lines counted.)
MAKEFLAGS= make -C "$src" O="$obj" -j"$jobs" $targets |
	awk -v who="build-kernel[$base/$flavor]" '/^  [A-Z]/ && ++n % 200 == 0 {
		printf "%s: %d objects built\n", who, n; fflush() }'
# The record of what this kernel was built from.
echo "linux-source-$base $version $(sha256sum "$tarball" | cut -d' ' -f1)" >"$obj/.mglru-source"
say "done: $obj/arch/x86/boot/bzImage"
