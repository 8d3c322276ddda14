// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "memcg.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "errors.h"
#include "parse.h"

int memcg_write(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX];
	FILE *f;
	int ret;

	if (xsnprintf(path, sizeof(path), "%s/%s", dir, file))
		return -ENAMETOOLONG;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ret = fputs(val, f) < 0 ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static int set_limit(const char *dir, const char *file, const char *size)
{
	char num[32];
	uint64_t bytes;
	int ret;

	if (parse_size(size, &bytes))
		return fail(EXIT_USAGE, "bad size '%s' for %s", size, file);
	snprintf(num, sizeof(num), bytes == UINT64_MAX ? "max" : "%llu",
		 (unsigned long long)bytes);
	ret = memcg_write(dir, file, num);
	if (ret)
		return fail(EXIT_BAD_CGROUP, "setting %s: %s", file,
			    strerror(-ret));
	return 0;
}

int memcg_create(const char *name, const char *mem, const char *swp, char *path,
		 size_t len)
{
	char root[PATH_MAX];
	uint64_t id;
	int ret = 0;

	/* a cgroup v1 or hybrid host has a tmpfs there: mkdir would "work" */
	if (cgroup_resolve(CGROUP_ROOT, root, sizeof(root), &id))
		return fail(
			EXIT_BAD_CGROUP,
			"%s is not a cgroup v2 mount: run and compare need the unified hierarchy",
			CGROUP_ROOT);

	if (xsnprintf(path, len, "%s/%s", CGROUP_ROOT, name))
		return fail_too_long("cgroup path", path);
	if (mkdir(path, 0755))
		return fail(EXIT_BAD_CGROUP, "cannot create cgroup %s: %s",
			    path, strerror(errno));
	if (mem)
		ret = set_limit(path, "memory.max", mem);
	if (!ret && swp)
		ret = set_limit(path, "memory.swap.max", swp);
	if (ret)
		memcg_remove(path);
	return ret;
}

void memcg_remove(const char *path)
{
	int tries;

	memcg_write(path, "cgroup.kill", "1");
	for (tries = 0; rmdir(path) && errno == EBUSY && tries < 100; tries++)
		usleep(20000);
}

uint64_t memcg_stat(const char *dir, const char *file, const char *key)
{
	char path[PATH_MAX], k[64];
	unsigned long long v;
	uint64_t val = 0;
	FILE *f;

	if (xsnprintf(path, sizeof(path), "%s/%s", dir, file))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fscanf(f, "%63s %llu", k, &v) == 2)
		if (!strcmp(k, key))
			val = v;
	fclose(f);
	return val;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=N", then "full ...". */
static void read_pressure(const char *dir, struct memcg_report *r)
{
	char path[PATH_MAX], line[256];
	unsigned long long total;
	const char *t;
	FILE *f;

	if (xsnprintf(path, sizeof(path), "%s/memory.pressure", dir))
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		t = strstr(line, "total=");
		if (!t || sscanf(t, "total=%llu", &total) != 1)
			continue;
		if (!strncmp(line, "some ", 5))
			r->psi_some_us = total;
		else if (!strncmp(line, "full ", 5))
			r->psi_full_us = total;
	}
	fclose(f);
}

void memcg_read_report(const char *dir, struct memcg_report *r)
{
	memset(r, 0, sizeof(*r));
	r->pgscan = memcg_stat(dir, "memory.stat", "pgscan");
	r->pgsteal = memcg_stat(dir, "memory.stat", "pgsteal");
	r->pgmajfault = memcg_stat(dir, "memory.stat", "pgmajfault");
	r->refault_anon =
		memcg_stat(dir, "memory.stat", "workingset_refault_anon");
	r->refault_file =
		memcg_stat(dir, "memory.stat", "workingset_refault_file");
	r->activate_file =
		memcg_stat(dir, "memory.stat", "workingset_activate_file");
	r->oom = memcg_stat(dir, "memory.events", "oom");
	r->oom_kill = memcg_stat(dir, "memory.events", "oom_kill");
	read_pressure(dir, r);
}
