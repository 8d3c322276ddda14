#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# load_time.sh: the iteration section's guest, in the guest: how long
# mglructl takes to load thrash_aging (its start and end, date +%s.%N, in
# /run/results/load_time); then unloads it.
set -u
s=$(date +%s.%N)
build/bin/mglructl load thrash_aging >/dev/null || exit
e=$(date +%s.%N)
build/bin/mglructl unload thrash_aging >/dev/null
echo "$s $e" >/run/results/load_time
