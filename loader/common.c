// SPDX-License-Identifier: GPL-2.0
/* Helpers the commands share; see mglructl.h. */
#define _GNU_SOURCE
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "errors.h"
#include "json_writer.h"
#include "mglructl.h"
#include "policy.h"

bool verbose;

bool want_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	}
	return false;
}

int usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	fputs("mglructl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s", usage);
	return EXIT_USAGE;
}

bool say_timestamps;

void say(const char *fmt, ...)
{
	struct timespec ts;
	va_list ap;

	if (say_timestamps) {
		clock_gettime(CLOCK_BOOTTIME, &ts);
		printf("[%5ld.%03ld] ", (long)ts.tv_sec, ts.tv_nsec / 1000000);
	}
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

int bad_option(const char *usage, char **argv)
{
	return usage_error(usage,
			   "bad option '%s' (unknown, or without its value)",
			   argv[optind - 1]);
}

const char *add_set(void *dst, const char *value)
{
	struct knob_sets *sets = dst;

	if (sets->n == MAX_SETS)
		return "too many --set";
	sets->v[sets->n++] = value;
	return NULL;
}

/* --pretty after a command: no letter of its own */
#define OPT_PRETTY 0x100

int parse_options(int argc, char **argv, const struct opt *opts,
		  const char *usage, int max_args)
{
	struct option lopts[MAX_OPTS + 3] = {};
	char sopts[3 * MAX_OPTS + 3], *s = sopts;
	const struct opt *o;
	const char *err;
	int n, opt;

	/* a command after the options: stop at it, as env(1) does */
	if (max_args == ARGS_COMMAND)
		*s++ = '+';
	for (n = 0; opts[n].name && n < MAX_OPTS; n++) {
		int has_arg = opts[n].kind == OPT_FLAG	? no_argument :
			      opts[n].kind == OPT_MAYBE ? optional_argument :
							  required_argument;

		lopts[n] = (struct option){ opts[n].name, has_arg, NULL,
					    opts[n].letter };
		*s++ = opts[n].letter;
		if (has_arg != no_argument)
			*s++ = ':';
		if (has_arg == optional_argument)
			*s++ = ':';
	}
	if (opts[n].name)
		return fail(
			EXIT_FAILURE_OTHER,
			"internal error: a command has more than %d options",
			MAX_OPTS);
	/* the global -j and -p, also after the command (see mglructl.h) */
	lopts[n++] = (struct option){ "json", no_argument, NULL, 'j' };
	lopts[n++] = (struct option){ "pretty", no_argument, NULL, OPT_PRETTY };
	*s++ = 'j';
	*s = '\0';
	while ((opt = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		if (opt == 'j' || opt == OPT_PRETTY) {
			json_output = true;
			json_pretty |= opt == OPT_PRETTY;
			continue;
		}
		for (o = opts; o->name && o->letter != opt; o++)
			;
		if (!o->name)
			return bad_option(usage, argv);
		switch (o->kind) {
		case OPT_FLAG:
			*(bool *)o->dst = true;
			break;
		case OPT_VALUE:
		case OPT_MAYBE:
			*(const char **)o->dst = optarg ? optarg : "";
			break;
		case OPT_CALL:
			err = o->call(o->dst, optarg);
			if (err)
				return usage_error(usage, "%s", err);
			break;
		}
	}
	if (max_args >= 0 && argc - optind > max_args)
		return extra_argument(usage, argv + max_args);
	return 0;
}

int extra_argument(const char *usage, char **argv)
{
	return usage_error(usage, "unexpected argument '%s'", argv[optind]);
}

/* Root, or CAP_SYS_ADMIN and CAP_BPF in the effective set. */
int check_privileges(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
						0 };
	struct __user_cap_data_struct data[2] = {};

	if (!geteuid())
		return 0;
	if (!syscall(SYS_capget, &hdr, data) &&
	    (data[0].effective & (1U << CAP_SYS_ADMIN)) &&
	    (data[1].effective & (1U << (CAP_BPF - 32))))
		return 0;
	return fail(EXIT_PERMISSION,
		    "loading policies needs root (CAP_SYS_ADMIN and CAP_BPF)");
}

int check_kernel(void)
{
	if (!kernel_has_mglru_ext())
		return fail(
			EXIT_NO_KERNEL_SUPPORT,
			"this kernel has no mglru_ext (no %s in /sys/kernel/btf/vmlinux): boot the patched kernel",
			"mglru_ext_ops");
	return 0;
}

int check_can_pin(void)
{
	int ret = check_kernel();

	if (!ret)
		ret = check_privileges();
	if (!ret && !bpffs_mounted())
		ret = fail(
			EXIT_NO_BPFFS,
			"bpffs is not mounted at /sys/fs/bpf: mount -t bpf bpf /sys/fs/bpf");
	return ret;
}

int resolve_target(const char *path, uint64_t *id, char *desc, size_t len)
{
	char abs[PATH_MAX], file[PATH_MAX];
	int ret;

	*id = 0;
	snprintf(desc, len, "system");
	if (!path)
		return 0;
	ret = cgroup_resolve(path, abs, sizeof(abs), id);
	if (ret == -ENAMETOOLONG)
		return fail_too_long("cgroup path", path);
	if (ret == -EMEDIUMTYPE)
		return fail(EXIT_BAD_CGROUP, "%s is not a cgroup v2 directory",
			    path);
	if (ret)
		return fail(EXIT_BAD_CGROUP, "no cgroup %s (%s)", path,
			    strerror(-ret));
	if (!strcmp(abs, CGROUP_ROOT) || !strcmp(abs, CGROUP_ROOT "/")) {
		*id = 0; /* the root cgroup covers the whole system */
		return 0;
	}
	if (xsnprintf(file, sizeof(file), "%s/memory.max", abs))
		return fail_too_long("cgroup path", abs);
	if (access(file, F_OK))
		return fail(
			EXIT_BAD_CGROUP,
			"cgroup %s has no memory controller: add +memory to its parent's cgroup.subtree_control",
			path);
	if (xsnprintf(desc, len, "cgroup %s", abs + strlen(CGROUP_ROOT)))
		return fail_too_long("cgroup path", abs);
	return 0;
}

const char *target_cgroup(const char *desc)
{
	return strncmp(desc, "cgroup ", 7) ? desc : desc + 7;
}

void cgroup_name(uint64_t id, char *buf, size_t len)
{
	int ret;

	if (!id) {
		snprintf(buf, len, "system");
		return;
	}
	ret = cgroup_path_of(CGROUP_ROOT, id, buf, len);
	if (ret == -ENAMETOOLONG)
		snprintf(buf, len, "(cgroup %llu, path too long)",
			 (unsigned long long)id);
	else if (ret)
		snprintf(buf, len, "(deleted cgroup %llu)",
			 (unsigned long long)id);
}

int find_kpolicy(uint64_t id, struct kpolicy *out)
{
	static struct kpolicy table[MAX_POLICIES];
	int i, n = kernel_policies(table, MAX_POLICIES);

	for (i = n - 1; i >= 0; i--) {
		if (table[i].id == id) {
			*out = table[i];
			return 0;
		}
	}
	return -ENOENT;
}

uint64_t newest_policy(const char *name, uint64_t cgroup_id)
{
	static struct kpolicy table[MAX_POLICIES];
	int i, n = kernel_policies(table, MAX_POLICIES);
	uint64_t id = 0;

	for (i = 0; i < n; i++)
		if (!strcmp(table[i].name, name) &&
		    table[i].cgroup_id == cgroup_id &&
		    table[i].state == KSTATE_ATTACHED && table[i].id > id)
			id = table[i].id;
	return id;
}

bool wait_detached(uint64_t id, int ms, struct kpolicy *kp)
{
	for (; ms > 0; ms -= 50) {
		if (!find_kpolicy(id, kp) && kp->state == KSTATE_DETACHED)
			return true;
		usleep(50000);
	}
	return false;
}

int attach_policy(struct policy *p, const char *arg, const char *cgroup,
		  const char *const *sets, int nr_sets, bool check_pin,
		  struct bpf_link **link, uint64_t *cgroup_id, char *where,
		  size_t where_len)
{
	char path[PATH_MAX], pin[PATH_MAX];
	int i, ret;

	ret = policy_locate(arg, path, sizeof(path));
	if (ret)
		return ret;
	ret = policy_open(p, path);
	if (ret)
		return ret;
	for (i = 0; i < nr_sets; i++) {
		ret = policy_set_knob(p, sets[i]);
		if (ret)
			goto err;
	}
	ret = resolve_target(cgroup, cgroup_id, where, where_len);
	if (ret)
		goto err;
	ret = check_kernel();
	if (!ret)
		ret = check_privileges();
	if (ret)
		goto err;
	if (check_pin) {
		if (!bpffs_mounted()) {
			ret = fail(
				EXIT_NO_BPFFS,
				"bpffs is not mounted at /sys/fs/bpf: mount -t bpf bpf /sys/fs/bpf (or use --foreground)");
			goto err;
		}
		if (pin_path(*cgroup_id, "link", pin, sizeof(pin))) {
			ret = fail_too_long("pin path", pin);
			goto err;
		}
		if (!access(pin, F_OK)) {
			ret = fail(
				EXIT_ALREADY_ATTACHED,
				"a policy is already pinned for %s at %s (mglructl unload first)",
				where, pin);
			goto err;
		}
	}
	ret = policy_set_cgroup(p, *cgroup_id);
	if (!ret)
		ret = policy_load(p);
	if (!ret)
		ret = policy_attach(p, where, link);
	if (!ret)
		return 0;
err:
	policy_close(p);
	return ret;
}

bool unpin(uint64_t cgroup_id)
{
	char dir[PATH_MAX], pin[PATH_MAX], marker[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (pin_path(cgroup_id, NULL, dir, sizeof(dir)) ||
	    pin_path(cgroup_id, "link", pin, sizeof(pin)) || unlink(pin))
		return false;
	/* the config's marker (see apply.h) goes with the pin */
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "config-", 7))
			continue;
		if (!xsnprintf(marker, sizeof(marker), "%s/%s", dir,
			       de->d_name))
			rmdir(marker);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	return true;
}

int pin_link(struct bpf_link *link, uint64_t cgroup_id)
{
	char dir[PATH_MAX], pin[PATH_MAX];
	int err;

	if (pin_path(cgroup_id, NULL, dir, sizeof(dir)) ||
	    pin_path(cgroup_id, "link", pin, sizeof(pin)))
		return -ENAMETOOLONG;
	mkdir(PIN_ROOT, 0700);
	mkdir(dir, 0700);
	err = bpf_link__pin(link, pin);
	if (err) {
		rmdir(dir);
		return err;
	}
	return 0;
}
