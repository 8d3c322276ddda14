// SPDX-License-Identifier: GPL-2.0
/*
 * mglructl: load, list, pin, unload and report mglru_ext policies.
 *
 * The kernel is the source of truth for what is attached: its table in
 * debugfs (mglru_ext/policies) lists every policy with its counters and,
 * once ejected or detached, its exit record. mglructl keeps no state of
 * its own beyond the bpffs pins that keep policies attached after it
 * exits: PIN_ROOT/system/link and PIN_ROOT/cgroup-<id>/link.
 */
#define _GNU_SOURCE
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "errors.h"
#include "kernel.h"
#include "log.h"
#include "parse.h"
#include "policy.h"

#define MAX_SETS 32
#define MAX_POLICIES 64

static bool verbose;

int fail(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("mglructl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

static const char main_usage[] =
	"Usage: mglructl [-v] COMMAND [ARGS]\n"
	"\n"
	"Load and manage mglru_ext policies: BPF programs that decide the\n"
	"multi-gen LRU reclaim loop, system-wide or for one cgroup subtree.\n"
	"\n"
	"Commands:\n"
	"  list [--json]                  policies that ship, and those attached\n"
	"  load POLICY|FILE.bpf.o [--cgroup PATH] [--set KNOB=VALUE]... [--foreground]\n"
	"                                 attach a policy (pinned, stays attached)\n"
	"  unload NAME | --cgroup PATH | --all\n"
	"                                 detach policies and remove their pins\n"
	"  status [--json]                kernel support, policies, counters, exits\n"
	"  run --policy P [--set KNOB=VALUE]... [--memory-max SIZE] [--swap-max SIZE]\n"
	"      -- CMD [ARGS]...           run CMD in a new cgroup under policy P\n"
	"\n"
	"Options: -v, --verbose  show libbpf and verifier output\n"
	"         -h, --help     help (also after a command)\n"
	"\n"
	"Exit status: 0 ok, 1 other error, 2 bad usage, 3 kernel without\n"
	"mglru_ext, 4 permission denied, 5 bad cgroup, 6 a policy is already\n"
	"attached there, 7 not an mglru_ext policy object, 8 unknown policy,\n"
	"9 verifier rejection, 10 bpffs not mounted, 11 bad knob, 12 nothing\n"
	"attached there, 13 policy ejected by the kernel, 14 policy refused\n"
	"to attach. `run` passes on the command's own status.\n";

static const char load_usage[] =
	"Usage: mglructl load POLICY|FILE.bpf.o [--cgroup PATH] [--set KNOB=VALUE]...\n"
	"                     [--foreground]\n"
	"\n"
	"Attach a shipped policy (by name, see 'mglructl list') or any compiled\n"
	"policy object. Without --cgroup the policy is system-wide; with it, it\n"
	"decides reclaim for that cgroup v2 subtree (PATH absolute, or relative\n"
	"to /sys/fs/cgroup). Knobs are checked before anything is loaded.\n"
	"\n"
	"The policy is pinned under " PIN_ROOT " and stays attached after\n"
	"mglructl exits, until 'mglructl unload'. With --foreground it stays\n"
	"attached only while mglructl runs, printing its counters every second;\n"
	"Ctrl-C or SIGTERM detaches it.\n";

static const char unload_usage[] =
	"Usage: mglructl unload NAME | --cgroup PATH | --all\n"
	"\n"
	"Detach the pinned policies called NAME, the one on cgroup PATH, or all\n"
	"of them, and remove their pins.\n";

static const char status_usage[] =
	"Usage: mglructl status [--json]\n"
	"\n"
	"Whether the kernel supports mglru_ext, the policies attached with their\n"
	"counters, and the exit record (kind, reason, message) of each policy\n"
	"the kernel ejected or that was detached recently.\n";

static const char list_usage[] =
	"Usage: mglructl list [--json]\n"
	"\n"
	"The policies that ship (name, description, knobs with defaults and\n"
	"ranges) and the policies attached now.\n";

static const char run_usage[] =
	"Usage: mglructl run --policy P [--set KNOB=VALUE]... [--memory-max SIZE]\n"
	"                    [--swap-max SIZE] -- CMD [ARGS]...\n"
	"\n"
	"Create a temporary cgroup, apply the limits, attach policy P to it\n"
	"(P may be 'none': stock reclaim, for comparisons), run CMD inside,\n"
	"then print the policy's counters and the cgroup's reclaim statistics\n"
	"and remove the cgroup. Exits with CMD's status. SIZE takes K, M, G.\n";

static bool want_help(int argc, char **argv)
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

static int usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	fputs("mglructl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s", usage);
	return EXIT_USAGE;
}

/* Root, or CAP_SYS_ADMIN and CAP_BPF in the effective set. */
static int check_privileges(void)
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

static int check_kernel(void)
{
	if (!kernel_has_mglru_ext())
		return fail(
			EXIT_NO_KERNEL_SUPPORT,
			"this kernel has no mglru_ext (no %s in /sys/kernel/btf/vmlinux): boot the patched kernel",
			"mglru_ext_ops");
	return 0;
}

/* A cgroup for a policy: 0 and "system" for none or the root. */
static int resolve_target(const char *path, uint64_t *id, char *desc,
			  size_t len)
{
	char abs[4096], file[4200];
	int ret;

	*id = 0;
	snprintf(desc, len, "system");
	if (!path)
		return 0;
	ret = cgroup_resolve(path, abs, sizeof(abs), id);
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
	snprintf(file, sizeof(file), "%s/memory.max", abs);
	if (access(file, F_OK))
		return fail(
			EXIT_BAD_CGROUP,
			"cgroup %s has no memory controller: add +memory to its parent's cgroup.subtree_control",
			path);
	snprintf(desc, len, "cgroup %s", abs + strlen(CGROUP_ROOT));
	return 0;
}

static void cgroup_name(uint64_t id, char *buf, size_t len)
{
	if (!id)
		snprintf(buf, len, "system");
	else if (cgroup_path_of(CGROUP_ROOT, id, buf, len))
		snprintf(buf, len, "(deleted cgroup %llu)",
			 (unsigned long long)id);
}

static uint64_t counter(const struct kpolicy *kp, const char *name)
{
	int i;

	for (i = 0; i < kp->nr_counters; i++)
		if (!strcmp(kp->counters[i].name, name))
			return kp->counters[i].value;
	return 0;
}

static uint64_t total_calls(const struct kpolicy *kp)
{
	return counter(kp, "calls_budget") + counter(kp, "calls_type") +
	       counter(kp, "calls_isolate") + counter(kp, "calls_aging");
}

static void print_counters_line(const struct kpolicy *kp)
{
	printf("calls=%llu differed=%llu refused=%llu clamped=%llu throttles=%llu agings=%llu fallbacks=%llu stalls=%llu\n",
	       (unsigned long long)total_calls(kp),
	       (unsigned long long)counter(kp, "differed"),
	       (unsigned long long)counter(kp, "refused"),
	       (unsigned long long)counter(kp, "clamped"),
	       (unsigned long long)counter(kp, "throttles"),
	       (unsigned long long)counter(kp, "agings"),
	       (unsigned long long)counter(kp, "fallbacks"),
	       (unsigned long long)counter(kp, "stalls"));
}

static void print_exit_record(const struct kpolicy *kp)
{
	printf("  exit: kind=%s reason=\"%s\"%s%s%s\n", kp->exit_kind,
	       kp->exit_reason, kp->exit_msg[0] ? " message=\"" : "",
	       kp->exit_msg, kp->exit_msg[0] ? "\"" : "");
}

/* Find policy @id in the kernel's table. */
static int find_kpolicy(uint64_t id, struct kpolicy *out)
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

/* The id the kernel gave the policy we just attached. */
static uint64_t newest_policy(const char *name, uint64_t cgroup_id)
{
	static struct kpolicy table[MAX_POLICIES];
	int i, n = kernel_policies(table, MAX_POLICIES);
	uint64_t id = 0;

	for (i = 0; i < n; i++)
		if (!strcmp(table[i].name, name) &&
		    table[i].cgroup_id == cgroup_id &&
		    !strcmp(table[i].state, "attached") && table[i].id > id)
			id = table[i].id;
	return id;
}

/* Wait up to @ms for policy @id to be detached; links go away async. */
static bool wait_detached(uint64_t id, int ms, struct kpolicy *kp)
{
	for (; ms > 0; ms -= 50) {
		if (!find_kpolicy(id, kp) && !strcmp(kp->state, "detached"))
			return true;
		usleep(50000);
	}
	return false;
}

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static int run_foreground(struct policy *p, struct bpf_link *link, uint64_t id,
			  const char *where)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct kpolicy kp;
	int status = EXIT_OK;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	printf("policy %s attached to %s (id %llu); Ctrl-C detaches it\n",
	       p->name, where, (unsigned long long)id);
	fflush(stdout);

	while (!stop_signal) {
		sleep(1);
		if (find_kpolicy(id, &kp))
			break;
		if (strcmp(kp.state, "attached")) {
			printf("policy %s was ejected by the kernel\n",
			       p->name);
			print_exit_record(&kp);
			status = EXIT_EJECTED;
			break;
		}
		print_counters_line(&kp);
		fflush(stdout);
	}

	bpf_link__destroy(link);
	if (stop_signal)
		printf("detaching policy %s: %s\n", p->name,
		       strsignal(stop_signal));
	if (wait_detached(id, 5000, &kp)) {
		printf("final: ");
		print_counters_line(&kp);
		print_exit_record(&kp);
	}
	return status;
}

