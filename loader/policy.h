/* SPDX-License-Identifier: GPL-2.0 */
/* A policy object: finding it, its knobs, loading and attaching it. */
#ifndef MGLRUCTL_POLICY_H
#define MGLRUCTL_POLICY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_KNOBS 32
#define NAME_LEN 64

struct bpf_object;
struct bpf_map;
struct bpf_link;

struct btf_type;

struct knob {
	char name[NAME_LEN];
	char doc[256];
	char min[32], max[32]; /* as declared, "" when not declared */
	char dflt[32];
	unsigned int size; /* bytes */
	bool is_signed;
	bool is_bool;
	/* an enum knob's type, whose names it takes; NULL otherwise */
	const struct btf_type *enum_type;
	unsigned int offset; /* in the .rodata map */
};

struct policy {
	char path[PATH_MAX];
	char file_name[NAME_LEN]; /* file name without .bpf.o */
	char name[NAME_LEN]; /* the struct_ops .name */
	char desc[256];
	struct bpf_object *obj;
	struct bpf_map *ops;
	struct bpf_map *rodata;
	struct knob knobs[MAX_KNOBS];
	int nr_knobs;
};

/* The directory shipped policies live in. */
const char *policy_dir(void);

/*
 * Resolve POLICY|FILE.bpf.o to a path: anything with a '/' or ending in
 * ".o" is a file, anything else a shipped policy's name.
 * Returns 0 or an EXIT_* status after printing why.
 */
int policy_locate(const char *arg, char *path, size_t len);

/*
 * Open (not load) a policy object. Returns 0, EXIT_BAD_OBJECT or
 * EXIT_NAME_TOO_LONG.
 */
int policy_open(struct policy *p, const char *path);

/* Apply one NAME=VALUE knob setting. Returns 0 or EXIT_BAD_KNOB. */
int policy_set_knob(struct policy *p, const char *assignment);

/* Target a cgroup (0: system-wide). */
int policy_set_cgroup(struct policy *p, uint64_t cgroup_id);

/*
 * Load into the kernel. Returns 0, EXIT_PERMISSION, EXIT_VERIFIER (with
 * the verifier's summary line printed) or EXIT_FAILURE_OTHER.
 */
int policy_load(struct policy *p);

/* Attach; @link is the new link. Returns 0 or an EXIT_* status. */
int policy_attach(struct policy *p, const char *cgroup_desc,
		  struct bpf_link **link);

void policy_close(struct policy *p);

#endif /* MGLRUCTL_POLICY_H */
