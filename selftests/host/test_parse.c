// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of mglructl's parsing: sizes, integers, booleans, knob
 * assignments, the kernel's policy table lines and cgroup paths. TAP.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../loader/cgroup.h"
#include "../../loader/kernel.h"
#include "../../loader/parse.h"

static int nr_tests, nr_failed, nr_skipped;

static void check(int ok, const char *name)
{
	nr_tests++;
	if (!ok)
		nr_failed++;
	printf("%sok %d %s\n", ok ? "" : "not ", nr_tests, name);
}

static void test_sizes(void)
{
	uint64_t v;

	check(!parse_size("4096", &v) && v == 4096, "size: plain bytes");
	check(!parse_size("16M", &v) && v == 16ULL << 20, "size: 16M");
	check(!parse_size("16m", &v) && v == 16ULL << 20,
	      "size: lower-case suffix");
	check(!parse_size("2GiB", &v) && v == 2ULL << 30, "size: GiB");
	check(!parse_size("1KB", &v) && v == 1024, "size: KB");
	check(!parse_size("1T", &v) && v == 1ULL << 40, "size: T");
	check(!parse_size("max", &v) && v == UINT64_MAX, "size: max");
	check(!parse_size("0", &v) && v == 0, "size: zero");
	check(parse_size("", &v) == -EINVAL, "size: empty refused");
	check(parse_size("-1M", &v) == -EINVAL, "size: negative refused");
	check(parse_size("12Q", &v) == -EINVAL, "size: unknown suffix refused");
	check(parse_size("1.5G", &v) == -EINVAL, "size: fraction refused");
	check(parse_size("M", &v) == -EINVAL, "size: suffix alone refused");
	check(parse_size("99999999999999999999", &v) == -EINVAL,
	      "size: overflow refused");
	check(parse_size("17179869184G", &v) == -EINVAL,
	      "size: shifted overflow refused");
	check(parse_size("16M ", &v) == -EINVAL, "size: trailing junk refused");
}

static void test_integers(void)
{
	int64_t s;
	uint64_t u;
	bool b;

	check(!parse_s64("-5", -10, 10, &s) && s == -5,
	      "s64: negative in range");
	check(parse_s64("11", -10, 10, &s) == -ERANGE, "s64: above max");
	check(parse_s64("-11", -10, 10, &s) == -ERANGE, "s64: below min");
	check(!parse_s64("0x10", 0, 100, &s) && s == 16, "s64: hex");
	check(parse_s64("abc", 0, 100, &s) == -EINVAL, "s64: not a number");
	check(parse_s64(" 5", 0, 100, &s) == -EINVAL, "s64: leading space");
	check(parse_s64("5x", 0, 100, &s) == -EINVAL, "s64: trailing junk");
	check(!parse_u64("18446744073709551615", 0, UINT64_MAX, &u) &&
		      u == UINT64_MAX,
	      "u64: full range");
	check(parse_u64("18446744073709551616", 0, UINT64_MAX, &u) == -ERANGE,
	      "u64: overflow is out of range");
	check(parse_u64("-1", 0, 100, &u) == -EINVAL, "u64: minus refused");
	check(parse_u64("0", 1, 100, &u) == -ERANGE, "u64: below min");
	check(!parse_bool("true", &b) && b, "bool: true");
	check(!parse_bool("OFF", &b) && !b, "bool: OFF");
	check(parse_bool("2", &b) == -EINVAL, "bool: 2 refused");
}

static void test_assignments(void)
{
	char name[8];
	const char *val;

	check(!split_assignment("a=1", name, sizeof(name), &val) &&
		      !strcmp(name, "a") && !strcmp(val, "1"),
	      "assignment: a=1");
	check(!split_assignment("a=b=c", name, sizeof(name), &val) &&
		      !strcmp(val, "b=c"),
	      "assignment: value keeps '='");
	check(split_assignment("a", name, sizeof(name), &val) == -EINVAL,
	      "assignment: no '='");
	check(split_assignment("=1", name, sizeof(name), &val) == -EINVAL,
	      "assignment: empty name");
	check(split_assignment("a=", name, sizeof(name), &val) == -EINVAL,
	      "assignment: empty value");
	check(split_assignment("longername=1", name, sizeof(name), &val) ==
		      -EINVAL,
	      "assignment: name too long");
}

