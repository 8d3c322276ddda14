// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of mglructl's parsing: sizes, integers, booleans, knob
 * assignments, the kernel's status directories and cgroup paths. TAP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* Write @value and a newline to @dir/@name, as a sysfs file reads. */
static void put(const char *dir, const char *name, const char *value)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", value);
		fclose(f);
	}
}

/* A policy directory as the kernel lays it out. */
static void fake_policy(const char *root, const char *id, const char *state)
{
	static const char *const counters[][2] = {
		{ "calls_scan_budget", "10" },
		{ "calls_choose_type", "0" },
		{ "calls_isolate", "0" },
		{ "calls_aging", "5" },
		{ "differed", "2" },
		{ "refused", "32" },
		{ "stalls", "0" },
	};
	char dir[512], cdir[600];
	size_t i;

	snprintf(dir, sizeof(dir), "%s/%s", root, id);
	snprintf(cdir, sizeof(cdir), "%s/counters", dir);
	mkdir(dir, 0755);
	mkdir(cdir, 0755);
	put(dir, "name", "budget");
	put(dir, "cgroup_id", "1234");
	put(dir, "attached_ns", "99");
	put(dir, "state", state);
	put(dir, "exit_kind", "invalid");
	put(dir, "exit_reason", "too many invalid decisions in a row");
	put(dir, "exit_msg", "scan_budget hook returned -1");
	for (i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		put(cdir, counters[i][0], counters[i][1]);
}

static void test_status_dirs(void)
{
	char root[] = "/tmp/test_parse.XXXXXX", cmd[64];
	struct kpolicy kp[4];
	int n;

	if (!mkdtemp(root)) {
		check(0, "status: a directory to fake sysfs in");
		return;
	}
	fake_policy(root, "12", "detached");
	fake_policy(root, "3", "ejected");
	/* not policies: skipped */
	mkdir(strcat(strcpy(cmd, root), "/x1"), 0755);
	n = kernel_policies_at(root, kp, 4);
	check(n == 2, "status: two policy directories read");
	check(n == 2 && kp[0].id == 3 && kp[1].id == 12,
	      "status: in the order of their ids");
	check(n >= 1 && !strcmp(kp[0].name, "budget") &&
		      kp[0].cgroup_id == 1234 && kp[0].attached_ns == 99,
	      "status: name, cgroup, attach time");
	check(n == 2 && kp[0].state == KSTATE_EJECTED &&
		      kp[1].state == KSTATE_DETACHED,
	      "status: states");
	check(n >= 1 && kp[0].nr_counters == 7 &&
		      !strcmp(kp[0].counters[0].name, "calls_aging") &&
		      kp[0].counters[0].value == 5 &&
		      kp_counter(&kp[0], "refused") == 32,
	      "status: counters, by name");
	check(n >= 1 && kp_total_calls(&kp[0]) == 15,
	      "status: calls summed over the hooks");
	check(n >= 1 && !strcmp(kp[0].exit_kind, "invalid") &&
		      !strcmp(kp[0].exit_reason,
			      "too many invalid decisions in a row") &&
		      !strcmp(kp[0].exit_msg, "scan_budget hook returned -1"),
	      "status: exit record");
	put(strcat(strcpy(cmd, root), "/3"), "state", "sideways");
	n = kernel_policies_at(root, kp, 4);
	check(n == 1 && kp[0].id == 12, "status: an unknown state is skipped");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	check(!system(cmd), "status: cleaned up");
	check(kernel_policies_at("/nonexistent", kp, 4) == -ENOENT,
	      "status: no directory is -ENOENT");
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
	test_status_dirs();
	test_cgroups();
	printf("1..%d\n", nr_tests);
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n",
	       nr_tests - nr_failed - nr_skipped, nr_failed, nr_skipped);
	printf("%d passed, %d failed\n", nr_tests - nr_failed - nr_skipped,
	       nr_failed);
	return nr_failed ? 1 : 0;
}
