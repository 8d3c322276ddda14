// SPDX-License-Identifier: GPL-2.0
/* mglructl status and list: what ships, what is attached, how it does. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "errors.h"
#include "json_writer.h"
#include "memcg.h"
#include "mglructl.h"
#include "parse.h"
#include "policy.h"

const char status_usage[] =
	"Usage: mglructl status [--format=text|json|prometheus] [--watch [SECONDS]]\n"
	"\n"
	"Whether the kernel supports mglru_ext, the policies attached with their\n"
	"counters and owner (pin: 'mglructl load', config: apply or the daemon,\n"
	"process: a running mglructl), and the exit record (kind, reason,\n"
	"message) of each policy the kernel ejected or that was detached\n"
	"recently. --format=prometheus writes the Prometheus text exposition\n"
	"format, for node_exporter's textfile collector. --watch redraws, every\n"
	"SECONDS (default 1), each attached policy's decisions, refusals,\n"
	"throttles and agings per second and its cgroup's refaults per second;\n"
	"plain lines when stdout is not a terminal. Ctrl-C stops it.\n"
	"\n"
	"With -j (mglructl -j status; also status --json or --format=json):\n"
	"{\"kernel_support\": BOOL, \"policies\": [POLICY...]}, each POLICY\n"
	"{id, name, cgroup_id, cgroup, state, owner, attached_ns, counters\n"
	"{NAME: N...}, exit {kind, reason, message}}.\n";

const char list_usage[] =
	"Usage: mglructl list\n"
	"\n"
	"The policies that ship (name, description, knobs with defaults and\n"
	"ranges) and the policies attached now.\n"
	"\n"
	"With -j (mglructl -j list, or list --json): {\"shipped\": [{name,\n"
	"description, knobs [{name, default, min, max, doc}]}...], \"attached\":\n"
	"[POLICY...]}, each POLICY as 'mglructl status --help' says.\n";

/* The policies of @table as status -j lists them, into the array @list. */
static void show_kpolicies(const struct kpolicy *table, int n,
			   struct json_object *list)
{
	int i;

	for (i = 0; i < n; i++)
		show_kpolicy(&table[i], jw_object(list, NULL));
}

static void print_policy_table(const struct kpolicy *table, int n)
{
	int i;

	if (!n) {
		printf("no policy attached: stock MGLRU decides everywhere\n");
		return;
	}
	printf("%-4s %-20s %-24s %-9s %-7s %8s  %s\n", "ID", "NAME", "CGROUP",
	       "STATE", "OWNER", "SINCE", "COUNTERS");
	for (i = 0; i < n; i++)
		show_kpolicy(&table[i], NULL);
}

/* Attached (or ejected, awaiting unload) policies, then the last detached. */
static void print_status_tables(struct kpolicy *table, int n)
{
	static struct kpolicy current[MAX_POLICIES], detached[MAX_POLICIES];
	int i, nc = 0, nd = 0, first;

	for (i = 0; i < n; i++) {
		if (table[i].state != KSTATE_DETACHED)
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

/* A Prometheus label value: backslash, quote and newline escaped. */
static void prom_label(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			printf("\\%c", *s);
		else if (*s == '\n')
			printf("\\n");
		else
			putchar(*s);
	}
}

static void prom_labels(const struct kpolicy *kp)
{
	char cg[PATH_MAX];

	cgroup_name(kp->cgroup_id, cg, sizeof(cg));
	printf("{id=\"%llu\",name=\"", (unsigned long long)kp->id);
	prom_label(kp->name);
	printf("\",cgroup=\"");
	prom_label(cg);
	printf("\"}");
}

static bool metric_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/*
 * The exposition format: each metric family once, with its HELP and TYPE,
 * then a sample per policy. Detached policies are history, not state:
 * only the attached and ejected ones are written.
 */
static void print_prometheus(bool support, const struct kpolicy *table, int n)
{
	const struct kpolicy *cur[MAX_POLICIES];
	int i, c, nc = 0;
	enum kstate st;
	char name[64];
	size_t k;

	printf("# HELP mglru_ext_kernel_support Whether the running kernel has mglru_ext.\n");
	printf("# TYPE mglru_ext_kernel_support gauge\n");
	printf("mglru_ext_kernel_support %d\n", support);
	for (i = 0; i < n; i++)
		if (table[i].state != KSTATE_DETACHED)
			cur[nc++] = &table[i];
	printf("# HELP mglru_ext_policies Policies in the kernel's table by state.\n");
	printf("# TYPE mglru_ext_policies gauge\n");
	for (st = KSTATE_ATTACHED; st < KSTATE_DETACHED; st++) {
		int count = 0;

		for (i = 0; i < nc; i++)
			count += cur[i]->state == st;
		printf("mglru_ext_policies{state=\"%s\"} %d\n", kstate_name(st),
		       count);
	}
	printf("# HELP mglru_ext_policy_info A policy attached or ejected, with its state, owner and exit kind; always 1.\n");
	printf("# TYPE mglru_ext_policy_info gauge\n");
	for (i = 0; i < nc; i++) {
		char cg[PATH_MAX];

		cgroup_name(cur[i]->cgroup_id, cg, sizeof(cg));
		printf("mglru_ext_policy_info{id=\"%llu\",name=\"",
		       (unsigned long long)cur[i]->id);
		prom_label(cur[i]->name);
		printf("\",cgroup=\"");
		prom_label(cg);
		printf("\",state=\"%s\",owner=\"%s\",exit_kind=\"%s\"} 1\n",
		       kstate_name(cur[i]->state), policy_owner(cur[i]),
		       cur[i]->exit_kind);
	}
	if (!nc)
		return;
	/* the counters the kernel reports, the first policy's list */
	for (c = 0; c < cur[0]->nr_counters; c++) {
		const char *cn = cur[0]->counters[c].name;

		for (k = 0; cn[k] && k < sizeof(name) - 1; k++)
			name[k] = metric_char(cn[k]) ? cn[k] : '_';
		name[k] = '\0';
		printf("# HELP mglru_ext_%s_total The policy's %s counter.\n",
		       name, cn);
		printf("# TYPE mglru_ext_%s_total counter\n", name);
		for (i = 0; i < nc; i++) {
			printf("mglru_ext_%s_total", name);
			prom_labels(cur[i]);
			printf(" %llu\n",
			       (unsigned long long)kp_counter(cur[i], cn));
		}
	}
}

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	stop = sig;
}

