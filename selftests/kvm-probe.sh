#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kvm-probe.sh BZIMAGE: print "kvm" if a KVM guest boots this kernel and
# runs a command within 30 s, else "tcg". On these machines a KVM guest
# hangs at "Booting from ROM", so KVM is only used when proven to work.
# The answer is cached per kernel in build/vm/kvm-probe.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
kernel=$1
cache=$repo/build/vm/kvm-probe
key=$(stat -c %Y-%s "$kernel")
if [ -f "$cache" ] && [ "$(cut -d' ' -f1 "$cache")" = "$key" ]; then
	cut -d' ' -f2 "$cache"
	exit 0
fi
answer=tcg
if [ -w /dev/kvm ] &&
	VM_ACCEL=kvm "$repo/selftests/vm-run.sh" --quiet --kernel "$kernel" --timeout 30 -- true >/dev/null 2>&1; then
	answer=kvm
fi
mkdir -p "$(dirname "$cache")"
echo "$key $answer" >"$cache"
echo "$answer"
