#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# first-session.sh: the session README.md shows ("A first session"), run
# for real in the guest (selftests/vm-run.sh -- scripts/first-session.sh):
# a memcg, the shipped policies, one loaded on it while a file is read
# through it, its status, and a side-by-side compare. Prints each command
# after "$ " and what it printed.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
export PATH=$repo/build/bin:$PATH
scratch=${MGLRU_SCRATCH:-/tmp}
run() {
	echo "\$ $*"
	"$@" 2>&1
}

# files nothing has in the page cache yet: their pages are charged to
# the memcg that reads them
cd "$scratch" || exit 1
echo "\$ cd $scratch; for f in data data.A data.B; do dd if=/dev/urandom of=\$f bs=1M count=96 status=none; done"
for f in data data.A data.B; do
	dd if=/dev/urandom of="$f" bs=1M count=96 status=none
done
sync
echo 3 >/proc/sys/vm/drop_caches
echo "\$ mkdir /sys/fs/cgroup/try; echo 64M > /sys/fs/cgroup/try/memory.max"
mkdir /sys/fs/cgroup/try
echo 64M >/sys/fs/cgroup/try/memory.max
run mglructl list
run mglructl load thrash_aging --cgroup try
echo "\$ sh -c 'echo \$\$ > /sys/fs/cgroup/try/cgroup.procs; exec cat data data data' > /dev/null"
sh -c 'echo $$ > /sys/fs/cgroup/try/cgroup.procs; exec cat data data data' >/dev/null
echo 3 >/proc/sys/vm/drop_caches
run mglructl status
run mglructl unload thrash_aging
# compare runs the command in two sibling memcgs at once: each side
# reads its own file (MGLRUCTL_SIDE is A or B), dropped from the page
# cache first
cmd='f=data.$MGLRUCTL_SIDE; dd if=$f iflag=nocache count=0 status=none; cat $f $f $f > /dev/null'
echo "\$ mglructl compare --policy thrash_aging --memory-max 64M --repeat 3 -- sh -c '$cmd'"
mglructl compare --policy thrash_aging --memory-max 64M --repeat 3 -- sh -c "$cmd" 2>&1