static void test_table_lines(void)
{
	struct kpolicy kp;
	const char *line =
		"id=3 name=budget cgroup_id=1234 state=ejected attached_ns=99 "
		"calls_budget=10 calls_type=0 calls_isolate=0 calls_aging=5 "
		"differed=2 refused=32 clamped=0 fallbacks=0 throttles=0 agings=1 "
		"stalls=0 exit_kind=invalid exit_reason=\"too many invalid decisions in a row\" "
		"exit_msg=\"budget hook returned -1\"\n";

	check(!kernel_parse_policy_line(line, &kp), "table: line parses");
	check(kp.id == 3 && !strcmp(kp.name, "budget") && kp.cgroup_id == 1234,
	      "table: id, name, cgroup");
	check(kp.state == KSTATE_EJECTED && kp.attached_ns == 99,
	      "table: state");
	check(kp.nr_counters == 11 && !strcmp(kp.counters[5].name, "refused") &&
		      kp.counters[5].value == 32,
	      "table: counters");
	check(!strcmp(kp.exit_kind, "invalid") &&
		      !strcmp(kp.exit_reason,
			      "too many invalid decisions in a row") &&
		      !strcmp(kp.exit_msg, "budget hook returned -1"),
	      "table: quoted exit record");
	check(kernel_parse_policy_line("garbage\n", &kp) == -EINVAL,
	      "table: garbage refused");
	check(kernel_parse_policy_line("id=1 state=attached\n", &kp) == -EINVAL,
	      "table: line without a name refused");
}

static void test_cgroups(void)
{
	char abs[256];
	uint64_t id;
	int ret;

	check(cgroup_resolve("/no/such/cgroup-xyz", abs, sizeof(abs), &id) ==
		      -ENOENT,
	      "cgroup: missing path");
	check(cgroup_resolve("no-such-cgroup-xyz", abs, sizeof(abs), &id) ==
			      -ENOENT &&
		      !strcmp(abs, "/sys/fs/cgroup/no-such-cgroup-xyz"),
	      "cgroup: relative path is under /sys/fs/cgroup");
	check(cgroup_resolve("/proc", abs, sizeof(abs), &id) == -EMEDIUMTYPE,
	      "cgroup: /proc is not cgroup v2");
	check(cgroup_resolve("/etc/hostname", abs, sizeof(abs), &id) ==
		      -ENOTDIR,
	      "cgroup: a file is not a cgroup");
	ret = cgroup_resolve("/", abs, sizeof(abs), &id);
	check(ret == -EMEDIUMTYPE, "cgroup: / is not cgroup v2");
	ret = cgroup_resolve(CGROUP_ROOT, abs, sizeof(abs), &id);
	if (ret == -EMEDIUMTYPE) {
		printf("ok %d cgroup: root resolves # SKIP no cgroup v2 at %s\n",
		       ++nr_tests, CGROUP_ROOT);
		nr_skipped++;
		return;
	}
	check(!ret && id > 0, "cgroup: root resolves");
	check(cgroup_resolve(CGROUP_ROOT, abs, 4, &id) == -ENAMETOOLONG,
	      "cgroup: path longer than the buffer refused");
}

int main(void)
{
	printf("TAP version 13\n");
	test_sizes();
	test_integers();
	test_assignments();
	test_table_lines();
	test_cgroups();
	printf("1..%d\n", nr_tests);
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n",
	       nr_tests - nr_failed - nr_skipped, nr_failed, nr_skipped);
	printf("%d passed, %d failed\n", nr_tests - nr_failed - nr_skipped,
	       nr_failed);
	return nr_failed ? 1 : 0;
}
