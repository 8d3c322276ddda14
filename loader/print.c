// SPDX-License-Identifier: GPL-2.0
/*
 * The printers of what several commands report: a policy in the kernel's
 * table, its counters, its exit record. One printer per object, as
 * bpftool has one show function per object: given a JSON object it fills
 * it (json_writer.h), given NULL it prints the object's text.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "json_writer.h"
#include "kernel.h"
#include "mglructl.h"

const char *policy_owner(const struct kpolicy *kp)
{
	char pin[PATH_MAX], hash[32];

	if (kp->state == KSTATE_DETACHED)
		return "-";
	if (owned_hash(kp->cgroup_id, hash, sizeof(hash)))
		return "config";
	if (pin_path(kp->cgroup_id, "link", pin, sizeof(pin)) ||
	    access(pin, F_OK))
		return "process";
	return "pin";
}

void show_counters(const struct kpolicy *kp, struct json_object *j)
{
	struct json_object *c;
	int i;

	if (j) {
		c = jw_object(j, "counters");
		for (i = 0; i < kp->nr_counters; i++)
			jw_uint(c, kp->counters[i].name, kp->counters[i].value);
		return;
	}
	printf("calls=%llu differed=%llu refused=%llu clamped=%llu throttles=%llu agings=%llu fallbacks=%llu stalls=%llu\n",
	       (unsigned long long)kp_total_calls(kp),
	       (unsigned long long)kp_counter(kp, "differed"),
	       (unsigned long long)kp_counter(kp, "refused"),
	       (unsigned long long)kp_counter(kp, "clamped"),
	       (unsigned long long)kp_counter(kp, "throttles"),
	       (unsigned long long)kp_counter(kp, "agings"),
	       (unsigned long long)kp_counter(kp, "fallbacks"),
	       (unsigned long long)kp_counter(kp, "stalls"));
}

void show_exit(const struct kpolicy *kp, struct json_object *j)
{
	struct json_object *e;

	if (j) {
		e = jw_object(j, "exit");
		jw_string(e, "kind", kp->exit_kind);
		jw_string(e, "reason", kp->exit_reason);
		jw_string(e, "message", kp->exit_msg);
		return;
	}
	printf("  exit: kind=%s reason=\"%s\"%s%s%s\n", kp->exit_kind,
	       kp->exit_reason, kp->exit_msg[0] ? " message=\"" : "",
	       kp->exit_msg, kp->exit_msg[0] ? "\"" : "");
}

void show_kpolicy(const struct kpolicy *kp, struct json_object *j)
{
	char cg[PATH_MAX], since[32];

	cgroup_name(kp->cgroup_id, cg, sizeof(cg));
	if (j) {
		jw_uint(j, "id", kp->id);
		jw_string(j, "name", kp->name);
		jw_uint(j, "cgroup_id", kp->cgroup_id);
		jw_string(j, "cgroup", cg);
		jw_string(j, "state", kstate_name(kp->state));
		jw_string(j, "owner", policy_owner(kp));
		jw_uint(j, "attached_ns", kp->attached_ns);
		show_counters(kp, j);
		show_exit(kp, j);
		return;
	}
	if (kp->attached_ns)
		snprintf(
			since, sizeof(since), "%llus",
			(unsigned long long)((boottime_ns() - kp->attached_ns) /
					     1000000000ULL));
	else
		snprintf(since, sizeof(since), "-");
	printf("%-4llu %-20s %-24s %-9s %-7s %8s  ", (unsigned long long)kp->id,
	       kp->name, cg, kstate_name(kp->state), policy_owner(kp), since);
	show_counters(kp, NULL);
	if (strcmp(kp->exit_kind, "none"))
		show_exit(kp, NULL);
}