struct watched {
	uint64_t id;
	uint64_t calls, refused, throttles, agings, refaults;
};

/* Refaults of the cgroup @cg names ("/path", from cgroup_name()). */
static uint64_t refaults_of(uint64_t cgroup_id, const char *cg)
{
	char dir[PATH_MAX];

	if (!cgroup_id)
		return memcg_stat("/proc", "vmstat",
				  "workingset_refault_anon") +
		       memcg_stat("/proc", "vmstat", "workingset_refault_file");
	if (cg[0] != '/' ||
	    xsnprintf(dir, sizeof(dir), "%s%s", CGROUP_ROOT, cg))
		return 0; /* deleted, or too deep to name */
	return memcg_stat(dir, "memory.stat", "workingset_refault_anon") +
	       memcg_stat(dir, "memory.stat", "workingset_refault_file");
}

static void sample(const struct kpolicy *kp, const char *cg, struct watched *w)
{
	w->id = kp->id;
	w->calls = kp_total_calls(kp);
	w->refused = kp_counter(kp, "refused");
	w->throttles = kp_counter(kp, "throttles");
	w->agings = kp_counter(kp, "agings");
	w->refaults = refaults_of(kp->cgroup_id, cg);
}

static int watch(double interval)
{
	static struct kpolicy table[MAX_POLICIES];
	static struct watched prev[MAX_POLICIES], cur[MAX_POLICIES];
	struct sigaction sa = { .sa_handler = on_stop };
	bool tty = isatty(STDOUT_FILENO);
	int i, j, n, nprev = 0, ncur;
	struct timespec ts;
	char cg[PATH_MAX];

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ts.tv_sec = (time_t)interval;
	ts.tv_nsec = (long)((interval - ts.tv_sec) * 1e9);
	while (!stop) {
		n = kernel_policies(table, MAX_POLICIES);
		if (n < 0)
			return fail(EXIT_FAILURE_OTHER, "cannot read %s: %s",
				    POLICIES_DIR, strerror(-n));
		if (tty)
			printf("\033[H\033[J");
		printf("%-4s %-20s %-24s %-9s %10s %9s %10s %8s %10s\n", "ID",
		       "NAME", "CGROUP", "STATE", "DECIDED/s", "REFUSED/s",
		       "THROTTLE/s", "AGINGS/s", "REFAULTS/s");
		for (i = 0, ncur = 0; i < n; i++) {
			const struct kpolicy *kp = &table[i];
			const struct watched *p = NULL;
			struct watched *w = &cur[ncur++];

			if (kp->state == KSTATE_DETACHED) {
				ncur--;
				continue;
			}
			cgroup_name(kp->cgroup_id, cg, sizeof(cg));
			sample(kp, cg, w);
			for (j = 0; j < nprev; j++)
				if (prev[j].id == kp->id)
					p = &prev[j];
			printf("%-4llu %-20s %-24s %-9s ",
			       (unsigned long long)kp->id, kp->name, cg,
			       kstate_name(kp->state));
			if (p)
				printf("%10.0f %9.0f %10.0f %8.0f %10.0f\n",
				       (w->calls - p->calls) / interval,
				       (w->refused - p->refused) / interval,
				       (w->throttles - p->throttles) / interval,
				       (w->agings - p->agings) / interval,
				       (w->refaults - p->refaults) / interval);
			else
				printf("%10s %9s %10s %8s %10s\n", "-", "-",
				       "-", "-", "-");
		}
		if (!ncur)
			printf("no policy attached: stock MGLRU decides everywhere\n");
		if (!tty)
			printf("\n");
		fflush(stdout);
		memcpy(prev, cur, ncur * sizeof(cur[0]));
		nprev = ncur;
		nanosleep(&ts, NULL);
	}
	return EXIT_OK;
}

