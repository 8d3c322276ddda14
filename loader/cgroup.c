// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "cgroup.h"

#include <errno.h>
#include <ftw.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "errors.h"

static int check_cgroup_dir(const char *path, uint64_t *id)
{
	struct statfs fs;
	struct stat st;

	if (stat(path, &st))
		return errno == ENAMETOOLONG ? -ENAMETOOLONG : -ENOENT;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (statfs(path, &fs) || fs.f_type != CGROUP2_SUPER_MAGIC)
		return -EMEDIUMTYPE;

	*id = st.st_ino;
	return 0;
}

int cgroup_resolve(const char *path, char *abs, size_t abs_len, uint64_t *id)
{
	int ret;

	if (path[0] == '/') {
		if ((size_t)snprintf(abs, abs_len, "%s", path) >= abs_len)
			return -ENAMETOOLONG;
		ret = check_cgroup_dir(abs, id);
		/* "/workload" may mean /sys/fs/cgroup/workload */
		if (ret != -ENOENT ||
		    !strncmp(path, CGROUP_ROOT "/", strlen(CGROUP_ROOT) + 1))
			return ret;
	}

	while (*path == '/')
		path++;
	if ((size_t)snprintf(abs, abs_len, "%s%s%s", CGROUP_ROOT,
			     *path ? "/" : "", path) >= abs_len)
		return -ENAMETOOLONG;
	return check_cgroup_dir(abs, id);
}

static uint64_t wanted_id;
static char *found_path;
static size_t found_len;
static size_t root_len;
static int found_ret;

static int match_id(const char *fpath, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_D || st->st_ino != wanted_id)
		return 0;
	found_ret = xsnprintf(found_path, found_len, "%s",
			      fpath[root_len] ? fpath + root_len : "/");
	return 1;
}

int cgroup_path_of(const char *root, uint64_t id, char *path, size_t len)
{
	wanted_id = id;
	found_path = path;
	found_len = len;
	root_len = strlen(root);
	if (nftw(root, match_id, 16, FTW_PHYS | FTW_MOUNT) != 1)
		return -ENOENT;
	return found_ret;
}
