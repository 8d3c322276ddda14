// SPDX-License-Identifier: GPL-2.0
/*
 * mglructl daemon: keep the config file's assignment true. A cgroup made
 * later gets its policy as soon as inotify on cgroupfs reports it; a
 * policy the kernel ejected is re-attached after an exponential backoff,
 * a limited number of times per cgroup per hour; SIGHUP re-reads the
 * file (a broken one keeps the old assignment); SIGTERM detaches what the
 * config attached. Its state is the pins and markers (apply.h), so a
 * daemon that was killed and restarted adopts what is attached.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "apply.h"
#include "errors.h"
#include "json_writer.h"
#include "kernel.h"
#include "mglructl.h"
#include "parse.h"

#define RUN_DIR "/run/mglru_ext"
#define PID_FILE RUN_DIR "/daemon.pid"
#define MAX_TRACKED 256
#define HOUR 3600.0

const char daemon_usage[] =
	"Usage: mglructl daemon [--config FILE] [--backoff SECONDS]\n"
	"                       [--backoff-max SECONDS] [--max-restarts N]\n"
	"\n"
	"Apply the config file (default " DEFAULT_CONFIG ", see\n"
	"'mglructl apply --help') and keep it applied: a matching cgroup made\n"
	"later gets its policy within a second, and a policy the kernel ejects\n"
	"is re-attached after a backoff that starts at --backoff (default 1 s)\n"
	"and doubles up to --backoff-max (default 300 s), at most\n"
	"--max-restarts times (default 5) per cgroup per hour; then stock\n"
	"MGLRU decides there until the hour has passed. Each ejection is\n"
	"logged with the kernel's exit record.\n"
	"\n"
	"SIGHUP re-reads the file; one that does not validate is reported and\n"
	"the old assignment kept. SIGTERM or SIGINT detach the policies the\n"
	"config attached and exit 0. Policies stay attached if the daemon is\n"
	"killed; a new daemon adopts them. One daemon runs at a time\n"
	"(" PID_FILE ").\n";

struct restarts {
	uint64_t cgroup_id;
	uint64_t policy_id; /* the ejection we last saw */
	double at[64]; /* re-attach times within the last hour */
	int nr;
	double next; /* when the next re-attach may happen */
	int failures; /* attaches that failed in a row */
};

static struct restarts tracked[MAX_TRACKED];
static int nr_tracked;
static double backoff = 1, backoff_max = 300;
static unsigned int max_restarts = 5;
static int inotify_fd = -1;

static struct restarts *restarts_of(uint64_t cgroup_id)
{
	int i;

	for (i = 0; i < nr_tracked; i++)
		if (tracked[i].cgroup_id == cgroup_id)
			return &tracked[i];
	if (nr_tracked == MAX_TRACKED)
		return &tracked[MAX_TRACKED - 1];
	memset(&tracked[nr_tracked], 0, sizeof(tracked[0]));
	tracked[nr_tracked].cgroup_id = cgroup_id;
	return &tracked[nr_tracked++];
}

/* Forget re-attaches older than an hour. */
static void prune(struct restarts *r, double now)
{
	int i, j = 0;

	for (i = 0; i < r->nr; i++)
		if (now - r->at[i] < HOUR)
			r->at[j++] = r->at[i];
	r->nr = j;
}

static bool on_ejected(const struct target *t, const struct kpolicy *kp)
{
	struct restarts *r = restarts_of(t->id);
	double now = monotonic_s(), wait;

	prune(r, now);
	if (kp->id != r->policy_id) {
		r->policy_id = kp->id;
		say("policy %s (id %llu) on /%s was ejected by the kernel: kind=%s reason=\"%s\"%s%s%s\n",
		    kp->name, (unsigned long long)kp->id, t->rel, kp->exit_kind,
		    kp->exit_reason, kp->exit_msg[0] ? " message=\"" : "",
		    kp->exit_msg, kp->exit_msg[0] ? "\"" : "");
		if (r->nr >= (int)max_restarts) {
			r->next = r->at[0] + HOUR;
			say("/%s: %d re-attaches within the hour, the limit: stock MGLRU decides there for %.0f s\n",
			    t->rel, r->nr, r->next - now);
		} else {
			wait = backoff *
			       (double)(1u << (r->nr < 20 ? r->nr : 20));
			if (wait > backoff_max)
				wait = backoff_max;
			r->next = now + wait;
			say("/%s: re-attaching in %.1f s (re-attach %d of at most %u this hour)\n",
			    t->rel, wait, r->nr + 1, max_restarts);
		}
		fflush(stdout);
	}
	if (now < r->next || r->nr >= (int)max_restarts)
		return false;
	r->at[r->nr++] = now;
	return true;
}

static double backoff_after(int failures)
{
	double wait = backoff * (double)(1u << (failures < 20 ? failures : 20));

	return wait > backoff_max ? backoff_max : wait;
}

/* A policy that fails to attach is tried again after a backoff too. */
static void attached(const struct target *t, int status)
{
	struct restarts *r = restarts_of(t->id);
	double wait;

	if (!status) {
		r->failures = 0;
		return;
	}
	wait = backoff_after(r->failures++);
	r->next = monotonic_s() + wait;
	say("/%s: attaching [%s] failed (status %d): trying again in %.1f s\n",
	    t->rel, t->entry->name, status, wait);
}

