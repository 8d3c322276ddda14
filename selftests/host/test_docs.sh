#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# docs/policy-api.md is the interface a policy is written against, kept by
# hand from the series' public header (include/linux/mglru_ext.h in the
# applied 7.3 tree): every member of struct mglru_ext_ops,
# mglru_ext_ctx, mglru_ext_lru, mglru_ext_folio_ctx and
# mglru_ext_exit_info, every enumerator of the header's enums, and every
# kfunc the series adds, named there in backticks. A member added to the
# header without a line in the page fails here.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/selftests/lib/tap.sh"
hdr=$repo/build/src/linux-7.3/include/linux/mglru_ext.h
doc=$repo/docs/policy-api.md

tap_begin
if [ ! -f "$hdr" ]; then
	tap_skip "policy-api.md names the header's interface" "no applied 7.3 tree (make kernel)"
	tap_end
	exit $?
fi
# the members of a struct: the identifier before ';', '[' or ')('
members() { # STRUCT
	sed -n "/^struct $1 {/,/^};/p" "$hdr" | sed -e '1d;$d' -e '/^\s*\/\?\*/d' |
		sed -n -e 's/.*(\*\([a-z_]*\))(.*/\1/p' -e 's/.*[ *]\([a-z_][a-z_0-9]*\)\(\[[^]]*\]\)*;.*/\1/p'
}
enumerators() {
	sed -n '/^enum mglru_ext_[a-z_]* {/,/^};/p' "$hdr" |
		sed -n 's/^\s*\(MGLRU_EXT_[A-Z_0-9]*\).*/\1/p'
}
for s in mglru_ext_ops mglru_ext_ctx mglru_ext_lru mglru_ext_folio_ctx mglru_ext_exit_info; do
	missing=
	for m in $(members "$s"); do
		grep -q "\`[^\`]*\b$m\b[^\`]*\`" "$doc" || missing="$missing $m"
	done
	n=$(members "$s" | wc -l)
	[ "$n" -gt 0 ] && [ -z "$missing" ]
	tap_ok $? "policy-api.md names the $n members of struct $s" "missing:$missing"
done
missing=
for e in $(enumerators); do
	grep -q "\`[^\`]*\b$e\b[^\`]*\`" "$doc" || missing="$missing $e"
done
[ -z "$missing" ]
tap_ok $? "policy-api.md names the $(enumerators | wc -l) enumerators of the header's enums" "missing:$missing"
missing=
kfuncs=$(sed -n 's/^__bpf_kfunc [a-z0-9_ ]*\b\(bpf_mglru_ext_[a-z_]*\)(.*/\1/p' \
	"$repo/build/src/linux-7.3/mm/mglru_ext.c")
for k in $kfuncs; do
	grep -q "\`$k\b" "$doc" || missing="$missing $k"
done
[ -n "$kfuncs" ] && [ -z "$missing" ]
tap_ok $? "policy-api.md names every kfunc of mm/mglru_ext.c ($(echo $kfuncs))" "missing:$missing"
tap_end
