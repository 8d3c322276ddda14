// SPDX-License-Identifier: GPL-2.0
/* mglructl apply: attach what the config file assigns; see apply.h. */
#define _GNU_SOURCE
#include "apply.h"

#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "errors.h"
#include "json_writer.h"
#include "mglructl.h"
#include "policy.h"

const char apply_usage[] =
	"Usage: mglructl apply [--config FILE] [--check]\n"
	"\n"
	"Attach the policies the config file (default " DEFAULT_CONFIG ")\n"
	"assigns to every existing cgroup that matches, re-attach those of its\n"
	"policies that the kernel ejected or whose entry changed, and detach\n"
	"the policies an earlier apply attached that the file no longer\n"
	"names. Policies loaded by hand are left alone. Nothing is attached\n"
	"from a file that does not validate. With --check, validate the file\n"
	"and print what would be attached, touching nothing.\n"
	"\n"
	"The file is INI: one [section] per kind of cgroup, with one or more\n"
	"'match = PATTERN' lines (globs over cgroup paths below /sys/fs/cgroup;\n"
	"'*' does not cross '/'), 'policy = NAME|FILE.bpf.o' and one\n"
	"'KNOB = VALUE' line per knob. '#' and ';' start comments. No cgroup\n"
	"may match two sections that assign different policies or knobs.\n"
	"\n"
	"With -j, apply prints {config, actions [...]}: each action {action,\n"
	"cgroup_id, cgroup, ...}, action one of attached (section, policy, id),\n"
	"detached (policy, id, reason), ejected (policy, id, exit), kept (a\n"
	"policy loaded by hand: policy, id, reason) and failed (section,\n"
	"status; the error is on stderr). --check prints {config, sections,\n"
	"matches [{cgroup_id, cgroup, section, line, policy, object, knobs\n"
	"{KNOB: VALUE...}}]}.\n";

/* The cgroups of the last walk. */
static struct target *targets;
static int nr_targets, cap_targets;
static const struct config *walk_config;
static const struct reconcile_hooks *walk_hooks;

static int walk_one(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	const char *rel = path + strlen(CGROUP_ROOT);
	struct target *t;

	(void)ftw;
	if (flag != FTW_D)
		return 0;
	if (walk_hooks && walk_hooks->on_dir)
		walk_hooks->on_dir(path);
	rel += *rel == '/';
	if (!*rel)
		return 0;
	if (nr_targets == cap_targets) {
		cap_targets = cap_targets ? cap_targets * 2 : 64;
		t = realloc(targets, cap_targets * sizeof(*t));
		if (!t)
			return -1;
		targets = t;
	}
	t = &targets[nr_targets];
	/* a cgroup too deep to name by its path cannot be attached to */
	if (xsnprintf(t->rel, sizeof(t->rel), "%s", rel))
		return 0;
	nr_targets++;
	t->id = st->st_ino;
	t->entry = walk_config ? config_match(walk_config, rel) : NULL;
	return 0;
}

static void walk_cgroups(const struct config *c,
			 const struct reconcile_hooks *h)
{
	nr_targets = 0;
	walk_config = c;
	walk_hooks = h;
	nftw(CGROUP_ROOT, walk_one, 32, FTW_PHYS | FTW_MOUNT);
}

static const struct target *target_by_id(uint64_t id)
{
	int i;

	for (i = 0; i < nr_targets; i++)
		if (targets[i].id == id)
			return &targets[i];
	return NULL;
}

bool owned_hash(uint64_t cgroup_id, char *hash, size_t len)
{
	char dir[PATH_MAX];
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (pin_path(cgroup_id, NULL, dir, sizeof(dir)))
		return false;
	d = opendir(dir);
	if (!d)
		return false;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "config-", 7)) {
			snprintf(hash, len, "%s", de->d_name + 7);
			found = true;
		}
	closedir(d);
	return found;
}

