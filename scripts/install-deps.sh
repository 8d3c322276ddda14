#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh PACKAGE...: install the Debian packages that are missing.
# Quick when everything is present: one dpkg-query, no apt-get.
set -euo pipefail

missing=()
for pkg in "$@"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
[ "$(id -u)" = 0 ] || { echo "install-deps: must run as root to apt-get install" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; then
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
