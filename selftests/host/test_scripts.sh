#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The build's own scripts on bad input: one line on stderr and their own
# exit status, before they touch anything.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/selftests/lib/tap.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

tap_begin
expect_status 4 '^check-space: .* has [0-9]+ GiB free, a first build needs about 1000000 GiB$' \
	"check-space refuses a file system without the room" -- \
	"$repo/scripts/check-space.sh" "$scratch" 1000000
"$repo/scripts/check-space.sh" "$scratch" 0
tap_ok $? "check-space passes a file system with the room"
expect_status 2 "^inputs.sh: no section 'nosuch'$" \
	"results-check's inputs refuse an unknown section" -- \
	"$repo/bench/inputs.sh" nosuch
tap_end
