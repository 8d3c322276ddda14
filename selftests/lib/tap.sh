# SPDX-License-Identifier: GPL-2.0
# Minimal TAP 13 helpers for the bash selftests (kselftest style).
#
#   tap_begin
#   tap_ok COND_STATUS NAME      0 = pass
#   tap_skip NAME REASON
#   expect_status CODE 'REGEX' NAME -- CMD...
#                                CMD must exit with CODE and print a line
#                                matching REGEX on stderr
#   tap_end                      prints the totals; returns 1 on failures,
#                                4 (kselftest skip) when everything skipped
#   tap_totals OUTPUT            "P F" from a suite's last "P passed, F failed"
#                                line; nothing when it has none
#   tap_add OUTPUT               adds a suite's totals to the caller's pass and
#                                fail; a suite with none counts as one failure
#
# A test that took 10 s or more since the previous one is followed by a
# diagnostic line "# took N s", so a slow suite shows where its time goes.

TAP_N=0
TAP_PASS=0
TAP_FAIL=0
TAP_SKIP=0
TAP_LAST=$SECONDS

tap_begin() {
	echo "TAP version 13"
}

tap_took() {
	local took=$((SECONDS - TAP_LAST))
	[ $took -lt 10 ] || echo "# took $took s"
	TAP_LAST=$SECONDS
}

tap_ok() { # STATUS NAME [DIAG]
	TAP_N=$((TAP_N + 1))
	if [ "$1" = 0 ]; then
		TAP_PASS=$((TAP_PASS + 1))
		echo "ok $TAP_N $2"
	else
		TAP_FAIL=$((TAP_FAIL + 1))
		echo "not ok $TAP_N $2"
		[ -n "${3:-}" ] && echo "$3" | sed 's/^/# /'
	fi
	tap_took
	return 0
}

tap_skip() { # NAME REASON
	TAP_N=$((TAP_N + 1))
	TAP_SKIP=$((TAP_SKIP + 1))
	echo "ok $TAP_N $1 # SKIP $2"
	tap_took
}

expect_status() { # CODE REGEX NAME -- CMD...
	local code=$1 regex=$2 name=$3 out rc
	shift 4
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = "$code" ] && { [ -z "$regex" ] || grep -qE -- "$regex" <<<"$out"; }; then
		tap_ok 0 "$name"
	else
		tap_ok 1 "$name" "expected status $code and /$regex/, got $rc: $out"
	fi
}

tap_end() {
	echo "1..$TAP_N"
	echo "# Totals: pass:$TAP_PASS fail:$TAP_FAIL xfail:0 xpass:0 skip:$TAP_SKIP error:0"
	echo "$TAP_PASS passed, $TAP_FAIL failed"
	[ $TAP_FAIL = 0 ] || return 1
	[ $TAP_PASS = 0 ] && [ $TAP_SKIP -gt 0 ] && return 4
	return 0
}

tap_totals() { # OUTPUT
	sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' <<<"$1" | tail -1
}

tap_add() { # OUTPUT
	local p f
	read -r p f < <(tap_totals "$1")
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-1}))
}
