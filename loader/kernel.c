// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "kernel.h"

#include <bpf/btf.h>
#include <errno.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "mglru_ext_policy.h"

bool kernel_has_mglru_ext(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool found;

	if (!btf)
		return false;
	found = btf__find_by_name_kind(btf, MGLRU_EXT_OPS_TYPE,
				       BTF_KIND_STRUCT) > 0;
	btf__free(btf);
	return found;
}

bool bpffs_mounted(void)
{
	struct statfs fs;

	return !statfs("/sys/fs/bpf", &fs) && fs.f_type == BPF_FS_MAGIC;
}

/* Copy the value of key="..." (quoted, may hold spaces) or key=word. */
static const char *take_value(const char *p, char *buf, size_t len)
{
	const char *end;

	if (*p == '"') {
		p++;
		end = strstr(p, "\" ");
		if (!end)
			end = p + strcspn(p, "\"\n");
		snprintf(buf, len, "%.*s", (int)(end - p), p);
		return *end ? end + 1 : end;
	}
	end = p + strcspn(p, " \n");
	snprintf(buf, len, "%.*s", (int)(end - p), p);
	return end;
}

/* Copy, truncating to @size - 1 characters. */
static void copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static const char *const state_names[] = {
	[KSTATE_UNKNOWN] = "unknown",	[KSTATE_ATTACHED] = "attached",
	[KSTATE_EJECTING] = "ejecting", [KSTATE_EJECTED] = "ejected",
	[KSTATE_DETACHED] = "detached",
};

const char *kstate_name(enum kstate state)
{
	return state_names[state];
}

static enum kstate parse_state(const char *s)
{
	enum kstate i;

	for (i = KSTATE_ATTACHED; i <= KSTATE_DETACHED; i++)
		if (!strcmp(s, state_names[i]))
			return i;
	return KSTATE_UNKNOWN;
}

int kernel_parse_policy_line(const char *line, struct kpolicy *kp)
{
	const char *p = line;
	char key[32], val[160];

	memset(kp, 0, sizeof(*kp));
	while (*p && *p != '\n') {
		size_t klen = strcspn(p, "= \n");

		if (p[klen] != '=')
			return -EINVAL;
		snprintf(key, sizeof(key), "%.*s", (int)klen, p);
		p = take_value(p + klen + 1, val, sizeof(val));
		while (*p == ' ')
			p++;

		if (!strcmp(key, "id"))
			kp->id = strtoull(val, NULL, 10);
		else if (!strcmp(key, "name"))
			copy(kp->name, sizeof(kp->name), val);
		else if (!strcmp(key, "cgroup_id"))
			kp->cgroup_id = strtoull(val, NULL, 10);
		else if (!strcmp(key, "state"))
			kp->state = parse_state(val);
		else if (!strcmp(key, "attached_ns"))
			kp->attached_ns = strtoull(val, NULL, 10);
		else if (!strcmp(key, "exit_kind"))
			copy(kp->exit_kind, sizeof(kp->exit_kind), val);
		else if (!strcmp(key, "exit_reason"))
			copy(kp->exit_reason, sizeof(kp->exit_reason), val);
		else if (!strcmp(key, "exit_msg"))
			copy(kp->exit_msg, sizeof(kp->exit_msg), val);
		else if (kp->nr_counters < MAX_COUNTERS) {
			struct counter *c = &kp->counters[kp->nr_counters++];

			copy(c->name, sizeof(c->name), key);
			c->value = strtoull(val, NULL, 10);
		}
	}
	return kp->name[0] ? 0 : -EINVAL;
}

int kernel_policies(struct kpolicy *out, int max)
{
	char line[2048];
	FILE *f;
	int n = 0;

	f = fopen(POLICIES_FILE, "r");
	if (!f && errno == ENOENT) {
		/* debugfs may just not be mounted */
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
		f = fopen(POLICIES_FILE, "r");
	}
	if (!f)
		return -errno;
	while (n < max && fgets(line, sizeof(line), f))
		if (!kernel_parse_policy_line(line, &out[n]))
			n++;
	fclose(f);
	return n;
}

void pin_path(uint64_t cgroup_id, const char *leaf, char *buf, size_t len)
{
	int n;

	if (cgroup_id)
		n = snprintf(buf, len, "%s/cgroup-%llu", PIN_ROOT,
			     (unsigned long long)cgroup_id);
	else
		n = snprintf(buf, len, "%s/system", PIN_ROOT);
	if (leaf && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "/%s", leaf);
}

double monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

uint64_t boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}
