// SPDX-License-Identifier: GPL-2.0
/* mglructl load and unload: attach a policy, pinned or in the foreground. */
#define _GNU_SOURCE
#include <bpf/libbpf.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "errors.h"
#include "json_writer.h"
#include "log.h"
#include "mglructl.h"
#include "policy.h"

const char load_usage[] =
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
	"Ctrl-C or SIGTERM detaches it.\n"
	"\n"
	"With -j: {policy, object, id, cgroup_id, cgroup, knobs {NAME: VALUE...},\n"
	"pin}; with --foreground, printed once it is detached, pin null, and\n"
	"ejected, signal and final (its last entry, as in 'mglructl -j status').\n";

const char unload_usage[] =
	"Usage: mglructl unload NAME | --cgroup PATH | --all\n"
	"\n"
	"Detach the pinned policies called NAME, the one on cgroup PATH, or all\n"
	"of them, and remove their pins.\n"
	"\n"
	"With -j: {\"unloaded\": [POLICY...]}, each as 'mglructl -j status' shows\n"
	"it once detached (state \"detached\", final counters, exit record), or\n"
	"in the state it had when 5 s did not see it go.\n";

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/*
 * The printer of what load attached, @pin NULL under --foreground: in
 * JSON with the values of its knobs it was loaded with.
 */
static void show_loaded(const struct policy *p, uint64_t id, uint64_t cgroup_id,
			const char *where, const char *pin,
			struct json_object *j)
{
	char object[PATH_MAX];
	struct json_object *knobs;
	int k;

	if (!j) {
		if (pin)
			printf("policy %s attached to %s (id %llu), pinned at %s\n",
			       p->name, where, (unsigned long long)id, pin);
		else
			printf("policy %s attached to %s (id %llu); Ctrl-C detaches it\n",
			       p->name, where, (unsigned long long)id);
		return;
	}
	jw_string(j, "policy", p->name);
	/* not "PREFIX/sbin/../lib/...", as policy_dir() finds it */
	jw_string(j, "object", realpath(p->path, object) ? object : p->path);
	jw_uint(j, "id", id);
	jw_uint(j, "cgroup_id", cgroup_id);
	jw_string(j, "cgroup", target_cgroup(where));
	knobs = jw_object(j, "knobs");
	for (k = 0; k < p->nr_knobs; k++)
		jw_string(knobs, p->knobs[k].name, p->knobs[k].dflt);
	jw_string(j, "pin", pin);
}

/*
 * --foreground: counters every second until a signal or an ejection. With
 * -j nothing until then; the document says how it ended and the policy's
 * last entry in the kernel's table ("final").
 */
static int run_foreground(struct policy *p, struct bpf_link *link, uint64_t id,
			  uint64_t cgroup_id, const char *where)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct json_object *j = json_output ? jw_begin() : NULL;
	struct kpolicy kp, last;
	bool have_last = false;
	int status = EXIT_OK;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	show_loaded(p, id, cgroup_id, where, NULL, j);
	fflush(stdout);

	while (!stop_signal) {
		sleep(1);
		if (find_kpolicy(id, &kp))
			break;
		last = kp;
		have_last = true;
		if (kp.state != KSTATE_ATTACHED) {
			if (!j) {
				printf("policy %s was ejected by the kernel\n",
				       p->name);
				show_exit(&kp, NULL);
			}
			status = EXIT_EJECTED;
			break;
		}
		if (!j) {
			show_counters(&kp, NULL);
			fflush(stdout);
		}
	}

	bpf_link__destroy(link);
	if (stop_signal && !j)
		printf("detaching policy %s: %s\n", p->name,
		       strsignal(stop_signal));
	if (wait_detached(id, 5000, &kp)) {
		last = kp;
		have_last = true;
		if (!j) {
			printf("final: ");
			show_counters(&kp, NULL);
			show_exit(&kp, NULL);
		}
	}
	if (j) {
		jw_bool(j, "ejected", status == EXIT_EJECTED);
		jw_string(j, "signal",
			  stop_signal ? strsignal(stop_signal) : NULL);
		if (have_last)
			show_kpolicy(&last, jw_object(j, "final"));
		else
			jw_null(j, "final");
	}
	return status;
}

struct load_args {
	const char *policy;
	const char *cgroup;
	struct knob_sets sets;
	bool foreground;
};

