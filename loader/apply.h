/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Making the kernel's attachments what a config file says. A policy that
 * apply attached is pinned as any other and marked as the config's by an
 * empty directory next to its pin, PIN_ROOT/cgroup-<id>/config-<hash>,
 * where <hash> covers the object and its knobs: state lives as long as
 * the pins and needs no file of its own, so a restarted daemon adopts
 * what an earlier one attached.
 */
#ifndef MGLRUCTL_APPLY_H
#define MGLRUCTL_APPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "kernel.h"

struct json_object;

/* A cgroup that a config entry matches. */
struct target {
	uint64_t id;
	char rel[PATH_MAX]; /* below the cgroup2 root, no leading '/' */
	const struct config_entry *entry;
};

/* What the daemon decides; NULL members: apply's one-shot answers. */
struct reconcile_hooks {
	/* each cgroup directory seen, for the daemon's inotify watches */
	void (*on_dir)(const char *path);
	/* may the ejected policy @kp on @t be re-attached now? */
	bool (*on_ejected)(const struct target *t, const struct kpolicy *kp);
	/* may @t's policy be attached now (after a failed attach)? */
	bool (*may_attach)(const struct target *t);
	/* attaching @t's policy gave EXIT_* @status (0: attached) */
	void (*attached)(const struct target *t, int status);
};

/*
 * Attach what @c assigns to every matching cgroup that has no policy,
 * re-attach the config's policies that the kernel ejected or whose entry
 * changed, detach those the config no longer names. Policies loaded by
 * hand are left alone. Says what it changed (with -j, as apply's
 * actions). Returns 0 or the EXIT_* status of the first failure.
 */
int reconcile(const struct config *c, const struct reconcile_hooks *h);

/*
 * Print what reconcile would attach, touching nothing; with @j, fill
 * that JSON object with it (apply --check -j).
 */
void reconcile_plan(const struct config *c, struct json_object *j);

/* Detach every policy the config attached. Returns how many. */
int detach_owned(const char *why);

/* The config hash of the policy pinned for @cgroup_id, if the config's. */
bool owned_hash(uint64_t cgroup_id, char *hash, size_t len);

#endif /* MGLRUCTL_APPLY_H */
