/* SPDX-License-Identifier: GPL-2.0 */
/* What the kernel says about mglru_ext: support, policies, pins. */
#ifndef MGLRUCTL_KERNEL_H
#define MGLRUCTL_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_COUNTERS 16
#define PIN_ROOT "/sys/fs/bpf/mglru_ext"
#define POLICIES_FILE "/sys/kernel/debug/mglru_ext/policies"
#define EJECT_ALL_FILE "/sys/kernel/mm/mglru_ext/eject_all"

struct counter {
	char name[32];
	uint64_t value;
};

/* One line of the kernel's policy table. */
struct kpolicy {
	uint64_t id;
	char name[64];
	uint64_t cgroup_id;
	char state[16]; /* attached, ejecting, ejected, detached */
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
 * Read the kernel's table of policies, mounting debugfs if needed.
 * Returns the number of entries (at most @max) or -errno.
 */
int kernel_policies(struct kpolicy *out, int max);

/* Parse one line of the table; exposed for the unit tests. */
int kernel_parse_policy_line(const char *line, struct kpolicy *kp);

/* The pin directory of a cgroup id (0: system-wide). */
void pin_dir(uint64_t cgroup_id, char *buf, unsigned long len);

/* Uptime in ns on the boot-time clock, to age attached_ns. */
uint64_t boottime_ns(void);

#endif /* MGLRUCTL_KERNEL_H */
