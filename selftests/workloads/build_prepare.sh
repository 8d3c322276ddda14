#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build_prepare.sh OUT.tar: the root file system parallel_build compiles
# in, made on the host once: make, sh, the gcc driver, cc1 and as with the
# libraries they load, the C tree it compiles (loader/, mglructl's
# sources) and every header those sources include, each at its host path.
# The guest unpacks it into tmpfs and chroots into it, so that no page the
# build reads comes over 9p while it is measured. Compiling only (-c, no
# link) keeps the linker and the C library's link-time files out.
set -euo pipefail
out=${1:?usage: build_prepare.sh OUT.tar}
repo=$(cd "$(dirname "$0")/../.." && pwd)
cflags="-O2 -Wall -std=gnu11 -I$repo/include -I$repo/build/tools/libbpf/include -I$repo/loader"

[ -d "$repo/build/tools/libbpf/include" ] ||
	{ echo "build_prepare: libbpf's headers are missing (make tools)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root/tmp" "$root/dev"

bins=(/usr/bin/make /bin/sh "$(command -v gcc)" "$(gcc -print-prog-name=cc1)" "$(command -v as)")
files=()
for bin in "${bins[@]}"; do
	files+=("$bin")
	while read -r lib; do files+=("$lib"); done < <(ldd "$bin" |
		awk '/=> \// { print $3 } /^\t\// { print $1 }')
done
sources=("$repo"/loader/*.c)
files+=("${sources[@]}")
# every header the sources include, as gcc -M finds them
while read -r header; do files+=("$header"); done < <(
	for src in "${sources[@]}"; do
		# shellcheck disable=SC2086 # $cflags is a list of flags
		gcc $cflags -M -MT x "$src"
	done | tr ' \\' '\n\n' | grep '\.h$' | sort -u)
# /bin and /usr/bin may be one directory through a symlink (usrmerge)
for d in bin lib lib64 sbin; do
	[ -L "/$d" ] && mkdir -p "$root/usr/$d" && ln -s "$(readlink "/$d")" "$root/$d"
done
# each file at the path it is used by, as a copy of what it names
printf '%s\n' "${files[@]#/}" | sort -u |
	tar -C / -cf - --no-recursion --dereference -T - | tar -C "$root" -xf -

# The build: one object per source, as make -jN schedules them
{
	echo "# parallel_build's build: every source of $repo/loader to an object"
	echo "CFLAGS := $cflags -pipe"
	echo "OBJS := $(for s in "${sources[@]}"; do printf '/obj/%s.o ' "$(basename "$s" .c)"; done)"
	echo "all: \$(OBJS)"
	echo "/obj/%.o: $repo/loader/%.c"
	printf '\tgcc $(CFLAGS) -c $< -o $@\n'
} >"$root/Makefile"
mkdir -p "$root/obj"
mkdir -p "$(dirname "$out")"
tar -C "$root" -cf "$out.tmp" .
mv "$out.tmp" "$out"
echo "build_prepare: ${#sources[@]} sources, $(du -h "$out" | cut -f1) in $out"
