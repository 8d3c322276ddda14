/* SPDX-License-Identifier: GPL-2.0 */
/* What the kernel says about mglru_ext: support, policies, pins. */
#ifndef MGLRUCTL_KERNEL_H
#define MGLRUCTL_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_COUNTERS 16
#define PIN_ROOT "/sys/fs/bpf/mglru_ext"
#define POLICIES_DIR "/sys/kernel/mm/mglru_ext/policies"
#define EJECT_ALL_FILE "/sys/kernel/mm/mglru_ext/eject_all"

struct counter {
	char name[32];
	uint64_t value;
};

/* Where a policy is in its life, as the kernel's table says. */
enum kstate {
	KSTATE_UNKNOWN,
	KSTATE_ATTACHED,
	KSTATE_EJECTING,
	KSTATE_EJECTED, /* stopped deciding; detached once unpinned */
	KSTATE_DETACHED, /* history: its exit record */
};

/* "attached", ... as the kernel spells them. */
const char *kstate_name(enum kstate state);

/* One policy as the kernel reports it. */
struct kpolicy {
	uint64_t id;
	char name[64];
	uint64_t cgroup_id;
	enum kstate state;
	uint64_t attached_ns;
	struct counter counters[MAX_COUNTERS];
	int nr_counters;
	char exit_kind[16];
	char exit_reason[160];
	char exit_msg[160];
};

/* Does the running kernel have mglru_ext (its BTF knows the ops type)? */
bool kernel_has_mglru_ext(void);

/* Is a bpffs mounted at /sys/fs/bpf? */
bool bpffs_mounted(void);

/*
 * Read the kernel's policies from sysfs (POLICIES_DIR/ID/, one value per
 * file, counters/NAME; Documentation/ABI/testing/sysfs-kernel-mm-mglru_ext
 * in the series), in the order of their ids, counters by name.
 * Returns the number of entries (at most @max) or -errno.
 */
int kernel_policies(struct kpolicy *out, int max);

/* A counter of @kp by name, 0 when the kernel has no such counter. */
uint64_t kp_counter(const struct kpolicy *kp, const char *name);

/* The hook calls of @kp, all hooks together. */
uint64_t kp_total_calls(const struct kpolicy *kp);

/* The same from another directory, and of one policy; for the unit tests. */
int kernel_policies_at(const char *root, struct kpolicy *out, int max);
int kernel_read_policy(int dir, struct kpolicy *kp);

/*
 * The one place pin paths are made: PIN_ROOT/system or
 * PIN_ROOT/cgroup-<id> for a cgroup id (0: system-wide), and with @leaf
 * the entry below it ("link", or a config marker). 0, or -ENAMETOOLONG
 * when @len is too short (never for a PATH_MAX buffer and a short @leaf).
 */
int pin_path(uint64_t cgroup_id, const char *leaf, char *buf, size_t len);

/* Uptime in ns on the boot-time clock, to age attached_ns. */
uint64_t boottime_ns(void);

/* CLOCK_MONOTONIC in seconds, for durations and deadlines. */
double monotonic_s(void);

#endif /* MGLRUCTL_KERNEL_H */