struct load_args {
	const char *policy;
	const char *cgroup;
	const char *sets[MAX_SETS];
	int nr_sets;
	bool foreground;
};

/* Open, configure, load and attach. On success *link is attached. */
static int attach_policy(struct policy *p, const char *arg, const char *cgroup,
			 const char *const *sets, int nr_sets, bool check_pin,
			 struct bpf_link **link, uint64_t *cgroup_id,
			 char *where, size_t where_len)
{
	char path[4096], dir[4200], pin[4300];
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
		pin_dir(*cgroup_id, dir, sizeof(dir));
		snprintf(pin, sizeof(pin), "%s/link", dir);
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

static int cmd_load(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cgroup", required_argument, NULL, 'c' },
		{ "set", required_argument, NULL, 's' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'v' },
		{}
	};
	struct load_args a = {};
	char where[4200], dir[4200], pin[4300];
	struct bpf_link *link;
	struct policy p;
	uint64_t cgroup_id, id;
	int opt, ret;

	if (want_help(argc, argv)) {
		fputs(load_usage, stdout);
		return EXIT_OK;
	}
	while ((opt = getopt_long(argc, argv, "c:s:fv", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			a.cgroup = optarg;
			break;
		case 's':
			if (a.nr_sets == MAX_SETS)
				return usage_error(load_usage,
						   "too many --set");
			a.sets[a.nr_sets++] = optarg;
			break;
		case 'f':
			a.foreground = true;
			break;
		case 'v':
			log_setup(verbose = true);
			break;
		default:
			return usage_error(load_usage, "bad option");
		}
	}
	if (optind + 1 != argc)
		return usage_error(load_usage,
				   "load takes one POLICY or FILE.bpf.o");
	a.policy = argv[optind];

	ret = attach_policy(&p, a.policy, a.cgroup, a.sets, a.nr_sets,
			    !a.foreground, &link, &cgroup_id, where,
			    sizeof(where));
	if (ret)
		return ret;
	id = newest_policy(p.name, cgroup_id);

	if (a.foreground) {
		ret = run_foreground(&p, link, id, where);
		policy_close(&p);
		return ret;
	}

	pin_dir(cgroup_id, dir, sizeof(dir));
	snprintf(pin, sizeof(pin), "%s/link", dir);
	mkdir(PIN_ROOT, 0700);
	mkdir(dir, 0700);
	if (bpf_link__pin(link, pin)) {
		ret = fail(EXIT_FAILURE_OTHER,
			   "pinning at %s failed: %s; policy detached", pin,
			   strerror(errno));
		bpf_link__destroy(link);
		rmdir(dir);
		policy_close(&p);
		return ret;
	}
	printf("policy %s attached to %s (id %llu), pinned at %s\n", p.name,
	       where, (unsigned long long)id, pin);
	/* the pin keeps it attached; our fd and object can go */
	bpf_link__disconnect(link);
	bpf_link__destroy(link);
	policy_close(&p);
	return EXIT_OK;
}

/* Remove the pin of @cgroup_id; returns whether there was one. */
static bool unpin(uint64_t cgroup_id)
{
	char dir[4200], pin[4300];

	pin_dir(cgroup_id, dir, sizeof(dir));
	snprintf(pin, sizeof(pin), "%s/link", dir);
	if (unlink(pin))
		return false;
	rmdir(dir);
	return true;
}

static int cmd_unload(int argc, char **argv)
{
	static const struct option opts[] = { { "cgroup", required_argument,
						NULL, 'c' },
					      { "all", no_argument, NULL, 'a' },
					      {} };
	static struct kpolicy table[MAX_POLICIES];
	const char *cgroup = NULL, *name = NULL;
	uint64_t ids[MAX_POLICIES];
	int opt, i, n, nr_ids = 0, ret;
	bool all = false;
	char where[4200];
	struct kpolicy kp;

	if (want_help(argc, argv)) {
		fputs(unload_usage, stdout);
		return EXIT_OK;
	}
	while ((opt = getopt_long(argc, argv, "c:a", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			cgroup = optarg;
			break;
		case 'a':
			all = true;
			break;
		default:
			return usage_error(unload_usage, "bad option");
		}
	}
	if (optind < argc)
		name = argv[optind++];
	if (optind < argc || (!!name + !!cgroup + all) != 1)
		return usage_error(
			unload_usage,
			"unload takes one of NAME, --cgroup PATH, --all");

	ret = check_kernel();
	if (!ret)
		ret = check_privileges();
	if (ret)
		return ret;

	n = kernel_policies(table, MAX_POLICIES);
	if (n < 0)
		return fail(EXIT_FAILURE_OTHER, "cannot read %s: %s",
			    POLICIES_FILE, strerror(-n));

	for (i = 0; i < n; i++) {
		if (!strcmp(table[i].state, "detached"))
			continue;
		if (name && strcmp(table[i].name, name))
			continue;
		if (cgroup) {
			uint64_t id;

			ret = resolve_target(cgroup, &id, where, sizeof(where));
			if (ret)
				return ret;
			if (table[i].cgroup_id != id)
				continue;
		}
		if (unpin(table[i].cgroup_id))
			ids[nr_ids++] = table[i].id;
		else if (name)
			fprintf(stderr,
				"mglructl: policy %s (id %llu) is not pinned: stop the mglructl that holds it\n",
				table[i].name, (unsigned long long)table[i].id);
	}
	if (!nr_ids && !all)
		return fail(EXIT_NOT_ATTACHED, "no pinned policy %s%s",
			    name ? "named " : "on ", name ? name : cgroup);

	for (i = 0; i < nr_ids; i++) {
		if (wait_detached(ids[i], 5000, &kp))
			printf("policy %s (id %llu) detached\n", kp.name,
			       (unsigned long long)kp.id);
		else
			printf("policy id %llu unpinned; still detaching\n",
			       (unsigned long long)ids[i]);
	}
	return EXIT_OK;
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void json_kpolicy(const struct kpolicy *kp)
{
	char cg[4096];
	int i;

	cgroup_name(kp->cgroup_id, cg, sizeof(cg));
	printf("{\"id\":%llu,\"name\":", (unsigned long long)kp->id);
	json_string(kp->name);
	printf(",\"cgroup_id\":%llu,\"cgroup\":",
	       (unsigned long long)kp->cgroup_id);
	json_string(cg);
	printf(",\"state\":");
	json_string(kp->state);
	printf(",\"counters\":{");
	for (i = 0; i < kp->nr_counters; i++)
		printf("%s\"%s\":%llu", i ? "," : "", kp->counters[i].name,
		       (unsigned long long)kp->counters[i].value);
	printf("},\"exit\":{\"kind\":");
	json_string(kp->exit_kind);
	printf(",\"reason\":");
	json_string(kp->exit_reason);
	printf(",\"message\":");
	json_string(kp->exit_msg);
	printf("}}");
}

static void print_policy_table(const struct kpolicy *table, int n)
{
	uint64_t now = boottime_ns();
	char cg[4096];
	int i, shown = 0;

	for (i = 0; i < n; i++) {
		const struct kpolicy *kp = &table[i];

		if (!shown++)
			printf("%-4s %-20s %-24s %-9s %8s  %s\n", "ID", "NAME",
			       "CGROUP", "STATE", "SINCE", "COUNTERS");
		cgroup_name(kp->cgroup_id, cg, sizeof(cg));
		if (kp->attached_ns)
			printf("%-4llu %-20s %-24s %-9s %7llus  ",
			       (unsigned long long)kp->id, kp->name, cg,
			       kp->state,
			       (unsigned long long)((now - kp->attached_ns) /
						    1000000000ULL));
		else
			printf("%-4llu %-20s %-24s %-9s %8s  ",
			       (unsigned long long)kp->id, kp->name, cg,
			       kp->state, "-");
		print_counters_line(kp);
		if (strcmp(kp->exit_kind, "none"))
			print_exit_record(kp);
	}
	if (!shown)
		printf("no policy attached: stock MGLRU decides everywhere\n");
}

/* Attached (or ejected, awaiting unload) policies, then the last detached. */
static void print_status_tables(struct kpolicy *table, int n)
{
	static struct kpolicy current[MAX_POLICIES], detached[MAX_POLICIES];
	int i, nc = 0, nd = 0, first;

	for (i = 0; i < n; i++) {
		if (strcmp(table[i].state, "detached"))
			current[nc++] = table[i];
		else
			detached[nd++] = table[i];
	}
	print_policy_table(current, nc);
	if (!nd)
		return;
	first = nd > 5 ? nd - 5 : 0;
	printf("\nRecently detached (%d of %d, newest last):\n", nd - first,
	       nd);
	print_policy_table(detached + first, nd - first);
}

static int cmd_status(int argc, char **argv)
{
	static struct kpolicy table[MAX_POLICIES];
	bool json = false, support;
	int i, n;

	if (want_help(argc, argv)) {
		fputs(status_usage, stdout);
		return EXIT_OK;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else
			return usage_error(status_usage,
					   "unknown argument '%s'", argv[i]);
	}

	support = kernel_has_mglru_ext();
	n = support ? kernel_policies(table, MAX_POLICIES) : 0;
	if (n < 0)
		return fail(EXIT_FAILURE_OTHER, "cannot read %s: %s",
			    POLICIES_FILE, strerror(-n));
	if (json) {
		printf("{\"kernel_support\":%s,\"policies\":[",
		       support ? "true" : "false");
		for (i = 0; i < n; i++) {
			if (i)
				putchar(',');
			json_kpolicy(&table[i]);
		}
		printf("]}\n");
	} else {
		printf("kernel support: %s\n",
		       support ? "yes" : "no (boot the patched kernel)");
		if (support)
			print_status_tables(table, n);
	}
	return support ? EXIT_OK : EXIT_NO_KERNEL_SUPPORT;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmd_list(int argc, char **argv)
{
	static struct kpolicy table[MAX_POLICIES];
	char *names[MAX_POLICIES], path[4200];
	const char *dir = policy_dir();
	bool json = false;
	struct dirent *de;
	struct policy p;
	int i, j, n = 0, nk = 0;
	DIR *d;

	if (want_help(argc, argv)) {
		fputs(list_usage, stdout);
		return EXIT_OK;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else
			return usage_error(list_usage, "unknown argument '%s'",
					   argv[i]);
	}

	d = opendir(dir);
	if (!d)
		return fail(EXIT_FAILURE_OTHER, "no policy directory %s: %s",
			    dir, strerror(errno));
	while ((de = readdir(d)) && n < MAX_POLICIES) {
		size_t len = strlen(de->d_name);

		if (len > 6 && !strcmp(de->d_name + len - 6, ".bpf.o"))
			names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), compare_names);

	if (json)
		printf("{\"shipped\":[");
	else
		printf("Policies shipped in %s:\n", dir);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		free(names[i]);
		if (policy_open(&p, path))
			continue;
		if (json) {
			printf("%s{\"name\":", i ? "," : "");
			json_string(p.file_name);
			printf(",\"description\":");
			json_string(p.desc);
			printf(",\"knobs\":[");
		} else {
			printf("\n  %-20s %s\n", p.file_name, p.desc);
		}
		for (j = 0; j < p.nr_knobs; j++) {
			const struct knob *k = &p.knobs[j];

			if (json) {
				printf("%s{\"name\":", j ? "," : "");
				json_string(k->name);
				printf(",\"default\":");
				json_string(k->dflt);
				printf(",\"min\":");
				json_string(k->min);
				printf(",\"max\":");
				json_string(k->max);
				printf(",\"doc\":");
				json_string(k->doc);
				printf("}");
			} else {
				printf("      --set %s=%s", k->name, k->dflt);
				if (k->min[0])
					printf("  [%s..%s]", k->min, k->max);
				printf("  %s\n", k->doc);
			}
		}
		if (json)
			printf("]}");
		policy_close(&p);
	}

	if (kernel_has_mglru_ext())
		nk = kernel_policies(table, MAX_POLICIES);
	if (json) {
		printf("],\"attached\":[");
		for (i = 0, j = 0; i < nk; i++) {
			if (!strcmp(table[i].state, "detached"))
				continue;
			printf("%s", j++ ? "," : "");
			json_kpolicy(&table[i]);
		}
		printf("]}\n");
		return EXIT_OK;
	}
	printf("\nAttached now:\n");
	for (i = 0, j = 0; i < nk; i++)
		if (strcmp(table[i].state, "detached"))
			table[j++] = table[i];
	print_policy_table(table, j);
	return EXIT_OK;
}

static int write_file(const char *dir, const char *file, const char *val)
{
	char path[4300];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ret = fputs(val, f) < 0 ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static uint64_t stat_value(const char *dir, const char *file, const char *key)
{
	char path[4300], k[64];
	unsigned long long v;
	uint64_t val = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fscanf(f, "%63s %llu", k, &v) == 2)
		if (!strcmp(k, key))
			val = v;
	fclose(f);
	return val;
}

static void print_run_report(const char *cg)
{
	static const char *const stat_keys[] = {
		"pgscan",
		"pgsteal",
		"pgmajfault",
		"workingset_refault_anon",
		"workingset_refault_file",
		"workingset_activate_file",
	};
	size_t i;

	printf("memory.stat:");
	for (i = 0; i < sizeof(stat_keys) / sizeof(stat_keys[0]); i++)
		printf(" %s=%llu", stat_keys[i],
		       (unsigned long long)stat_value(cg, "memory.stat",
						      stat_keys[i]));
	printf("\nmemory.events: oom=%llu oom_kill=%llu\n",
	       (unsigned long long)stat_value(cg, "memory.events", "oom"),
	       (unsigned long long)stat_value(cg, "memory.events", "oom_kill"));
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, 's' },
		{ "memory-max", required_argument, NULL, 'm' },
		{ "swap-max", required_argument, NULL, 'w' },
		{}
	};
	const char *policy_arg = NULL, *mem = NULL, *swp = NULL;
	const char *sets[MAX_SETS];
	char cg[256], where[4200], num[32];
	struct bpf_link *link = NULL;
	struct policy p = {};
	uint64_t bytes, cgroup_id, id = 0;
	int opt, ret, nr_sets = 0, status;
	struct kpolicy kp;
	pid_t pid;

	if (want_help(argc, argv)) {
		fputs(run_usage, stdout);
		return EXIT_OK;
	}
	while ((opt = getopt_long(argc, argv, "+p:s:m:w:", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			policy_arg = optarg;
			break;
		case 's':
			if (nr_sets == MAX_SETS)
				return usage_error(run_usage, "too many --set");
			sets[nr_sets++] = optarg;
			break;
		case 'm':
			mem = optarg;
			break;
		case 'w':
			swp = optarg;
			break;
		default:
			return usage_error(run_usage, "bad option");
		}
	}
	if (!policy_arg)
		return usage_error(run_usage,
				   "run needs --policy (or --policy none)");
	if (optind >= argc)
		return usage_error(run_usage, "run needs a command after --");
	if (mem && parse_size(mem, &bytes))
		return usage_error(run_usage, "bad --memory-max '%s'", mem);
	if (swp && parse_size(swp, &bytes))
		return usage_error(run_usage, "bad --swap-max '%s'", swp);

	snprintf(cg, sizeof(cg), "%s/mglructl-run-%d", CGROUP_ROOT, getpid());
	if (mkdir(cg, 0755))
		return fail(EXIT_BAD_CGROUP, "cannot create cgroup %s: %s", cg,
			    strerror(errno));
	if (mem) {
		parse_size(mem, &bytes);
		snprintf(num, sizeof(num), bytes == UINT64_MAX ? "max" : "%llu",
			 (unsigned long long)bytes);
		if ((ret = write_file(cg, "memory.max", num))) {
			ret = fail(EXIT_BAD_CGROUP, "setting memory.max: %s",
				   strerror(-ret));
			goto out;
		}
	}
	if (swp) {
		parse_size(swp, &bytes);
		snprintf(num, sizeof(num), bytes == UINT64_MAX ? "max" : "%llu",
			 (unsigned long long)bytes);
		if ((ret = write_file(cg, "memory.swap.max", num))) {
			ret = fail(EXIT_BAD_CGROUP,
				   "setting memory.swap.max: %s",
				   strerror(-ret));
			goto out;
		}
	}
	if (strcmp(policy_arg, "none")) {
		ret = attach_policy(&p, policy_arg, cg, sets, nr_sets, false,
				    &link, &cgroup_id, where, sizeof(where));
		if (ret)
			goto out;
		id = newest_policy(p.name, cgroup_id);
	}

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		ret = fail(EXIT_FAILURE_OTHER, "fork: %s", strerror(errno));
		goto out;
	}
	if (!pid) {
		if (write_file(cg, "cgroup.procs", "0")) {
			fprintf(stderr, "mglructl: cannot enter %s\n", cg);
			_exit(127);
		}
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "mglructl: cannot run %s: %s\n", argv[optind],
			strerror(errno));
		_exit(127);
	}
	signal(SIGINT, SIG_IGN);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	ret = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

	printf("--- mglructl run: %s exited with status %d under policy %s\n",
	       argv[optind], ret, link ? p.name : "none (stock)");
	if (link && !find_kpolicy(id, &kp)) {
		printf("policy: ");
		print_counters_line(&kp);
		if (strcmp(kp.state, "attached"))
			print_exit_record(&kp);
	}
	print_run_report(cg);