/* The cgroup ids that have a config marker, and the hash of each. */
static int owned_ids(uint64_t *ids, char (*hashes)[32], int max)
{
	unsigned long long id;
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(PIN_ROOT);
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max)
		if (sscanf(de->d_name, "cgroup-%llu", &id) == 1 &&
		    owned_hash(id, hashes[n], sizeof(hashes[n])))
			ids[n++] = id;
	closedir(d);
	return n;
}

static bool in_ids(const uint64_t *ids, int n, uint64_t id)
{
	while (n--)
		if (ids[n] == id)
			return true;
	return false;
}

/* The policy deciding for @cgroup_id in @table (newest not detached). */
static const struct kpolicy *current(const struct kpolicy *table, int n,
				     uint64_t cgroup_id)
{
	const struct kpolicy *kp = NULL;
	int i;

	for (i = 0; i < n; i++)
		if (table[i].cgroup_id == cgroup_id &&
		    table[i].state != KSTATE_DETACHED &&
		    (!kp || table[i].id > kp->id))
			kp = &table[i];
	return kp;
}

/* apply -j: what reconcile did, one object each; NULL: it says it. */
static struct json_object *actions;

/* A new object of apply -j's actions: @what on @cgroup_id at @path. */
static struct json_object *action(const char *what, uint64_t cgroup_id,
				  const char *path)
{
	struct json_object *a = jw_object(actions, NULL);

	jw_string(a, "action", what);
	jw_uint(a, "cgroup_id", cgroup_id);
	jw_string(a, "cgroup", path);
	return a;
}

/* The policy @kp (NULL: none) of an action: its name and id. */
static void action_policy(struct json_object *a, const struct kpolicy *kp)
{
	jw_string(a, "policy", kp ? kp->name : NULL);
	if (kp)
		jw_uint(a, "id", kp->id);
	else
		jw_null(a, "id");
}

/*
 * Unpin the policy of @cgroup_id, @kp in the table the caller read (NULL:
 * none there), and wait until the kernel has detached it. With @why, say
 * so: the cgroup is @path ("/a/b"; NULL when it is gone).
 */
static void detach(uint64_t cgroup_id, const struct kpolicy *kp,
		   const char *path, const char *why)
{
	struct json_object *a;
	struct kpolicy done;

	unpin(cgroup_id);
	if (kp)
		wait_detached(kp->id, 5000, &done);
	if (!why)
		return;
	if (actions) {
		a = action("detached", cgroup_id, path);
		action_policy(a, kp);
		jw_string(a, "reason", why);
	} else if (path) {
		say("detached %s from %s: %s\n", kp ? kp->name : "policy", path,
		    why);
	} else {
		say("detached %s from cgroup %llu: %s\n",
		    kp ? kp->name : "policy", (unsigned long long)cgroup_id,
		    why);
	}
}

/* Policies loaded by hand we said we leave alone, so we say it once. */
static uint64_t warned[MAX_POLICIES];
static int nr_warned;

static void warn_once(const struct kpolicy *kp, const struct target *t)
{
	int i;

	for (i = 0; i < nr_warned; i++)
		if (warned[i] == kp->id)
			return;
	if (nr_warned < MAX_POLICIES)
		warned[nr_warned++] = kp->id;
	fprintf(stderr,
		"mglructl: /%s has policy %s (id %llu) not attached by the config; leaving it\n",
		t->rel, kp->name, (unsigned long long)kp->id);
}

/* "/a/b" of @t into @buf of PATH_MAX + 1 bytes: t->rel fits PATH_MAX. */
static const char *target_path(const struct target *t, char *buf)
{
	snprintf(buf, PATH_MAX + 1, "/%s", t->rel);
	return buf;
}

