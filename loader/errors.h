/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mglructl exit statuses: one per kind of failure, so that scripts can
 * tell them apart. Documented in `mglructl --help` and docs/mglructl.md.
 */
#ifndef MGLRUCTL_ERRORS_H
#define MGLRUCTL_ERRORS_H

#include <stddef.h>

enum mglructl_status {
	EXIT_OK = 0,
	EXIT_FAILURE_OTHER = 1, /* anything not listed below */
	EXIT_USAGE = 2, /* bad command line */
	EXIT_NO_KERNEL_SUPPORT = 3, /* kernel without mglru_ext */
	EXIT_PERMISSION = 4, /* not root / missing capabilities */
	EXIT_BAD_CGROUP = 5, /* no such cgroup, or not cgroup v2 */
	EXIT_ALREADY_ATTACHED = 6, /* a policy is attached on that cgroup */
	EXIT_BAD_OBJECT = 7, /* not an mglru_ext policy object */
	EXIT_UNKNOWN_POLICY = 8, /* no shipped policy by that name */
	EXIT_VERIFIER = 9, /* the verifier rejected the policy */
	EXIT_NO_BPFFS = 10, /* bpffs not mounted */
	EXIT_BAD_KNOB = 11, /* unknown knob, wrong type, out of range */
	EXIT_NOT_ATTACHED = 12, /* unload: nothing attached there */
	EXIT_EJECTED = 13, /* --foreground/run: the kernel ejected it */
	EXIT_REFUSED = 14, /* the policy's init refused to attach */
	EXIT_BAD_CONFIG = 15, /* apply/daemon: the config file is invalid */
	EXIT_COMPARED_FAILED = 16, /* compare: a side's command failed */
	EXIT_NAME_TOO_LONG = 17, /* a path past PATH_MAX or NAME_MAX */
};

/*
 * Print "mglructl: <message>" on stderr and return @status. While
 * fail_where is set, the message starts with it instead ("FILE:LINE"), so
 * that what the policy code says about a knob in the config file comes
 * out as one "FILE:LINE: reason" line.
 */
extern const char *fail_where;
/* The name errors start with: "mglructl", or a test tool's. */
extern const char *fail_program;

int fail(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * snprintf() for what must not be cut, paths above all: 0 when all of it
 * fit in @len bytes, else -ENAMETOOLONG (@buf then holds the start).
 */
int xsnprintf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The one error for a path that does not fit PATH_MAX, or has a name
 * longer than NAME_MAX: "@what is too long (...): <its start>...", and
 * EXIT_NAME_TOO_LONG.
 */
int fail_too_long(const char *what, const char *path);

#endif /* MGLRUCTL_ERRORS_H */