out:
	if (link)
		bpf_link__destroy(link);
	if (p.obj)
		policy_close(&p);
	write_file(cg, "cgroup.kill", "1");
	for (int tries = 0; rmdir(cg) && errno == EBUSY && tries < 100; tries++)
		usleep(20000);
	return ret;
}

int main(int argc, char **argv)
{
	const char *cmd;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			verbose = true;
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			fputs(main_usage, stdout);
			return EXIT_OK;
		} else {
			return usage_error(main_usage, "unknown option '%s'",
					   argv[i]);
		}
	}
	log_setup(verbose);
	if (i == argc)
		return usage_error(main_usage, "no command given");

	cmd = argv[i];
	argc -= i;
	argv += i;
	optind = 1;
	if (!strcmp(cmd, "list"))
		return cmd_list(argc, argv);
	if (!strcmp(cmd, "load"))
		return cmd_load(argc, argv);
	if (!strcmp(cmd, "unload"))
		return cmd_unload(argc, argv);
	if (!strcmp(cmd, "status"))
		return cmd_status(argc, argv);
	if (!strcmp(cmd, "run"))
		return cmd_run(argc, argv);
	if (!strcmp(cmd, "help")) {
		fputs(main_usage, stdout);
		return EXIT_OK;
	}
	return usage_error(main_usage, "unknown command '%s'", cmd);
}
