/* SPDX-License-Identifier: GPL-2.0 */
/* cgroup v2 paths and ids. */
#ifndef MGLRUCTL_CGROUP_H
#define MGLRUCTL_CGROUP_H

#include <stddef.h>
#include <stdint.h>

#define CGROUP_ROOT "/sys/fs/cgroup"

/*
 * Resolve a cgroup given as an absolute path on a cgroup2 mount, or as a
 * path relative to /sys/fs/cgroup ("workload/a" or "/workload/a" when it
 * doesn't exist as such). Fills @abs (the absolute path) and @id (the
 * cgroup id the kernel uses, the directory's inode number).
 *
 * Returns 0, -ENOENT (no such directory), -ENOTDIR (not a directory),
 * -EMEDIUMTYPE (not on a cgroup v2 file system) or -ENAMETOOLONG (past
 * PATH_MAX or NAME_MAX).
 */
int cgroup_resolve(const char *path, char *abs, size_t abs_len, uint64_t *id);

/*
 * Find the path of cgroup @id under @root; "/" for the root itself.
 * Returns 0, -ENOENT, or -ENAMETOOLONG when it does not fit @len.
 */
int cgroup_path_of(const char *root, uint64_t id, char *path, size_t len);

#endif /* MGLRUCTL_CGROUP_H */
