/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What mglructl's commands share: one file per command (load.c, status.c,
 * run.c, apply.c, daemon.c, vmlinux.c), dispatched from main.c, with the
 * helpers below in common.c, the printers of the objects several of them
 * report in print.c, and one JSON writer (json_writer.h).
 */
#ifndef MGLRUCTL_H
#define MGLRUCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

#define MAX_SETS 32
#define MAX_POLICIES 64

struct bpf_link;
struct json_object;
struct policy;

extern bool verbose;

/* The commands: argv[0] is the command's name. */
int cmd_list(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_unload(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_daemon(int argc, char **argv);
int cmd_vmlinux_h(int argc, char **argv);

/* Their --help texts, which main.c prints. */
extern const char apply_usage[];
extern const char compare_usage[];
extern const char daemon_usage[];
extern const char list_usage[];
extern const char load_usage[];
extern const char run_usage[];
extern const char status_usage[];
extern const char unload_usage[];
extern const char vmlinux_h_usage[];

/* Is -h or --help among the arguments (before any "--")? */
bool want_help(int argc, char **argv);

/* Print "mglructl: <message>" and @usage on stderr; returns EXIT_USAGE. */
int usage_error(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * What apply and the daemon did, on stdout; with say_timestamps each line
 * starts with the boot-time clock in seconds, as dmesg's does.
 */
extern bool say_timestamps;
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* getopt's '?': the option it stopped at, as a usage error. */
int bad_option(const char *usage, char **argv);

/* A command's options, for parse_options(). */
#define MAX_OPTS 16

struct opt {
	const char *name; /* --name */
	char letter; /* -l */
	enum {
		OPT_FLAG, /* sets the bool *dst */
		OPT_VALUE, /* points the const char **dst at the value */
		OPT_MAYBE, /* the same, the value optional ("" without) */
		OPT_CALL, /* call(dst, value): NULL, or what is wrong */
	} kind;
	void *dst;
	const char *(*call)(void *dst, const char *value);
};

/* Repeated --set KNOB=VALUE options. */
struct knob_sets {
	const char *v[MAX_SETS];
	int n;
};

/* An OPT_CALL for --set: one more of them into the knob_sets @dst. */
const char *add_set(void *dst, const char *value);

/* Entries of an opts table: OPT(name, letter, kind, dst), OPT_FN(...). */
#define OPT(name, letter, kind, dst)          \
	{                                     \
		name, letter, kind, dst, NULL \
	}
#define OPT_FN(name, letter, fn, dst)           \
	{                                       \
		name, letter, OPT_CALL, dst, fn \
	}

/*
 * getopt_long() over @opts (ended by an entry without a name), storing
 * what each option says; then at most @max_args arguments (ARGS_ANY: any
 * number; ARGS_COMMAND: any, and the options end at the first, which
 * starts a command). Every command also takes -j/--json and --pretty,
 * the global -j and -p, after its name (no -p there: run and compare
 * have it for --policy); no table may use 'j'. Returns 0, or EXIT_USAGE
 * after printing the one line of what is wrong.
 */
#define ARGS_ANY -1
#define ARGS_COMMAND -2
int parse_options(int argc, char **argv, const struct opt *opts,
		  const char *usage, int max_args);

/* argv[optind] is one argument too many, as a usage error. */
int extra_argument(const char *usage, char **argv);

/* 0, or an EXIT_* status after saying what is missing. */
int check_privileges(void);
int check_kernel(void);
/* All three: the kernel, the privileges and bpffs to pin in. */
int check_can_pin(void);

/*
 * A cgroup for a policy: @id 0 and @desc "system" for none or the root,
 * else its id and "cgroup /path". Returns 0, EXIT_BAD_CGROUP or
 * EXIT_NAME_TOO_LONG.
 */
int resolve_target(const char *path, uint64_t *id, char *desc, size_t len);

/* The cgroup of a resolve_target() @desc as status names it: "/path". */
const char *target_cgroup(const char *desc);

/* "/path" of cgroup @id under the cgroup2 root, "system" for 0. */
void cgroup_name(uint64_t id, char *buf, size_t len);

/*
 * The printers (print.c): with @j, the object's fields go into that JSON
 * object; with NULL, its text goes to stdout.
 *
 * show_kpolicy: a policy of the kernel's table, its row of the status
 * table (and its exit record when it has one), or the object status -j
 * lists; show_counters: the counters line, or "counters" by name;
 * show_exit: the exit record line, or "exit" {kind, reason, message}.
 */
void show_kpolicy(const struct kpolicy *kp, struct json_object *j);
void show_counters(const struct kpolicy *kp, struct json_object *j);
void show_exit(const struct kpolicy *kp, struct json_object *j);

/* Who keeps policy @kp attached: "pin", "config", "process"; "-". */
const char *policy_owner(const struct kpolicy *kp);

/* Policy @id in the kernel's table; 0 or -ENOENT. */
int find_kpolicy(uint64_t id, struct kpolicy *out);

/* The id of the newest attached policy @name on @cgroup_id, 0 if none. */
uint64_t newest_policy(const char *name, uint64_t cgroup_id);

/* Wait up to @ms for policy @id to be detached; links go away async. */
bool wait_detached(uint64_t id, int ms, struct kpolicy *kp);

/*
 * Locate, open, set knobs, load and attach policy @arg on @cgroup (NULL:
 * system-wide). With @check_pin, refuse when a pin exists for the cgroup.
 * On success *link is attached and @p stays open; on failure @p is
 * closed and an EXIT_* status returned after printing why.
 */
int attach_policy(struct policy *p, const char *arg, const char *cgroup,
		  const char *const *sets, int nr_sets, bool check_pin,
		  struct bpf_link **link, uint64_t *cgroup_id, char *where,
		  size_t where_len);

/* Pin @link for @cgroup_id so it outlives us. 0 or -errno. */
int pin_link(struct bpf_link *link, uint64_t cgroup_id);

/* Remove the pin of @cgroup_id; returns whether there was one. */
bool unpin(uint64_t cgroup_id);

#endif /* MGLRUCTL_H */