static bool may_attach(const struct target *t)
{
	struct restarts *r = restarts_of(t->id);

	return monotonic_s() >= r->next;
}

/* The earliest pending re-attach, for poll's timeout. */
static int next_timeout_ms(void)
{
	double now = monotonic_s(), t = 1.0;
	int i;

	for (i = 0; i < nr_tracked; i++) {
		double d = tracked[i].next - now;

		if (tracked[i].next && d > 0 && d < t)
			t = d;
	}
	return (int)(t * 1000) + 1;
}

static void watch_dir(const char *path)
{
	if (inotify_fd >= 0)
		inotify_add_watch(inotify_fd, path,
				  IN_CREATE | IN_DELETE | IN_MOVED_TO |
					  IN_ONLYDIR);
}

/* Drain the inotify queue; whatever it says, we look again. */
static void drain(int fd)
{
	char buf[4096]
		__attribute__((aligned(__alignof__(struct inotify_event))));

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

/* One daemon at a time: a lock on the pid file. */
static int take_lock(void)
{
	char pid[32];
	int fd, n;

	mkdir(RUN_DIR, 0755);
	fd = open(PID_FILE, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail(EXIT_FAILURE_OTHER, "cannot open %s: %s", PID_FILE,
			    strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		n = read(fd, pid, sizeof(pid) - 1);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		close(fd);
		return fail(EXIT_FAILURE_OTHER,
			    "another mglructl daemon runs (pid %s)", pid);
	}
	n = snprintf(pid, sizeof(pid), "%d\n", getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, n, 0) != n)
		return fail(EXIT_FAILURE_OTHER, "cannot write %s", PID_FILE);
	return 0; /* the fd stays open: the lock lives as long as we do */
}

static int parse_seconds(const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	return errno || end == arg || *end || *out <= 0 || *out > 86400 ?
		       -EINVAL :
		       0;
}

int cmd_daemon(int argc, char **argv)
{
	static const struct reconcile_hooks hooks = {
		.on_dir = watch_dir,
		.on_ejected = on_ejected,
		.may_attach = may_attach,
		.attached = attached,
	};
	const char *file = DEFAULT_CONFIG, *wait = NULL, *wait_max = NULL;
	const char *restarts = NULL;
	const struct opt opts[] = {
		OPT("config", 'c', OPT_VALUE, &file),
		OPT("backoff", 'b', OPT_VALUE, &wait),
		OPT("backoff-max", 'B', OPT_VALUE, &wait_max),
		OPT("max-restarts", 'r', OPT_VALUE, &restarts),
		{},
	};
	static struct config cfg, fresh;
	struct signalfd_siginfo si;
	struct pollfd fds[2];
	sigset_t mask;
	int ret, sfd, n;
	uint64_t v;

	ret = parse_options(argc, argv, opts, daemon_usage, 0);
	if (ret)
		return ret;
	if (json_output)
		return usage_error(
			daemon_usage,
			"the daemon logs lines of text; it takes no -j");
	if (wait && parse_seconds(wait, &backoff))
		return usage_error(daemon_usage, "bad --backoff '%s'", wait);
	if (wait_max && parse_seconds(wait_max, &backoff_max))
		return usage_error(daemon_usage, "bad --backoff-max '%s'",
				   wait_max);
	if (restarts && parse_u64(restarts, 0, 64, &v))
		return usage_error(daemon_usage,
				   "bad --max-restarts '%s' (0 to 64)",
				   restarts);
	if (restarts)
		max_restarts = v;
	setvbuf(stdout, NULL, _IOLBF, 0);
	say_timestamps = true;
	ret = config_load(file, &cfg);
	if (!ret)
		ret = check_can_pin();
	if (!ret)
		ret = take_lock();
	if (ret)
		return ret;

	sigemptyset(&mask);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (sfd < 0 || inotify_fd < 0)
		return fail(EXIT_FAILURE_OTHER, "signalfd/inotify: %s",
			    strerror(errno));
	fds[0] = (struct pollfd){ .fd = inotify_fd, .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	say("mglructl daemon %d: config %s, %d section%s\n", getpid(), file,
	    cfg.nr_entries, cfg.nr_entries == 1 ? "" : "s");

	for (;;) {
		reconcile(&cfg, &hooks);
		n = poll(fds, 2, next_timeout_ms());
		if (n < 0 && errno != EINTR)
			return fail(EXIT_FAILURE_OTHER, "poll: %s",
				    strerror(errno));
		if (n > 0 && (fds[0].revents & POLLIN))
			drain(inotify_fd);
		if (n <= 0 || !(fds[1].revents & POLLIN))
			continue;
		if (read(sfd, &si, sizeof(si)) != sizeof(si))
			continue;
		if (si.ssi_signo == SIGHUP) {
			if (config_load(file, &fresh)) {
				say("reloading %s failed (see above): keeping the previous assignment\n",
				    file);
				continue;
			}
			cfg = fresh;
			say("reloaded %s: %d section%s\n", file, cfg.nr_entries,
			    cfg.nr_entries == 1 ? "" : "s");
			continue;
		}
		say("%s: detaching the config's policies\n",
		    strsignal(si.ssi_signo));
		n = detach_owned("the daemon stops");
		say("mglructl daemon %d: detached %d polic%s, exiting\n",
		    getpid(), n, n == 1 ? "y" : "ies");
		unlink(PID_FILE);
		return EXIT_OK;
	}
}