static int attach_entry(const struct target *t)
{
	const struct config_entry *e = t->entry;
	const char *sets[MAX_SETS];
	char where[PATH_MAX], abs[PATH_MAX], marker[PATH_MAX], leaf[32];
	char path[PATH_MAX + 1];
	struct bpf_link *link;
	uint64_t cgroup_id, id;
	struct policy p;
	int i, ret, err;

	for (i = 0; i < e->nr_sets; i++)
		sets[i] = e->sets[i];
	if (xsnprintf(abs, sizeof(abs), "%s/%s", CGROUP_ROOT, t->rel))
		return fail_too_long("cgroup path", abs);
	ret = attach_policy(&p, e->path, abs, sets, e->nr_sets, true, &link,
			    &cgroup_id, where, sizeof(where));
	if (ret)
		return ret;
	id = newest_policy(p.name, cgroup_id);
	err = pin_link(link, cgroup_id);
	if (err) {
		ret = fail(EXIT_FAILURE_OTHER,
			   "pinning the policy of /%s: %s; detached", t->rel,
			   strerror(-err));
		bpf_link__destroy(link);
		policy_close(&p);
		return ret;
	}
	snprintf(leaf, sizeof(leaf), "config-%s", e->hash); /* 16 digits */
	ret = pin_path(cgroup_id, leaf, marker, sizeof(marker));
	if (!ret && mkdir(marker, 0700))
		ret = -errno;
	if (ret)
		fprintf(stderr, "mglructl: marking %s: %s\n", marker,
			strerror(-ret));
	if (actions) {
		struct json_object *a =
			action("attached", cgroup_id, target_path(t, path));

		jw_string(a, "section", e->name);
		jw_string(a, "policy", p.name);
		jw_uint(a, "id", id);
	} else {
		say("attached %s to /%s (id %llu)\n", p.name, t->rel,
		    (unsigned long long)id);
	}
	/*
	 * Closes our fd (a struct_ops link's detach is a close); the pin
	 * keeps the link. bpf_link__disconnect() would leak the fd, and a
	 * daemon holding it could never detach the policy by unpinning.
	 */
	bpf_link__destroy(link);
	policy_close(&p);
	return 0;
}

int reconcile(const struct config *c, const struct reconcile_hooks *h)
{
	static struct kpolicy table[MAX_POLICIES];
	uint64_t ids[MAX_POLICIES];
	char hashes[MAX_POLICIES][32], path[PATH_MAX + 1];
	struct json_object *a;
	const struct kpolicy *kp;
	const struct target *t;
	int i, n, nr_owned, ret, first = 0;

	walk_cgroups(c, h);
	n = kernel_policies(table, MAX_POLICIES);
	if (n < 0)
		return fail(EXIT_FAILURE_OTHER, "cannot read %s: %s",
			    POLICIES_DIR, strerror(-n));

	/* the config's policies first: gone, no longer wanted, ejected */
	nr_owned = owned_ids(ids, hashes, MAX_POLICIES);
	for (i = 0; i < nr_owned; i++) {
		t = target_by_id(ids[i]);
		kp = current(table, n, ids[i]);
		if (!t) {
			detach(ids[i], kp, NULL, "the cgroup is gone");
			continue;
		}
		target_path(t, path);
		if (!t->entry) {
			detach(ids[i], kp, path, "no longer in the config");
			continue;
		}
		if (strcmp(t->entry->hash, hashes[i])) {
			detach(ids[i], kp, path, "its config entry changed");
			continue;
		}
		if (!kp) {
			unpin(ids[i]); /* a stale pin: attach anew below */
			continue;
		}
		if (kp->state == KSTATE_ATTACHED)
			continue;
		if (h && h->on_ejected && !h->on_ejected(t, kp))
			continue;
		if (actions) {
			a = action("ejected", ids[i], path);
			action_policy(a, kp);
			show_exit(kp, a);
		} else {
			say("policy %s on /%s was ejected (kind=%s reason=\"%s\"): re-attaching\n",
			    kp->name, t->rel, kp->exit_kind, kp->exit_reason);
		}
		detach(ids[i], kp, NULL, NULL);
	}

	n = kernel_policies(table, MAX_POLICIES);
	if (n < 0)
		n = 0;
	for (i = 0; i < nr_targets; i++) {
		t = &targets[i];
		if (!t->entry)
			continue;
		kp = current(table, n, t->id);
		if (kp) {
			if (in_ids(ids, nr_owned, t->id))
				continue;
			warn_once(kp, t);
			if (actions) {
				a = action("kept", t->id, target_path(t, path));
				action_policy(a, kp);
				jw_string(a, "reason",
					  "not attached by the config");
			}
			continue;
		}
		if (h && h->may_attach && !h->may_attach(t))
			continue;
		ret = attach_entry(t);
		if (h && h->attached)
			h->attached(t, ret);
		if (ret && actions) {
			a = action("failed", t->id, target_path(t, path));
			jw_string(a, "section", t->entry->name);
			jw_int(a, "status", ret);
		}
		if (ret && !first)
			first = ret;
	}
	fflush(stdout);
	return first;
}

