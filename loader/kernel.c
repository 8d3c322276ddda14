// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "kernel.h"

#include <bpf/btf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
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

/* Read one value file of @dir: its first line, without the newline. */
static int read_value(int dir, const char *name, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = openat(dir, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int read_u64(int dir, const char *name, uint64_t *out)
{
	char buf[32], *end;
	int ret = read_value(dir, name, buf, sizeof(buf));

	if (ret)
		return ret;
	errno = 0;
	*out = strtoull(buf, &end, 10);
	return errno || end == buf || *end ? -EINVAL : 0;
}

static int not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static int read_counters(int dir, struct kpolicy *kp)
{
	struct dirent **names;
	int fd, n, i, ret = 0;

	fd = openat(dir, "counters", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* by name, so that every reader lists them alike */
	n = scandirat(fd, ".", &names, not_hidden, alphasort);
	if (n < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	for (i = 0; i < n; i++) {
		struct counter *c = &kp->counters[kp->nr_counters];

		if (!ret && kp->nr_counters < MAX_COUNTERS &&
		    strlen(names[i]->d_name) < sizeof(c->name)) {
			strcpy(c->name, names[i]->d_name);
			ret = read_u64(fd, c->name, &c->value);
			kp->nr_counters++;
		}
		free(names[i]);
	}
	free(names);
	close(fd);
	return ret;
}

int kernel_read_policy(int dir, struct kpolicy *kp)
{
	char state[32];
	int ret;

	memset(kp, 0, sizeof(*kp));
	ret = read_u64(dir, "cgroup_id", &kp->cgroup_id);
	if (!ret)
		ret = read_u64(dir, "attached_ns", &kp->attached_ns);
	if (!ret)
		ret = read_value(dir, "name", kp->name, sizeof(kp->name));
	if (!ret)
		ret = read_value(dir, "state", state, sizeof(state));
	if (!ret)
		ret = read_value(dir, "exit_kind", kp->exit_kind,
				 sizeof(kp->exit_kind));
	if (!ret)
		ret = read_value(dir, "exit_reason", kp->exit_reason,
				 sizeof(kp->exit_reason));
	if (!ret)
		ret = read_value(dir, "exit_msg", kp->exit_msg,
				 sizeof(kp->exit_msg));
	if (!ret)
		ret = read_counters(dir, kp);
	if (ret)
		return ret;
	kp->state = parse_state(state);
	return kp->name[0] && kp->state != KSTATE_UNKNOWN ? 0 : -EINVAL;
}

static int by_id(const void *a, const void *b)
{
	const struct kpolicy *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int kernel_policies_at(const char *root, struct kpolicy *out, int max)
{
	struct dirent *d;
	DIR *dir;
	int n = 0;

	dir = opendir(root);
	if (!dir)
		return -errno;
	while (n < max && (d = readdir(dir))) {
		char *end;
		uint64_t id = strtoull(d->d_name, &end, 10);
		int fd;

		if (!id || *end)
			continue;
		fd = openat(dirfd(dir), d->d_name,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		/* a record can go away while we read: skip it */
		if (fd < 0)
			continue;
		if (!kernel_read_policy(fd, &out[n])) {
			out[n].id = id;
			n++;
		}
		close(fd);
	}
	closedir(dir);
	qsort(out, n, sizeof(*out), by_id);
	return n;
}

int kernel_policies(struct kpolicy *out, int max)
{
	return kernel_policies_at(POLICIES_DIR, out, max);
}

uint64_t kp_counter(const struct kpolicy *kp, const char *name)
{
	int i;

	for (i = 0; i < kp->nr_counters; i++)
		if (!strcmp(kp->counters[i].name, name))
			return kp->counters[i].value;
	return 0;
}

uint64_t kp_total_calls(const struct kpolicy *kp)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < kp->nr_counters; i++)
		if (!strncmp(kp->counters[i].name, "calls_", 6))
			sum += kp->counters[i].value;
	return sum;
}

int pin_path(uint64_t cgroup_id, const char *leaf, char *buf, size_t len)
{
	char dir[64]; /* PIN_ROOT/cgroup-<20 digits> fits */

	if (cgroup_id)
		snprintf(dir, sizeof(dir), "%s/cgroup-%llu", PIN_ROOT,
			 (unsigned long long)cgroup_id);
	else
		snprintf(dir, sizeof(dir), "%s/system", PIN_ROOT);
	if (leaf)
		return xsnprintf(buf, len, "%s/%s", dir, leaf);
	return xsnprintf(buf, len, "%s", dir);
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
