#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-linux-source.sh BASE: bring linux-source-BASE from Debian's archive
# without installing it or touching the host's packages, for a base that
# the host's own release does not carry (7.3 is in trixie-backports and
# sid; this machine runs Debian 12).
#
# A private apt configuration under build/apt/ (its own sources list,
# package lists and cache) downloads the current .deb of the package, and
# it is unpacked under build/deb/linux-source-BASE/. No version is pinned:
# the archive keeps only the current point release. build/deb/
# linux-source-BASE.version records the version and the .deb's sha256;
# build-kernel.sh puts both in each kernel's build record and names the
# version when the series does not apply to it.
#
# Quick when the package is unpacked already.
set -euo pipefail
base=${1:?usage: fetch-linux-source.sh BASE}
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$repo/build
pkg=linux-source-$base
apt_dir=$build/apt
deb_dir=$build/deb
suites=${FETCH_SUITES:-trixie-backports sid}
mirror=${FETCH_MIRROR:-http://deb.debian.org/debian}

die() { echo "fetch-linux-source: $*" >&2; exit 1; }

[ -r "$deb_dir/$pkg/usr/src/$pkg.tar.xz" ] && [ -s "$deb_dir/$pkg.version" ] && exit 0

mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$deb_dir"
for s in $suites; do
	echo "deb $mirror $s main"
done >"$apt_dir/sources.list"
apt_opts=(-o Dir::Etc::SourceList="$apt_dir/sources.list"
	-o Dir::Etc::SourceParts=/dev/null
	-o Dir::State::Lists="$apt_dir/lists"
	-o Dir::Cache="$apt_dir/cache"
	-o APT::Sandbox::User=root)

echo "fetch-linux-source: $pkg from $mirror ($suites)"
apt-get "${apt_opts[@]}" -q update >"$apt_dir/update.log" 2>&1 ||
	die "apt-get update of $suites failed (see $apt_dir/update.log)"
version=$(apt-cache "${apt_opts[@]}" policy "$pkg" | awk '/Candidate:/ { print $2 }')
[ -n "$version" ] && [ "$version" != "(none)" ] ||
	die "$pkg is in none of $suites at $mirror"
rm -f "$deb_dir"/"$pkg"_*.deb
(cd "$deb_dir" && apt-get "${apt_opts[@]}" -q download "$pkg=$version" >"$apt_dir/download.log" 2>&1) ||
	die "apt-get download $pkg=$version failed (see $apt_dir/download.log)"
deb=$(ls "$deb_dir"/"$pkg"_*.deb)
sum=$(sha256sum "$deb" | cut -d' ' -f1)
rm -rf "$deb_dir/$pkg"
dpkg-deb -x "$deb" "$deb_dir/$pkg"
[ -r "$deb_dir/$pkg/usr/src/$pkg.tar.xz" ] || die "$deb holds no usr/src/$pkg.tar.xz"
rm -f "$deb"
echo "$version deb-sha256:$sum" >"$deb_dir/$pkg.version"
echo "fetch-linux-source: $pkg $version (sha256 $sum) in $deb_dir/$pkg"
