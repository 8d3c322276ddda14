#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-space.sh DIR GIB: fail with one line, before anything is built,
# when the file system of DIR has less than GIB GiB free. A first
# make check unpacks two kernel trees (each recorded in git), builds a
# kernel from each and the VM's root file system: without the room for
# them it would stop minutes in with a write error deep in a build.
set -euo pipefail
dir=${1:?usage: check-space.sh DIR GIB}
need=${2:?usage: check-space.sh DIR GIB}
mkdir -p "$dir"
free_kib=$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')
free_gib=$((free_kib / 1024 / 1024))
if [ "$free_gib" -lt "$need" ]; then
	echo "check-space: $dir has $free_gib GiB free, a first build needs about $need GiB" >&2
	exit 4
fi