int cmd_status(int argc, char **argv)
{
	const char *fmt = NULL, *watch_arg = NULL;
	bool prometheus = false;
	const struct opt opts[] = {
		OPT("format", 'f', OPT_VALUE, &fmt),
		OPT("watch", 'w', OPT_MAYBE, &watch_arg),
		{},
	};
	static struct kpolicy table[MAX_POLICIES];
	struct json_object *j;
	double interval = 0;
	bool support;
	int n, ret;
	char *end;

	ret = parse_options(argc, argv, opts, status_usage, 1);
	if (ret)
		return ret;
	/* --watch 2 as well as --watch=2 */
	if (optind < argc) {
		if (!watch_arg || *watch_arg)
			return extra_argument(status_usage, argv);
		watch_arg = argv[optind];
	}
	if (fmt && strcmp(fmt, "text") && strcmp(fmt, "json") &&
	    strcmp(fmt, "prometheus"))
		return usage_error(status_usage, "unknown --format '%s'", fmt);
	if (fmt && strcmp(fmt, "json") && json_output)
		return usage_error(status_usage,
				   "--format=%s and --json: choose one", fmt);
	if (fmt && !strcmp(fmt, "json"))
		json_output = true;
	prometheus = fmt && !strcmp(fmt, "prometheus");
	if (watch_arg) {
		interval = *watch_arg ? strtod(watch_arg, &end) : 1;
		if ((*watch_arg && *end) ||
		    !(interval >= 0.1 && interval <= 3600))
			return usage_error(
				status_usage,
				"bad --watch '%s' (0.1 to 3600 seconds)",
				watch_arg);
	}
	if (interval && (json_output || prometheus))
		return usage_error(
			status_usage,
			"--watch draws text; it takes no --json or --format");

	support = kernel_has_mglru_ext();
	if (interval) {
		if (!support)
			return check_kernel();
		return watch(interval);
	}
	n = support ? kernel_policies(table, MAX_POLICIES) : 0;
	if (n < 0)
		return fail(EXIT_FAILURE_OTHER, "cannot read %s: %s",
			    POLICIES_DIR, strerror(-n));
	if (json_output) {
		j = jw_begin();
		jw_bool(j, "kernel_support", support);
		show_kpolicies(table, n, jw_array(j, "policies"));
	} else if (prometheus) {
		print_prometheus(support, table, n);
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

/*
 * The printer of a shipped policy: its name, description and knobs (the
 * values @p has, its defaults unless set), as list shows them.
 */
static void show_shipped(const struct policy *p, struct json_object *j)
{
	struct json_object *knobs, *one;
	const struct knob *kn;
	int k;

	if (j) {
		jw_string(j, "name", p->file_name);
		jw_string(j, "description", p->desc);
		knobs = jw_array(j, "knobs");
		for (k = 0; k < p->nr_knobs; k++) {
			kn = &p->knobs[k];
			one = jw_object(knobs, NULL);
			jw_string(one, "name", kn->name);
			jw_string(one, "default", kn->dflt);
			jw_string(one, "min", kn->min);
			jw_string(one, "max", kn->max);
			jw_string(one, "doc", kn->doc);
		}
		return;
	}
	printf("\n  %-20s %s\n", p->file_name, p->desc);
	for (k = 0; k < p->nr_knobs; k++) {
		kn = &p->knobs[k];
		printf("      --set %s=%s", kn->name, kn->dflt);
		if (kn->min[0])
			printf("  [%s..%s]", kn->min, kn->max);
		printf("  %s\n", kn->doc);
	}
}

int cmd_list(int argc, char **argv)
{
	static struct kpolicy table[MAX_POLICIES];
	const struct opt opts[] = { {} };
	struct json_object *j = NULL, *shipped = NULL;
	char *names[MAX_POLICIES], path[PATH_MAX];
	const char *dir = policy_dir();
	struct dirent *de;
	struct policy p;
	int i, k, n = 0, nk = 0, ret;
	DIR *d;

	ret = parse_options(argc, argv, opts, list_usage, 0);
	if (ret)
		return ret;

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

	if (json_output) {
		j = jw_begin();
		shipped = jw_array(j, "shipped");
	} else {
		printf("Policies shipped in %s:\n", dir);
	}
	for (i = 0; i < n; i++) {
		ret = xsnprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		free(names[i]);
		if (ret || policy_open(&p, path))
			continue;
		show_shipped(&p, shipped ? jw_object(shipped, NULL) : NULL);
		policy_close(&p);
	}

	if (kernel_has_mglru_ext())
		nk = kernel_policies(table, MAX_POLICIES);
	for (i = 0, k = 0; i < nk; i++)
		if (table[i].state != KSTATE_DETACHED)
			table[k++] = table[i];
	nk = k;
	if (j) {
		show_kpolicies(table, nk, jw_array(j, "attached"));
		return EXIT_OK;
	}
	printf("\nAttached now:\n");
	print_policy_table(table, nk);
	return EXIT_OK;
}
