/* SPDX-License-Identifier: GPL-2.0 */
/* Temporary memory cgroups for run and compare, and what they report. */
#ifndef MGLRUCTL_MEMCG_H
#define MGLRUCTL_MEMCG_H

#include <stddef.h>
#include <stdint.h>

/* What one cgroup's reclaim looked like, from its own files. */
struct memcg_report {
	uint64_t pgscan, pgsteal, pgmajfault;
	uint64_t refault_anon, refault_file, activate_file;
	uint64_t oom, oom_kill;
	uint64_t psi_some_us, psi_full_us; /* memory.pressure totals */
};

/*
 * Create cgroup @name under the cgroup2 root with memory.max @mem and
 * memory.swap.max @swp (NULL: leave alone; sizes as parse_size takes
 * them). Fills @path. Returns 0, or EXIT_BAD_CGROUP (EXIT_NAME_TOO_LONG
 * when the path does not fit @len) after saying why.
 */
int memcg_create(const char *name, const char *mem, const char *swp, char *path,
		 size_t len);

/* Kill what is left in cgroup @path and remove it. */
void memcg_remove(const char *path);

/* Write @val to @dir/@file. 0 or -errno (-ENAMETOOLONG past PATH_MAX). */
int memcg_write(const char *dir, const char *file, const char *val);

/*
 * The value of @key in a "key value" file such as memory.stat; 0 when
 * the file, or the key, is not there.
 */
uint64_t memcg_stat(const char *dir, const char *file, const char *key);

void memcg_read_report(const char *dir, struct memcg_report *r);

#endif /* MGLRUCTL_MEMCG_H */