void reconcile_plan(const struct config *c, struct json_object *j)
{
	const struct config_entry *e;
	struct json_object *matches = NULL, *m, *knobs;
	char path[PATH_MAX + 1], name[SET_LEN], object[PATH_MAX];
	const char *eq;
	int i, k, n = 0;

	walk_cgroups(c, NULL);
	if (j) {
		jw_string(j, "config", c->file);
		jw_int(j, "sections", c->nr_entries);
		matches = jw_array(j, "matches");
	}
	for (i = 0; i < nr_targets; i++) {
		e = targets[i].entry;
		if (!e)
			continue;
		n++;
		if (!matches) {
			printf("/%s: [%s] %s", targets[i].rel, e->name,
			       e->policy);
			for (k = 0; k < e->nr_sets; k++)
				printf(" %s", e->sets[k]);
			printf(" (line %d)\n", e->line);
			continue;
		}
		m = jw_object(matches, NULL);
		jw_uint(m, "cgroup_id", targets[i].id);
		jw_string(m, "cgroup", target_path(&targets[i], path));
		jw_string(m, "section", e->name);
		jw_int(m, "line", e->line);
		jw_string(m, "policy", e->policy);
		jw_string(m, "object",
			  realpath(e->path, object) ? object : e->path);
		knobs = jw_object(m, "knobs");
		for (k = 0; k < e->nr_sets; k++) {
			/* "knob=value": an INI key has no '=' */
			eq = strchr(e->sets[k], '=');
			snprintf(name, sizeof(name), "%.*s",
				 (int)(eq - e->sets[k]), e->sets[k]);
			jw_string(knobs, name, eq + 1);
		}
	}
	if (!matches)
		printf("%s: valid, %d section%s, %d existing cgroup%s match\n",
		       c->file, c->nr_entries, c->nr_entries == 1 ? "" : "s", n,
		       n == 1 ? "" : "s");
}

int detach_owned(const char *why)
{
	static struct kpolicy table[MAX_POLICIES];
	static char hashes[MAX_POLICIES][32];
	uint64_t ids[MAX_POLICIES];
	const struct kpolicy *kp;
	char path[PATH_MAX];
	int i, n = owned_ids(ids, hashes, MAX_POLICIES);
	int nt = kernel_policies(table, MAX_POLICIES);

	for (i = 0; i < n; i++) {
		kp = nt > 0 ? current(table, nt, ids[i]) : NULL;
		if (cgroup_path_of(CGROUP_ROOT, ids[i], path, sizeof(path)))
			detach(ids[i], kp, NULL, why);
		else
			detach(ids[i], kp, path, why);
	}
	return n;
}

int cmd_apply(int argc, char **argv)
{
	const char *file = DEFAULT_CONFIG;
	static struct config c;
	bool check = false;
	const struct opt opts[] = {
		OPT("config", 'c', OPT_VALUE, &file),
		OPT("check", 'n', OPT_FLAG, &check),
		{},
	};
	struct json_object *j;
	int ret;

	ret = parse_options(argc, argv, opts, apply_usage, 0);
	if (ret)
		return ret;
	ret = config_load(file, &c);
	if (ret)
		return ret;
	if (check) {
		reconcile_plan(&c, json_output ? jw_begin() : NULL);
		return EXIT_OK;
	}
	ret = check_can_pin();
	if (ret)
		return ret;
	if (json_output) {
		j = jw_begin();
		jw_string(j, "config", c.file);
		actions = jw_array(j, "actions");
	}
	return reconcile(&c, NULL);
}