int cmd_load(int argc, char **argv)
{
	struct load_args a = {};
	const struct opt opts[] = {
		OPT("cgroup", 'c', OPT_VALUE, &a.cgroup),
		OPT_FN("set", 's', add_set, &a.sets),
		OPT("foreground", 'f', OPT_FLAG, &a.foreground),
		OPT("verbose", 'v', OPT_FLAG, &verbose),
		{},
	};
	char where[PATH_MAX], pin[PATH_MAX];
	struct bpf_link *link;
	struct policy p;
	uint64_t cgroup_id, id;
	int ret, err;

	ret = parse_options(argc, argv, opts, load_usage, ARGS_ANY);
	if (ret)
		return ret;
	log_setup(verbose);
	if (optind + 1 != argc)
		return usage_error(load_usage,
				   "load takes one POLICY or FILE.bpf.o");
	a.policy = argv[optind];

	ret = attach_policy(&p, a.policy, a.cgroup, a.sets.v, a.sets.n,
			    !a.foreground, &link, &cgroup_id, where,
			    sizeof(where));
	if (ret)
		return ret;
	id = newest_policy(p.name, cgroup_id);

	if (a.foreground) {
		ret = run_foreground(&p, link, id, cgroup_id, where);
		policy_close(&p);
		return ret;
	}

	pin_path(cgroup_id, "link", pin, sizeof(pin)); /* checked by attach */
	err = pin_link(link, cgroup_id);
	if (err) {
		ret = fail(EXIT_FAILURE_OTHER,
			   "pinning at %s failed: %s; policy detached", pin,
			   strerror(-err));
		bpf_link__destroy(link);
		policy_close(&p);
		return ret;
	}
	show_loaded(&p, id, cgroup_id, where, pin,
		    json_output ? jw_begin() : NULL);
	/* the pin keeps it attached; closing our fd (all a struct_ops
	 * link's detach does) and the object leaves it so */
	bpf_link__destroy(link);
	policy_close(&p);
	return EXIT_OK;
}

/*
 * Into unload's JSON @list, policy @id it unpinned: its entry in the
 * kernel's table now, @kp once @detached (the final counters and exit
 * record), else as it is while it detaches.
 */
static void show_unloaded(uint64_t id, bool detached, struct kpolicy *kp,
			  struct json_object *list)
{
	struct json_object *j = jw_object(list, NULL);

	if (detached || !find_kpolicy(id, kp)) {
		show_kpolicy(kp, j);
		return;
	}
	jw_uint(j, "id", id);
	jw_null(j, "state");
}

int cmd_unload(int argc, char **argv)
{
	const char *cgroup = NULL, *name = NULL;
	bool all = false, config;
	const struct opt opts[] = {
		OPT("cgroup", 'c', OPT_VALUE, &cgroup),
		OPT("all", 'a', OPT_FLAG, &all),
		{},
	};
	static struct kpolicy table[MAX_POLICIES];
	uint64_t ids[MAX_POLICIES];
	int i, n, nr_ids = 0, ret;
	char where[PATH_MAX], hash[32];
	struct json_object *list;
	struct kpolicy kp;
	bool detached;

	ret = parse_options(argc, argv, opts, unload_usage, ARGS_ANY);
	if (ret)
		return ret;
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
			    POLICIES_DIR, strerror(-n));

	for (i = 0; i < n; i++) {
		if (table[i].state == KSTATE_DETACHED)
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
		config = owned_hash(table[i].cgroup_id, hash, sizeof(hash));
		if (unpin(table[i].cgroup_id)) {
			ids[nr_ids++] = table[i].id;
			if (config)
				fprintf(stderr,
					"mglructl: note: policy %s (id %llu) was attached by the config file; a running mglructl daemon attaches it again (edit the file to keep it off)\n",
					table[i].name,
					(unsigned long long)table[i].id);
		} else if (name)
			fprintf(stderr,
				"mglructl: policy %s (id %llu) is not pinned: stop the mglructl that holds it\n",
				table[i].name, (unsigned long long)table[i].id);
	}
	if (!nr_ids && !all)
		return fail(EXIT_NOT_ATTACHED, "no pinned policy %s%s",
			    name ? "named " : "on ", name ? name : cgroup);

	list = json_output ? jw_array(jw_begin(), "unloaded") : NULL;
	for (i = 0; i < nr_ids; i++) {
		detached = wait_detached(ids[i], 5000, &kp);
		if (list)
			show_unloaded(ids[i], detached, &kp, list);
		else if (detached)
			printf("policy %s (id %llu) detached\n", kp.name,
			       (unsigned long long)kp.id);
		else
			printf("policy id %llu unpinned; still detaching\n",
			       (unsigned long long)ids[i]);
	}
	return EXIT_OK;
}
