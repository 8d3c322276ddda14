/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The config file of apply and daemon: which policy, with which knobs,
 * decides reclaim for which cgroups. An INI file read with libinih:
 *
 *   # comments start with '#' or ';'
 *   [containers]                        a name for the assignment
 *   match = system.slice/docker-*.scope  a glob over cgroup paths (1+)
 *   policy = thrash_aging                a shipped policy or a .bpf.o
 *   min_interval_ms = 200                any other key is a knob of it
 *
 * Patterns are matched with fnmatch(3) against a cgroup's path below the
 * cgroup2 root, without the leading '/'; '*', '?' and '[...]' do not
 * match '/'. No cgroup may match two sections with different policies.
 */
#ifndef MGLRUCTL_CONFIG_H
#define MGLRUCTL_CONFIG_H

#include <limits.h>
#include <stdbool.h>

#include "mglructl.h"

#define DEFAULT_CONFIG "/etc/mglru_ext/policies.conf"
#define MAX_CONFIG_ENTRIES 64
#define SET_LEN 160

#define MAX_PATTERNS 16
#define PATTERN_LEN 512

struct config_entry {
	char name[128]; /* the section */
	char patterns[MAX_PATTERNS][PATTERN_LEN];
	int pattern_lines[MAX_PATTERNS];
	int nr_patterns;
	char policy[PATH_MAX]; /* as written */
	char path[PATH_MAX]; /* the object it names */
	char sets[MAX_SETS][SET_LEN]; /* "knob=value" */
	int nr_sets;
	int line; /* of the section header */
	char hash[17]; /* of the object and knobs: what is attached */
};

struct config {
	char file[PATH_MAX];
	struct config_entry entries[MAX_CONFIG_ENTRIES];
	int nr_entries;
};

/*
 * Read and validate @file: syntax, patterns, that each policy exists and
 * takes its knobs with those values, no two patterns that can match one
 * cgroup with different assignments. Returns 0, or EXIT_BAD_CONFIG after
 * printing one line "FILE:LINE: reason".
 */
int config_load(const char *file, struct config *c);

/* The entry whose pattern matches cgroup @rel ("a/b"), or NULL. */
const struct config_entry *config_match(const struct config *c,
					const char *rel);

/* Can some path match both globs? Exposed for the unit tests. */
bool globs_overlap(const char *a, const char *b);

/* NULL when @glob is a valid pattern, else what is wrong with it. */
const char *glob_error(const char *glob);

#endif /* MGLRUCTL_CONFIG_H */
